package io.dataloc.yarn;

import io.dataloc.core.engine.DecisionEngine;
import java.util.HashMap;
import java.util.Map;
import java.util.function.IntUnaryOperator;
import java.util.function.Supplier;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ClusterNodeTracker;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.apache.hadoop.yarn.util.resource.ResourceCalculator;
import org.apache.hadoop.yarn.util.resource.Resources;

/**
 * How many containers of a size a node holds: a node's map slots, a job's slots per host for its
 * plan, whether a size fits a node now. Read from YARN's node tracker (thread-safe) and nodes;
 * both front ends size their engine hosts with it. Holds no state of its own.
 */
final class NodeSizes {
  private final ClusterNodeTracker<? extends SchedulerNode> nodes;
  private final ResourceCalculator calculator;
  private final Supplier<Resource> minimumAllocation;

  NodeSizes(ClusterNodeTracker<? extends SchedulerNode> nodes, ResourceCalculator calculator,
      Supplier<Resource> minimumAllocation) {
    this.nodes = nodes;
    this.calculator = calculator;
    this.minimumAllocation = minimumAllocation;
  }

  ResourceCalculator calculator() {
    return calculator;
  }

  boolean fits(SchedulerNode node, Resource r) {
    return Resources.fitsIn(calculator, r, node.getUnallocatedResource());
  }

  /**
   * Dataloc plans the default partition only: a node an administrator puts in a labelled partition
   * gets no maps planned on it (the standalone scheduler gives it no containers at all, as the
   * CapacityScheduler keeps an exclusive partition's nodes from asks without its label).
   */
  static boolean labelled(SchedulerNode node) {
    String p = node.getPartition();
    return p != null && !p.isEmpty();
  }

  /** How many maps a node may run at once: none in a labelled partition. */
  int mapSlotsAtMost(SchedulerNode node) {
    return labelled(node) ? 0 : slots(node);
  }

  /** Containers of the minimum allocation the node holds (memory, or memory and vcores): at least one. */
  int slots(SchedulerNode node) {
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, minimumContainers(node.getTotalResource())));
  }

  long minimumContainers(Resource room) {
    return Math.max(0, calculator.computeAvailableContainers(room, unit()));
  }

  /** The minimum allocation, counted in units of at least 1 MB and 1 vcore (the key allows 0); kept while it stays. */
  private Resource unit() {
    Resource min = minimumAllocation.get();
    Unit u = unit;
    if (u == null || u.minimum() != min) {
      u = new Unit(min, Resource.newInstance(Math.max(1, min.getMemorySize()), Math.max(1, min.getVirtualCores())));
      unit = u;
    }
    return u.unit();
  }

  private static final class Unit {
    private final Resource minimum;
    private final Resource unit;

    private Unit(Resource minimum, Resource unit) {
      this.minimum = minimum;
      this.unit = unit;
    }

    public Resource minimum() {
      return minimum;
    }

    public Resource unit() {
      return unit;
    }
  }

  private volatile Unit unit;

  /**
   * How many of a job's maps each engine host runs at once: as many of its (normalized) map
   * containers as the node holds; the engine's slots when the map size is unknown. Built without
   * any lock (the node tracker is thread-safe); applied under the plan lock (it reads the engine's
   * host names and slots).
   */
  IntUnaryOperator jobSlots(Resource normalizedMap, Supplier<DecisionEngine> engine) {
    if (normalizedMap == null) {
      return h -> engine.get().state().slots(h);
    }
    Map<String, Resource> totals = new HashMap<>();
    for (SchedulerNode n : nodes.getAllNodes()) {
      totals.put(n.getNodeName(), n.getTotalResource());
    }
    return h -> {
      Resource total = totals.get(engine.get().state().hostName(h));
      return total == null ? engine.get().state().slots(h)
          : (int) Math.min(Integer.MAX_VALUE, calculator.computeAvailableContainers(total, normalizedMap));
    };
  }
}
