package io.dataloc.sim.planmode;

import io.dataloc.core.am.AmReplay;
import io.dataloc.core.am.AskDeltas;
import io.dataloc.core.am.AskReconciler;
import io.dataloc.core.am.MapService;
import io.dataloc.core.am.PlanGuard;
import io.dataloc.core.engine.BudgetedPlanner;
import io.dataloc.core.engine.Decision;
import io.dataloc.core.engine.DecisionEngine;
import io.dataloc.core.engine.EngineConfig;
import io.dataloc.core.engine.PlanApplication;
import io.dataloc.core.engine.PlanHosts;
import io.dataloc.core.engine.PlanInput;
import io.dataloc.core.model.Assignment;
import io.dataloc.core.model.TaskHosts;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The plan mode that ships, without a ResourceManager: the MockRM harness's rounds (the
 * comparison test's and the RM benchmark's) replayed on the engine with the adapter's defaults
 * ({@link EngineConfig#resourceManager}), the plan made as the adapter makes it ({@link
 * BudgetedPlanner}: the assigner within its budget, then host levelling), and every free slot served by the core's {@link MapService} — the same
 * loop, declines ({@link PlanGuard}) and AM replay ({@link AmReplay}) the adapter runs — with ask
 * reconciliation by {@link AskReconciler}.
 *
 * <p>The harness it mirrors: one MapReduce job whose AM holds one container on the first host;
 * a round is an AM heartbeat (asks sent, containers pulled), a heartbeat of every node in order
 * (each fills its free slots), another AM heartbeat, then a tick: a map runs one round if the AM
 * gave it a container on its data, two if on its rack, three otherwise; a node reporting a map
 * that finished or one that started for longer than a round heartbeats then, and is filled again.
 * The AM matches the containers it pulls as MapReduce's does, all at once: each to the first
 * pending task whose split names its host, then those left to one of its rack, then to any
 * pending task; a container left over is released. What the simulation leaves out: the RM's
 * asynchronous events (it runs everything in order), relaxLocality, blacklists, failures, and
 * map sizes other than one slot.
 */
public final class PlanModeSimulator {
  /** What the run measured, as the MockRM comparison reports it. */
  public record Outcome(int dataLocal, int maps, int maxPerHost, int rounds, Map<String, Integer> perHost) {}

  private static final long JOB = 1;

  private final Map<String, String> rackOf;
  private final List<List<String>> splits;
  private final List<String> hosts;
  private final DecisionEngine engine;
  private final int[] room;
  private final Map<String, Integer> hostIndex = new HashMap<>();
  // The AM: pending[t] until it gets a container; level and host it ran at.
  private final boolean[] pending;
  private final int[] level;
  private final String[] ranOn;
  private int doneMaps;
  // The ResourceManager's view of the AM's asks: the * ask left after what was allocated.
  private int outstanding;
  private boolean dirty;
  // Containers allocated and not yet pulled: {host, engine task}; running: {host, AM task, rounds left, engine task}.
  private final List<int[]> unpulled = new ArrayList<>();
  private final List<int[]> running = new ArrayList<>();
  private final List<int[]> released = new ArrayList<>();
  private final AmReplay replay;
  private final PlanGuard guard;
  private final Map<String, Integer> mapsOn = new HashMap<>();
  private final int planTasks;
  private final int slots;

  private PlanModeSimulator(String assigner, Map<String, String> topology, List<List<String>> splits, int slots) {
    this.rackOf = topology;
    this.splits = splits;
    this.hosts = new ArrayList<>(topology.keySet());
    this.engine = new DecisionEngine(EngineConfig.resourceManager(assigner));
    this.room = new int[hosts.size()];
    this.slots = slots;
    for (int h = 0; h < hosts.size(); h++) {
      hostIndex.put(hosts.get(h), engine.addHost(hosts.get(h), topology.get(hosts.get(h)), slots));
      room[h] = slots;
    }
    room[0]--; // the AM's container
    engine.setSlots(hostIndex.get(hosts.get(0)), room[0]);
    int m = splits.size();
    pending = new boolean[m];
    java.util.Arrays.fill(pending, true);
    level = new int[m];
    ranOn = new String[m];
    outstanding = m;
    // The plan, as the adapter makes it: the hosts' snapshot, then the adapter's planner (the
    // assigner within plan.time-budget-ms, round-robin past it, host levelling) on a thread of its own.
    PlanHosts planHosts = engine.planHosts(h -> slots);
    PlanInput input = planHosts.input(splits);
    Assignment plan = plan(input, assigner);
    PlanApplication app = PlanApplication.prepare(JOB, "alice", input, plan);
    while (!engine.applySome(app, Integer.MAX_VALUE)) {
      // all at once
    }
    planTasks = m;
    replay = new AmReplay(TaskHosts.of(splits, engine.state()::hostIndex), engine.state()::rackOf, -1);
    guard = PlanGuard.of(input.problem(), plan, EngineConfig.resourceManager(assigner).nodeDelay());
  }

  /** The adapter's defaults: {@code plan.time-budget-ms} 2000, {@code plan.fallback-assigner} round-robin, seed 1. */
  private static Assignment plan(PlanInput input, String assigner) {
    java.util.concurrent.ExecutorService thread = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "plan-mode-planner");
      t.setDaemon(true);
      return t;
    });
    try {
      BudgetedPlanner.Result r = new BudgetedPlanner(thread).plan(input.problem(), assigner, "round-robin", 1L, 2000);
      if (r.plan() == null) {
        throw new IllegalStateException("planning failed: " + r.failure());
      }
      return r.plan();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while planning", e);
    } finally {
      thread.shutdownNow();
    }
  }

  /** Runs the job to its end or {@code maxRounds}; rounds is -1 if it did not finish. */
  public static Outcome run(String assigner, Map<String, String> topology, List<List<String>> splits,
      int slotsPerHost, int maxRounds) {
    PlanModeSimulator s = new PlanModeSimulator(assigner, topology, splits, slotsPerHost);
    int rounds = -1;
    for (int round = 1; round <= maxRounds; round++) {
      s.amHeartbeat();
      for (int h = 0; h < s.hosts.size(); h++) {
        s.nodeHeartbeat(h);
      }
      s.amHeartbeat();
      s.tick();
      if (s.doneMaps == splits.size()) {
        rounds = round;
        break;
      }
    }
    Map<String, Integer> perHost = new TreeMap<>();
    int local = 0;
    for (int t = 0; t < splits.size(); t++) {
      if (s.ranOn[t] != null) {
        perHost.merge(s.ranOn[t], 1, Integer::sum);
        local += s.level[t] == 0 ? 1 : 0;
      }
    }
    int max = perHost.values().stream().mapToInt(Integer::intValue).max().orElse(0);
    return new Outcome(local, splits.size(), max, rounds, perHost);
  }

  /** The AM's heartbeat: releases processed, asks updated (less what it has not pulled), containers matched. */
  private void amHeartbeat() {
    for (int[] c : released) {
      engine.taskFailed(c[1]);
      replay.markPending(engine.state().indexInJob(c[1]));
      room[c[0]]++;
    }
    released.clear();
    int amPending = 0;
    for (boolean p : pending) {
      amPending += p ? 1 : 0;
    }
    outstanding = Math.max(0, amPending - unpulled.size());
    dirty = true;
    List<int[]> left = new ArrayList<>(unpulled);
    unpulled.clear();
    for (int pass = 0; pass < 3; pass++) {
      for (var it = left.iterator(); it.hasNext();) {
        int[] c = it.next();
        int t = firstPending(hosts.get(c[0]), pass);
        if (t >= 0) {
          pending[t] = false;
          level[t] = pass;
          ranOn[t] = hosts.get(c[0]);
          running.add(new int[] {c[0], t, pass + 1, c[1], 1});
          it.remove();
        }
      }
    }
    released.addAll(left);
  }

  /** The AM's rule: the first pending task naming the host (pass 0), one of its rack (1), any (2). */
  private int firstPending(String host, int pass) {
    for (int t = 0; t < pending.length; t++) {
      if (!pending[t]) {
        continue;
      }
      if (pass == 2 || pass == 0 && splits.get(t).contains(host)
          || pass == 1 && splits.get(t).stream().anyMatch(x -> rackOf.get(x).equals(rackOf.get(host)))) {
        return t;
      }
    }
    return -1;
  }

  /** Maps advance a round; a node with a map finished, or one started for longer, heartbeats. */
  private void tick() {
    Map<Integer, List<int[]>> finished = new LinkedHashMap<>();
    boolean[] reports = new boolean[hosts.size()];
    for (var it = running.iterator(); it.hasNext();) {
      int[] r = it.next();
      if (r[4] == 1 && r[2] > 1) {
        reports[r[0]] = true; // reported RUNNING
      }
      r[4] = 0;
      if (--r[2] <= 0) {
        finished.computeIfAbsent(r[0], k -> new ArrayList<>()).add(r);
        reports[r[0]] = true;
        it.remove();
      }
    }
    for (int h = 0; h < hosts.size(); h++) {
      for (int[] r : finished.getOrDefault(h, List.of())) {
        engine.taskFinished(r[3]);
        doneMaps++;
        room[h]++;
        dirty = true;
      }
      if (reports[h]) {
        nodeHeartbeat(h);
      }
    }
  }

  /** A node's heartbeat: the asks reconciled if they changed, the node's slots, then its free slots filled. */
  private void nodeHeartbeat(int h) {
    if (dirty) {
      reconcile();
      dirty = false;
    }
    int e = hostIndex.get(hosts.get(h));
    engine.setSlots(e, Math.min(slots, room[h] + engine.state().running(e))); // as the adapter's NodeEvents.mapSlots
    Facts facts = new Facts(h);
    while (room[h] > 0) {
      Decision d = MapService.serve(engine, e, hosts.get(h), facts, 256);
      if (d == null) {
        return;
      }
      unpulled.add(new int[] {h, d.task()});
      mapsOn.merge(hosts.get(h), 1, Integer::sum);
    }
  }

  /** As the adapter's reconciliation of a planned job: parked while it asks for nothing, the delta applied. */
  private void reconcile() {
    boolean asking = outstanding > 0;
    engine.setParked(JOB, !asking);
    int pendingCount = engine.job(JOB) == null ? 0 : engine.job(JOB).pending();
    AskReconciler.Delta delta = AskReconciler.planned(asking, outstanding, pendingCount, planTasks, 1000);
    AskDeltas.apply(engine, JOB, "alice", delta, this::demand);
  }

  /** The maps the AM asks for on each host: one per pending split naming it. */
  private Map<String, Integer> demand() {
    Map<String, Integer> demand = new HashMap<>();
    for (int t = 0; t < pending.length; t++) {
      if (pending[t]) {
        for (String x : splits.get(t)) {
          demand.merge(x, 1, Integer::sum);
        }
      }
    }
    return demand;
  }

  /** The ResourceManager's facts for one node, as the adapter gives them: the job asks while its * ask lasts. */
  private final class Facts implements MapService.Facts, MapService.Replayed {
    private final int h;

    Facts(int h) {
      this.h = h;
    }

    @Override
    public MapService.Replayed replayed(long jobId) {
      return this;
    }

    @Override
    public MapService.Refusal before(Decision d) {
      return outstanding <= 0 ? MapService.Refusal.NOT_ASKING : null;
    }

    @Override
    public boolean allowed(Decision d) {
      return true;
    }

    @Override
    public boolean allocate(Decision d) {
      room[h]--;
      outstanding--;
      return true;
    }

    @Override
    public void released(Decision d, MapService.Refusal r) {
      reconcile();
    }

    @Override
    public AmReplay am() {
      return replay;
    }

    @Override
    public PlanGuard guard() {
      return guard;
    }

    @Override
    public int mapsOn(String host) {
      return mapsOn.getOrDefault(host, 0);
    }
  }
}
