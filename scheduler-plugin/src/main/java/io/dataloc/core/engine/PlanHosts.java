package io.dataloc.core.engine;

import io.dataloc.core.model.Cluster;
import io.dataloc.core.model.PlacementGraph;
import io.dataloc.core.model.Problem;
import io.dataloc.core.model.TaskHosts;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The live hosts as a plan sees them (a copy, so it may be used without the engine), with their
 * backlog and the reads their links carry:
 * {@code engineHost[c]} is cluster host {@code c}'s engine index; {@code known} maps the names of
 * every host ever seen to engine indexes (which never change); {@code racks} is all null when
 * some live host's rack is unknown.
 */
public final class PlanHosts {
  private final String[] names;
  private final String[] racks;
  private final int[] slots;
  private final long[] loads;
  private final int[] readsOut;
  private final int[] engineHost;
  private final Map<String, Integer> known;
  private final io.dataloc.core.model.CostModel cost;

  /** {@code readsOut[c]}: the reads host c's link may carry now ({@link EngineState#readsOut}). */
  public PlanHosts(String[] names, String[] racks, int[] slots, long[] loads, int[] readsOut, int[] engineHost,
      Map<String, Integer> known, io.dataloc.core.model.CostModel cost) {
    this.names = names;
    this.racks = racks;
    this.slots = slots;
    this.loads = loads;
    this.readsOut = readsOut;
    this.engineHost = engineHost;
    this.known = known;
    this.cost = cost;
  }

  public String[] names() {
    return names;
  }

  public String[] racks() {
    return racks;
  }

  public int[] slots() {
    return slots;
  }

  public long[] loads() {
    return loads;
  }

  public int[] readsOut() {
    return readsOut;
  }

  public int[] engineHost() {
    return engineHost;
  }

  public Map<String, Integer> known() {
    return known;
  }

  public io.dataloc.core.model.CostModel cost() {
    return cost;
  }

  /**
   * The hosts a plan is made on, with their slots for this job and their backlog (running plus
   * queued tasks, in local-task units {@code wLoc} per slot): the live hosts with map slots now;
   * when none has one, every live host with the slots the job's containers would have there.
   * Null if no host is live. {@code O(hosts)}.
   */
  static PlanHosts of(EngineState state, io.dataloc.core.online.OnlinePolicy policy,
      java.util.function.IntUnaryOperator jobSlots, long wLoc, io.dataloc.core.model.CostModel cost) {
    int hostCount = state.hostCount();
    int live = 0;
    int withSlots = 0;
    for (int h = 0; h < hostCount; h++) {
      if (state.alive(h)) {
        live++;
        withSlots += state.slots(h) > 0 ? 1 : 0;
      }
    }
    if (live == 0) {
      return null;
    }
    boolean full = withSlots == 0;
    int n = full ? live : withSlots;
    boolean racks = true;
    String[] names = new String[n];
    String[] rackNames = new String[n];
    int[] slots = new int[n];
    long[] loads = new long[n];
    int[] readsOut = new int[n];
    int[] engineHost = new int[n];
    int c = 0;
    for (int h = 0; h < hostCount; h++) {
      if (state.alive(h) && (full || state.slots(h) > 0)) {
        slots[c] = Math.max(1, full ? jobSlots.applyAsInt(h) : Math.min(state.slots(h), jobSlots.applyAsInt(h)));
        long backlog = (long) state.running(h) + policy.queuedFor(h);
        loads[c] = backlog * wLoc / slots[c];
        readsOut[c] = state.readsOut(h);
        names[c] = state.hostName(h);
        racks &= state.rackOf(h) != EngineState.NO_RACK;
        rackNames[c] = racks ? state.rackName(state.rackOf(h)) : null;
        engineHost[c] = h;
        c++;
      }
    }
    if (!racks) {
      java.util.Arrays.fill(rackNames, null); // racks only if every planned host has one
    }
    return new PlanHosts(names, rackNames, slots, loads, readsOut, engineHost, state.frozenHostIndex(), cost);
  }

  /**
   * The planning problem for a job's tasks on these hosts: tasks with no live replica are left
   * out of the plan (and routed online when it is applied); host names no engine host has are
   * dropped. Linear in the job's replicas.
   */
  public PlanInput input(List<List<String>> replicaHosts) {
    return input(TaskHosts.of(replicaHosts, name -> known.getOrDefault(name, -1)));
  }

  /**
   * The planning problem for a job's tasks, their replicas given as engine host indexes (hosts no
   * node has already dropped): as {@link #input(List)}. Linear in the job's replicas.
   */
  public PlanInput input(TaskHosts replicaHosts) {
    Cluster.Builder cb = Cluster.builder();
    int[] clusterOfEngine = new int[Math.max(known.size(), replicaHosts.hostBound()) + 1];
    Arrays.fill(clusterOfEngine, -1);
    for (int c = 0; c < names.length; c++) {
      cb.host(names[c], racks[c], slots[c], loads[c], readsOut[c]);
      if (engineHost[c] < clusterOfEngine.length) {
        clusterOfEngine[engineHost[c]] = c;
      }
    }
    Cluster cluster = cb.build();
    PlacementGraph.Builder gb = PlacementGraph.builder(cluster);
    int tasks = replicaHosts.tasks();
    int[] taskOfPlan = new int[tasks];
    int[][] replicas = new int[tasks][];
    int planned = 0;
    for (int i = 0; i < tasks; i++) {
      int n = replicaHosts.count(i);
      int[] engineReps = new int[n];
      for (int k = 0; k < n; k++) {
        engineReps[k] = replicaHosts.host(i, k);
      }
      replicas[i] = engineReps;
      int[] reps = new int[n];
      int m = 0;
      for (int k = 0; k < n; k++) {
        int ch = clusterOfEngine[engineReps[k]];
        if (ch >= 0) {
          reps[m++] = ch;
        }
      }
      if (m > 0) {
        gb.task("t" + i, Arrays.copyOf(reps, m));
        taskOfPlan[planned++] = i;
      }
    }
    Problem p = Problem.of(cluster, gb.build(), cost);
    return new PlanInput(p, Arrays.copyOf(taskOfPlan, planned), engineHost.clone(), replicas);
  }

  @Override
  public boolean equals(Object o) {
    if (o == this) {
      return true;
    }
    if (!(o instanceof PlanHosts)) {
      return false;
    }
    PlanHosts that = (PlanHosts) o;
    return Objects.equals(names, that.names)
        && Objects.equals(racks, that.racks)
        && Objects.equals(slots, that.slots)
        && Objects.equals(loads, that.loads)
        && Objects.equals(readsOut, that.readsOut)
        && Objects.equals(engineHost, that.engineHost)
        && Objects.equals(known, that.known)
        && Objects.equals(cost, that.cost);
  }

  @Override
  public int hashCode() {
    return Objects.hash(names, racks, slots, loads, readsOut, engineHost, known, cost);
  }

  @Override
  public String toString() {
    return "PlanHosts[names=" + names
        + ", racks=" + racks
        + ", slots=" + slots
        + ", loads=" + loads
        + ", readsOut=" + readsOut
        + ", engineHost=" + engineHost
        + ", known=" + known
        + ", cost=" + cost + "]";
  }
}
