package io.dataloc.yarn;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ClusterNodeTracker;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerNode;
import org.apache.hadoop.yarn.util.resource.ResourceCalculator;
import org.apache.hadoop.yarn.util.resource.Resources;

/**
 * The cluster's room as Dataloc serves it: what its containers use, what ApplicationMasters hold
 * against the AM limit, which nodes sit in a labelled partition (not Dataloc's), the free resource
 * AMs are told as headroom, and how many containers of a size a node holds. The one owner of
 * these facts; called under the scheduler's monitor except {@link #free()}.
 */
final class ClusterRoom {
  private final ClusterNodeTracker<FiCaSchedulerNode> nodes;
  private final ResourceCalculator calculator;
  private final Supplier<Resource> minimumAllocation;
  private final Supplier<Settings> settings;
  private final NodeSizes sizes;
  private final Resource used = Resource.newInstance(0, 0);
  /**
   * ApplicationMaster containers we allocated (or recovered) and still count against the AM limit,
   * by attempt (one AM container each).
   */
  private final Map<ApplicationAttemptId, Am> ams = new HashMap<>();
  private final Resource amUsed = Resource.newInstance(0, 0);
  /** Nodes in a labelled partition: no containers, no maps, and not in the headroom. */
  private final Set<NodeId> labelledNodes = new HashSet<>();
  /** The cluster's free resource as of the last change, for AMs' headroom (read without the lock). */
  private volatile Resource free = Resources.none();

  ClusterRoom(ClusterNodeTracker<FiCaSchedulerNode> nodes, NodeSizes sizes, ResourceCalculator calculator,
      Supplier<Resource> minimumAllocation, Supplier<Settings> settings) {
    this.nodes = nodes;
    this.calculator = calculator;
    this.minimumAllocation = minimumAllocation;
    this.settings = settings;
    this.sizes = sizes;
  }

  /** How many containers of a size the nodes hold. */
  NodeSizes sizes() {
    return sizes;
  }

  ResourceCalculator calculator() {
    return calculator;
  }

  /** What guaranteed containers use (live object: read under the lock). */
  Resource used() {
    return used;
  }

  /** The headroom: the served nodes' free resource at the last change (any thread). */
  Resource free() {
    return free;
  }

  long amMemoryUsed() {
    return amUsed.getMemorySize();
  }

  /** A container was allocated here (an AM one also counts against the AM limit). */
  void allocated(ContainerId id, Resource capability, boolean am) {
    if (am) {
      ams.put(id.getApplicationAttemptId(), new Am(id, capability));
      Resources.addTo(amUsed, capability);
    }
    Resources.addTo(used, capability);
    refreshFree();
  }

  /**
   * The memory of the attempt's AM container while it runs (0 for none: an unmanaged AM, or one
   * that ended). Its id depends on the ResourceManager's epoch, so it is kept, not computed.
   */
  long amMemory(ApplicationAttemptId attempt) {
    Am am = ams.get(attempt);
    return am == null ? 0 : am.size.getMemorySize();
  }

  /** An attempt's AM container and its size. */
  private static final class Am {
    final ContainerId id;
    final Resource size;

    Am(ContainerId id, Resource size) {
      this.id = id;
      this.size = size;
    }
  }

  /** An AM container ended: it no longer counts against the AM limit (idempotent). */
  void amEnded(ContainerId id) {
    Am am = ams.get(id.getApplicationAttemptId());
    if (am != null && am.id.equals(id)) {
      ams.remove(id.getApplicationAttemptId());
      Resources.subtractFrom(amUsed, am.size);
    }
  }

  /** A guaranteed container was counted out (YARN completes no other kind here). */
  void released(Resource capability) {
    Resources.subtractFrom(used, capability);
  }

  /**
   * A container recovered after a restart: a guaranteed one counts in {@code used}; an opportunistic
   * one runs in a node's spare room and never does (Dataloc allocates none; only a scheduler before
   * the restart can have).
   */
  void recovered(RMContainer c) {
    if (c.getExecutionType() != org.apache.hadoop.yarn.api.records.ExecutionType.OPPORTUNISTIC) {
      Resources.addTo(used, c.getAllocatedResource());
    }
  }

  /** A recovered AM container counts against the AM limit, as one allocated here (once). */
  private void amRecovered(RMContainer c) {
    Am known = ams.get(c.getContainerId().getApplicationAttemptId());
    if (known == null || !known.id.equals(c.getContainerId())) {
      if (known != null) {
        Resources.subtractFrom(amUsed, known.size);
      }
      ams.put(c.getContainerId().getApplicationAttemptId(), new Am(c.getContainerId(), c.getAllocatedResource()));
      Resources.addTo(amUsed, c.getAllocatedResource());
    }
  }

  /** The AM containers among those a node reports as it registers with a restarted RM. */
  void amsRecovered(List<org.apache.hadoop.yarn.server.api.protocolrecords.NMContainerStatus> reports,
      java.util.function.Function<org.apache.hadoop.yarn.api.records.ContainerId, RMContainer> containers) {
    for (var report : reports == null ? List.<org.apache.hadoop.yarn.server.api.protocolrecords.NMContainerStatus>of()
        : reports) {
      RMContainer c = containers.apply(report.getContainerId());
      if (c != null && c.isAMContainer()
          && c.getState() != org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerState.COMPLETED) {
        amRecovered(c);
      }
    }
  }

  /** Called wherever the cluster's size or use changes. */
  void refreshFree() {
    Resource room = Resources.subtract(nodes.getClusterCapacity(), used);
    for (NodeId id : labelledNodes) {
      FiCaSchedulerNode n = nodes.getNode(id);
      if (n != null) {
        Resources.subtractFrom(room, n.getUnallocatedResource()); // a labelled partition's room is not ours
      }
    }
    free = Resources.componentwiseMax(Resources.none(), room);
  }

  /** The resources of the nodes Dataloc serves: the cluster's less the labelled partitions'. */
  Resource served() {
    Resource r = Resources.clone(nodes.getClusterCapacity());
    for (NodeId id : labelledNodes) {
      FiCaSchedulerNode n = nodes.getNode(id);
      if (n != null) {
        Resources.subtractFrom(r, n.getTotalResource());
      }
    }
    return Resources.componentwiseMax(Resources.none(), r);
  }

  /**
   * Whether an ApplicationMaster container of this size may start: ApplicationMasters may hold
   * {@code maximum-am-resource-percent} of the served resources, rounded up to a multiple of the
   * minimum allocation ({@link #amLimit}; memory; with the dominant calculator, the dominant
   * share), and one always may (as in the CapacityScheduler, so a small
   * cluster is never left with none).
   */
  boolean amFits(Resource am) {
    if (amUsed.getMemorySize() <= 0 && amUsed.getVirtualCores() <= 0) {
      return true;
    }
    Resource served = served();
    return Resources.lessThanOrEqual(calculator, served, Resources.add(amUsed, am),
        amLimit(served, settings.get().amResourcePermille(), minimumAllocation.get()));
  }

  /**
   * The AM limit as the CapacityScheduler computes it: the fraction of the served resources,
   * rounded <em>up</em> to a multiple of the minimum allocation (its
   * {@code multiplyAndNormalizeUp}), in exact integer arithmetic. Rounded down, as before, the
   * "same" limit let fewer AMs run under Dataloc than under the CapacityScheduler (4 against 5 on
   * 16 GB at 0.3 with 1-GB AMs).
   */
  static Resource amLimit(Resource served, long permille, Resource minimum) {
    long mem = Math.max(1, minimum.getMemorySize());
    long cores = Math.max(1, minimum.getVirtualCores());
    return Resource.newInstance(roundUp(served.getMemorySize() * permille, 1000L * mem) * mem,
        (int) (roundUp((long) served.getVirtualCores() * permille, 1000L * cores) * cores));
  }

  /** {@code ceil(a / b)} for {@code a >= 0, b > 0}. */
  private static long roundUp(long a, long b) {
    return (a + b - 1) / b;
  }

  /** Keeps the labelled-node index true to the node's partition; whether the node is labelled. */
  boolean indexPartition(FiCaSchedulerNode node) {
    if (NodeSizes.labelled(node)) {
      labelledNodes.add(node.getNodeID());
      return true;
    }
    labelledNodes.remove(node.getNodeID());
    return false;
  }

  void nodeRemoved(NodeId id) {
    labelledNodes.remove(id);
  }
}
