package io.dataloc.yarn;

import io.dataloc.core.engine.DecisionEngine;
import io.dataloc.core.engine.PlanHosts;
import java.util.function.IntUnaryOperator;
import org.apache.hadoop.net.NetworkTopology;

/**
 * The hosts' snapshot a job's plan is made on, taken under the monitor ({@link #take}): the hosts
 * with their slots for the job and their loads, the engine's task counts (to size its arrays off
 * the lock), every engine host's rack id ({@code rackOfHost}, negative if it has none) and the
 * default rack's, where the MapReduce AM puts hosts no node has (negative if no node is on it).
 */
final class PlanSnapshot {
  private final PlanHosts hosts;
  private final int taskCount;
  private final int liveTasks;
  private final int capacity;
  private final int[] rackOfHost;
  private final int defaultRack;

  private PlanSnapshot(PlanHosts hosts, int taskCount, int liveTasks, int capacity, int[] rackOfHost,
      int defaultRack) {
    this.hosts = hosts;
    this.taskCount = taskCount;
    this.liveTasks = liveTasks;
    this.capacity = capacity;
    this.rackOfHost = rackOfHost;
    this.defaultRack = defaultRack;
  }

  PlanHosts hosts() {
    return hosts;
  }

  int taskCount() {
    return taskCount;
  }

  int liveTasks() {
    return liveTasks;
  }

  int capacity() {
    return capacity;
  }

  int[] rackOfHost() {
    return rackOfHost;
  }

  int defaultRack() {
    return defaultRack;
  }

  /**
   * Checks the job still waits for a plan and snapshots the hosts, in one hold of the monitor
   * ({@code O(hosts)}); null if it is served from its asks instead (no placement, too many maps,
   * nodes joined since its read, no live node), which this says in the job's note.
   */
  static PlanSnapshot take(SchedulerContext ctx, DatalocApp a, PlacementReader.Placement placement,
      IntUnaryOperator slotsForJob) {
    synchronized (ctx.lock()) {
      ctx.holds().enter();
      try {
        if (a.phase() != DatalocApp.Phase.READING || !ctx.apps().contains(a.id)) {
          return null;
        }
        if (placement == null || placement.hosts().tasks() == 0) {
          ctx.apps().goOnline(a, "no placement source for this application");
          return null;
        }
        if (placement.hosts().tasks() > ctx.settings().planMaxTasks()) {
          ctx.apps().goOnline(a, "job has " + placement.hosts().tasks() + " maps, above plan.max-tasks");
          return null;
        }
        DecisionEngine engine = ctx.engine();
        if (placement.amOrder() && placement.hosts().namesAnyUnknownHost()
            && engine.state().hostCount() > a.hostsAtRead) {
          // Nodes joined after the read (an RM restart, say) and the split names hosts no node had
          // then: some may be those nodes, whose names the read did not keep, so the AM's choice
          // of task on them cannot be replayed. Served from its asks rather than replayed wrong.
          ctx.apps().goOnline(a, "nodes joined while its split file was read; served from its asks");
          return null;
        }
        PlanHosts hosts = engine.planHosts(slotsForJob);
        if (hosts == null) {
          ctx.apps().goOnline(a, "no live node to plan on");
          return null;
        }
        a.startPlanning(placement.source());
        int[] racks = new int[engine.state().hostCount()];
        for (int h = 0; h < racks.length; h++) {
          racks[h] = engine.state().rackOf(h);
        }
        return new PlanSnapshot(hosts, engine.state().taskCount(), engine.state().liveTasks(), engine.state().capacity(),
            racks, PlanEntry.rackId(engine, NetworkTopology.DEFAULT_RACK));
      } finally {
        ctx.holds().exit("plan: problem");
      }
    }
  }
}
