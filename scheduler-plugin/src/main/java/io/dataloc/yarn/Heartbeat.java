package io.dataloc.yarn;

import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerNode;

/**
 * One node heartbeat's scheduling, after YARN has processed its container updates (under the
 * scheduler's monitor): the engine's clock and the node's state first, the changed asks
 * reconciled, then containers until the node is full, nothing fits or
 * {@code heartbeat.max-containers} have been handed out — AMs (within the AM limit) and the work of
 * applications not waiting for maps first; then the engine's maps; then what is left (reduces,
 * retried maps) of applications still waiting for maps, so a reduce never takes the container one
 * of its job's maps could have had. A node being decommissioned gracefully or in a labelled
 * partition takes no new container. (YARN also shrinks a decommissioning node to what it runs, by
 * an event sent from the heartbeat: no room should show, but nothing here counts on the event
 * having arrived.)
 */
final class Heartbeat {
  /** Bound on the containers one heartbeat may hand out (and on {@code heartbeat.max-containers}). */
  static final int MAX_CONTAINERS = 10_000;

  private final SchedulerContext ctx;
  private final Containment containment;
  private final ClusterRoom room;
  private final NodeEvents nodes;
  private final AskSync asks;
  private final OtherWork otherWork;
  private final EngineMaps maps;
  private final Supplier<Resource> minimumAllocation;
  /** Sets the room left on the queue metrics. */
  private final Consumer<Resource> available;

  Heartbeat(SchedulerContext ctx, Containment containment, ClusterRoom room, NodeEvents nodes, AskSync asks,
      OtherWork otherWork, EngineMaps maps, Supplier<Resource> minimumAllocation,
      Consumer<Resource> available) {
    this.available = available;
    this.ctx = ctx;
    this.containment = containment;
    this.room = room;
    this.nodes = nodes;
    this.asks = asks;
    this.otherWork = otherWork;
    this.maps = maps;
    this.minimumAllocation = minimumAllocation;
  }

  /** Schedules the node; an error costs the application worked for, or degrades (see {@link Containment}). */
  void schedule(FiCaSchedulerNode node) {
    try {
      fill(node);
    } catch (Throwable t) {
      org.apache.hadoop.yarn.api.records.ApplicationId blamed = ctx.takeWorking();
      containment.fail("scheduling node " + node.getNodeID() + (blamed == null ? "" : " for " + blamed), t, blamed);
    }
    room.refreshFree();
    available.accept(room.free());
  }

  private void fill(FiCaSchedulerNode node) {
    LockHolds holds = ctx.holds();
    ctx.working(null);
    containment.recoverIfQuiet();
    ctx.faults().at(FaultInjector.HEARTBEAT, null);
    ctx.advanceEngineClock();
    nodes.drainIfDecommissioning(node);
    nodes.mapSlots(node);
    otherWork.beginHeartbeat();
    holds.mark("hb: node state");
    boolean engineOn = !containment.degraded();
    if (engineOn) {
      asks.reconcileChanged();
      holds.mark("hb: reconcile asks");
      otherWork.sweep();
    }
    boolean closed = EngineNodes.decommissioning(node) || NodeSizes.labelled(node);
    int paced = ctx.settings().heartbeatMaxContainers();
    int most = paced == 0 ? MAX_CONTAINERS : paced;
    for (int n = 0; n < most && !closed && room.sizes().fits(node, minimumAllocation.get()); n++) {
      ctx.working(null);
      boolean served = otherWork.assign(node, engineOn, true);
      holds.mark("hb: AMs and other work");
      if (served) {
        continue;
      }
      ctx.working(null);
      if (engineOn && maps.assign(node)) {
        continue;
      }
      ctx.working(null);
      served = otherWork.assign(node, engineOn, false);
      holds.mark("hb: work after maps");
      if (!served) {
        break;
      }
    }
    // What this heartbeat placed (an AM, a reduce) holds room from now on: a plan made before the
    // node's next heartbeat must not count it as map slots.
    nodes.mapSlots(node);
    ctx.working(null);
  }
}
