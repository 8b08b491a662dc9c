package io.dataloc.yarn;

import io.dataloc.core.engine.DecisionEngine;
import java.util.Objects;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Nodes as the engine sees them, for both front ends: a node added, resized, draining, lost, or
 * with room for fewer maps becomes an engine host with its map slots, or leaves (its queued maps
 * re-routed). Fed {@link Facts} snapshots taken before the plan lock, so nothing here reads a node.
 */
final class EngineNodes {
  private static final Logger LOG = LoggerFactory.getLogger(PlanService.class);

  /**
   * What the engine needs of a node, read from YARN with no plan lock held.
   *
   * @param slots minimum containers it holds when empty (at least one)
   * @param slotsAtMost maps it holds at once when empty (0 in a labelled partition)
   * @param freeContainers minimum containers its unallocated room holds now (0 when labelled)
   */
  static final class Facts {
    private final String name;
    private final String rack;
    private final int slots;
    private final int slotsAtMost;
    private final long freeContainers;
    private final boolean decommissioning;

    Facts(String name, String rack, int slots, int slotsAtMost, long freeContainers, boolean decommissioning) {
      this.name = name;
      this.rack = rack;
      this.slots = slots;
      this.slotsAtMost = slotsAtMost;
      this.freeContainers = freeContainers;
      this.decommissioning = decommissioning;
    }

    public String name() {
      return name;
    }

    public String rack() {
      return rack;
    }

    public int slots() {
      return slots;
    }

    public int slotsAtMost() {
      return slotsAtMost;
    }

    public long freeContainers() {
      return freeContainers;
    }

    public boolean decommissioning() {
      return decommissioning;
    }

    static Facts of(SchedulerNode node, NodeSizes sizes) {
      int slots = sizes.slots(node);
      boolean labelled = NodeSizes.labelled(node);
      return new Facts(node.getNodeName(), node.getRackName(), slots, labelled ? 0 : slots,
          labelled ? 0 : sizes.minimumContainers(node.getUnallocatedResource()), EngineNodes.decommissioning(node));
    }

    @Override
    public boolean equals(Object o) {
      if (o == this) {
        return true;
      }
      if (!(o instanceof Facts)) {
        return false;
      }
      Facts that = (Facts) o;
      return Objects.equals(name, that.name)
          && Objects.equals(rack, that.rack)
          && slots == that.slots
          && slotsAtMost == that.slotsAtMost
          && freeContainers == that.freeContainers
          && decommissioning == that.decommissioning;
    }

    @Override
    public int hashCode() {
      return Objects.hash(name, rack, slots, slotsAtMost, freeContainers, decommissioning);
    }

    @Override
    public String toString() {
      return "Facts[name=" + name
          + ", rack=" + rack
          + ", slots=" + slots
          + ", slotsAtMost=" + slotsAtMost
          + ", freeContainers=" + freeContainers
          + ", decommissioning=" + decommissioning + "]";
    }
  }

  private final SchedulerContext ctx;

  EngineNodes(SchedulerContext ctx) {
    this.ctx = ctx;
  }

  static boolean decommissioning(SchedulerNode node) {
    return node.getRMNode() != null && node.getRMNode().getState() == NodeState.DECOMMISSIONING;
  }

  /** A node joined (or came back). Under the plan lock. */
  void added(Facts n) {
    ctx.engine().addHost(n.name(), n.rack(), n.slotsAtMost());
  }

  /** A node's total resource or partition changed. Under the plan lock. */
  void resized(Facts n) {
    int h = ctx.engine().state().hostIndex(n.name());
    if (h >= 0) {
      ctx.engine().setSlots(h, n.slotsAtMost());
    }
  }

  /** A node is lost: its queued and running maps are re-routed. Under the plan lock. */
  void removed(String name) {
    DecisionEngine engine = ctx.engine();
    int h = engine.state().hostIndex(name);
    if (h >= 0) {
      int moved = engine.removeHost(h);
      if (moved > 0) {
        ctx.metrics().replans.incr();
        LOG.info("Node {} lost: {} queued or running map tasks re-routed", name, moved);
      }
    }
  }

  /**
   * A node being decommissioned gracefully takes no new maps and is planned on no more; the maps
   * queued for it go elsewhere; its running maps finish. (YARN also shrinks it to what it runs.)
   * A node taken back into service is a host again. Under the plan lock.
   */
  void drainIfDecommissioning(Facts n) {
    DecisionEngine engine = ctx.engine();
    int h = engine.state().hostIndex(n.name());
    if (h < 0) {
      return;
    }
    if (n.decommissioning() && engine.state().alive(h)) {
      int moved = engine.drainHost(h);
      ctx.metrics().replans.incr();
      LOG.info("Node {} is decommissioning: no new maps there; {} queued maps re-routed", n.name(), moved);
    } else if (!n.decommissioning() && engine.state().draining(h)) {
      engine.addHost(n.name(), n.rack(), n.slotsAtMost());
      LOG.info("Node {} is back in service", n.name());
    }
  }

  /**
   * How many maps the node could run at once now: its free room plus the engine's maps running
   * there. Containers that are not the engine's maps (AMs, reduces, other applications' work) may
   * hold a node for as long as they like; a node full of them gets no slots, so no plan counts on
   * it and the policies route and steal its queued maps away. Under the plan lock.
   */
  void mapSlots(Facts n) {
    DecisionEngine engine = ctx.engine();
    int h = engine.state().hostIndex(n.name());
    if (h < 0 || !engine.state().alive(h)) {
      return;
    }
    int now = (int) Math.min(n.slots(), n.freeContainers() + engine.state().running(h));
    if (now != engine.state().slots(h)) {
      engine.setSlots(h, now);
    }
  }
}
