package io.dataloc.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.dataloc.core.engine.Decision;
import io.dataloc.core.engine.DecisionEngine;
import io.dataloc.core.engine.EngineConfig;
import io.dataloc.core.engine.EngineState;
import io.dataloc.core.jobs.JobView;
import io.dataloc.core.model.Level;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link BreakEven}'s rule, case by case at its thresholds, and against an independent oracle: a
 * scan of every queued task that knows nothing of the policy's lists, stamps or counts.
 */
class BreakEvenTest {
  /** α 0.8, β 0.5, γ 0.2: a rack run costs 0.75 tick extra, a remote one 3.75. */
  private static DecisionEngine engine(String ordering, String... hostsAndRacks) {
    DecisionEngine e = new DecisionEngine(EngineConfig.defaults().withPolicy("break-even").withOrdering(ordering)
        .withPlanner("none").withRates(800, 500, 200));
    for (int i = 0; i < hostsAndRacks.length; i += 2) {
      e.addHost(hostsAndRacks[i], hostsAndRacks[i + 1], 1);
    }
    return e;
  }

  /**
   * Host {@code host} gets nothing while the task queued at time 0 has waited 3 ticks (less than
   * {@code 1/γ − 1/α} = 3.75) and gets it at 4: that decision.
   */
  private static Decision onlyPastTheRemoteBreakEven(DecisionEngine e, int host, String why) {
    e.advanceTo(3);
    assertNull(e.onSlotFree(host), why + ": not after 3 ticks < 1/γ − 1/α = 3.75");
    e.advanceTo(4);
    Decision d = e.onSlotFree(host);
    assertNotNull(d, why + ": 4 ticks ≥ 3.75");
    return d;
  }

  @Test
  void aTaskRunsOnItsDataAtOnceAndElsewhereOnlyPastTheRemoteBreakEven() {
    DecisionEngine e = engine("fifo", "a", null, "b", null);
    e.submitJob(1, "u", List.of(List.of("a")));
    assertNull(e.onSlotFree(1), "b holds no replica: the task has not waited");
    assertEquals(Level.REMOTE, onlyPastTheRemoteBreakEven(e, 1, "b holds no replica").level());
  }

  @Test
  void aTaskWithNoDataToWaitForRunsOnTheFirstFreeHost() {
    DecisionEngine e = engine("fifo", "a", null, "b", null);
    e.submitJob(1, "u", List.of(List.of()));
    Decision d = e.onSlotFree(1);
    assertNotNull(d, "no replica anywhere: waiting buys nothing");
    assertEquals(Level.REMOTE, d.level());
  }

  @Test
  void aTaskWhoseDataHostsAreDownWaitsOnlyForItsRack() {
    DecisionEngine e = engine("fifo", "a", "/r1", "b", "/r1", "c", "/r2", "d", "/r2");
    e.submitJob(1, "u", List.of(List.of("a")));
    e.removeHost(0);
    e.advanceTo(2);
    assertNull(e.onSlotFree(2), "off its rack: not after 2 ticks < 1/γ − 1/β = 3");
    Decision d = e.onSlotFree(1);
    assertNotNull(d, "its rack is now the best it can have: no wait there");
    assertEquals(Level.RACK, d.level());

    DecisionEngine f = engine("fifo", "a", "/r1", "b", "/r1", "c", "/r2", "d", "/r2");
    f.submitJob(1, "u", List.of(List.of("a")));
    f.removeHost(0);
    f.advanceTo(2);
    assertNull(f.onSlotFree(3), "not after 2 ticks < 3");
    f.advanceTo(3);
    assertEquals(Level.REMOTE, f.onSlotFree(3).level(), "3 ticks ≥ 1/γ − 1/β");
  }

  @Test
  void aTaskWhoseDataHostHasNoSlotsIsServedAsIfItWereDown() {
    DecisionEngine e = engine("fifo", "a", "/r1", "b", "/r1", "c", "/r2");
    e.submitJob(1, "u", List.of(List.of("a")));
    e.setSlots(0, 0); // a node of a labelled partition
    Decision d = e.onSlotFree(1);
    assertNotNull(d, "its rack-mate takes it at once");
    assertEquals(Level.RACK, d.level());
  }

  @Test
  void itsOwnHostRunsItAtOnce() {
    DecisionEngine e = engine("fifo", "a", null, "b", null);
    e.submitJob(1, "u", List.of(List.of("a", "b")));
    Decision d = e.onSlotFree(1);
    assertNotNull(d, "late binding: any replica host takes it");
    assertEquals(Level.LOCAL, d.level());
  }

  @Test
  void aRackMateRunsItPastTheRackBreakEvenBeforeAnOlderRemoteTask() {
    DecisionEngine e = engine("fifo", "a", "/r1", "b", "/r1", "c", "/r2");
    e.submitJob(1, "u", List.of(List.of("c"))); // remote for b
    e.advanceTo(3);
    e.submitJob(2, "u", List.of(List.of("a"))); // in b's rack
    assertNull(e.onSlotFree(1), "the rack task has waited 0 < 0.75, the remote one 3 < 3.75");
    e.advanceTo(4);
    Decision d = e.onSlotFree(1);
    assertEquals(2, d.jobId(), "both qualify; the rack step comes first");
    assertEquals(Level.RACK, d.level());
  }

  @Test
  void aPlanStandsUntilItsTaskWaitedTheRemoteBreakEven() {
    DecisionEngine e = engine("fifo", "a", null, "b", null);
    BreakEven p = (BreakEven) e.policy();
    e.submitJob(1, "u", List.of(List.of("a", "b")));
    // Re-enter its task as planned on a, as a plan would.
    int t = e.pendingTasks(1).get(0);
    p.removed(t);
    p.enqueuePlanned(t, 0, Level.LOCAL);
    assertEquals(0, p.queueHostOf(t));
    assertEquals(1, p.queuedFor(0));
    Decision d = onlyPastTheRemoteBreakEven(e, 1, "b holds a replica, but the plan chose a");
    assertEquals(Level.LOCAL, d.level());
    assertEquals(0, d.queue(), "it came from a's list");
    assertEquals(0, p.queuedFor(0));
  }

  @Test
  void aRefusingHostRunsTheTaskOnlyPastTheRemoteBreakEven() {
    DecisionEngine e = engine("fifo", "a", null);
    e.submitJob(1, "u", List.of(List.of("a")));
    e.refuse(e.propose(0, java.util.Set.of()));
    Decision again = onlyPastTheRemoteBreakEven(e, 0, "a refused it, although its data is there; the only host");
    assertEquals(Level.LOCAL, again.level());
  }

  @Test
  void aLostHostHandsBackItsPlannedTasksOnly() {
    DecisionEngine e = engine("fifo", "a", null, "b", null);
    BreakEven p = (BreakEven) e.policy();
    e.submitJob(1, "u", List.of(List.of("a"), List.of("a", "b")));
    int planned = e.pendingTasks(1).get(0);
    p.removed(planned);
    p.enqueuePlanned(planned, 0, Level.LOCAL);
    int[] back = p.hostLost(0);
    assertEquals(1, back.length);
    assertEquals(planned, back[0]);
    assertEquals(-1, p.queueHostOf(planned));
    assertEquals(0, p.queuedFor(0));
    p.route(planned);
    Decision d = e.onSlotFree(1);
    assertEquals(Level.LOCAL, d.level(), "the task with a replica on b, at once");
  }

  @Test
  void theJobOrderChoosesAmongJobsWithWorkHere() {
    DecisionEngine e = engine("fair", "a", null, "b", null);
    e.submitJob(1, "u", List.of(List.of("a"), List.of("a"), List.of("b")));
    e.submitJob(2, "v", List.of(List.of("a")));
    assertEquals(1, e.onSlotFree(1).jobId(), "b: only job 1 has work here");
    assertEquals(2, e.onSlotFree(0).jobId(), "a: job 2 runs fewer tasks");
  }

  /**
   * Random online runs (jobs arriving, slots freeing, tasks finishing, refused, failed and dropped,
   * hosts lost and back, time passing): every decision is the one a scan of all queued tasks makes
   * by the rule stated in the class header. Online jobs only: plans (pins), the starvation guard and
   * learned rates are covered by the cases above, the policy contract test and the engine's tests.
   */
  @Test
  void everyDecisionIsTheOracles() {
    for (long seed0 = 1; seed0 <= 300; seed0++) {
      long seed = seed0;
      SplittableRandom rnd = new SplittableRandom(seed);
      String ordering = List.of("fifo", "fair", "bid").get(rnd.nextInt(3));
      int n = 3 + rnd.nextInt(6);
      long beta = 400 + rnd.nextInt(401);
      long gamma = 100 + rnd.nextInt(301);
      // Every other seed prices a read sharing its link at 0.5–2 local tasks.
      long perSharedRead = seed % 2 == 0 ? 500L * (1 + rnd.nextInt(4)) : 0;
      DecisionEngine e = new DecisionEngine(EngineConfig.defaults().withPolicy("break-even").withOrdering(ordering)
          .withPlanner("none").withRates(800, beta, Math.min(beta, gamma)).withSeed(seed)
          .withPlanCost(io.dataloc.core.model.CostModel.of(1000, 2000, 3000, 0, perSharedRead)));
      boolean racks = rnd.nextBoolean();
      for (int h = 0; h < n; h++) {
        e.addHost("h" + h, racks ? "/r" + (h % 2) : null, 1);
      }
      Oracle o = new Oracle(e, new ServiceRates(800, beta, Math.min(beta, gamma), 0), perSharedRead);
      List<Integer> running = new ArrayList<>();
      long now = 0;
      int jobs = 0;
      for (int step = 0; step < 300; step++) {
        int op = rnd.nextInt(12);
        if (op <= 1 && jobs < 10) {
          List<List<String>> tasks = new ArrayList<>();
          for (int t = rnd.nextInt(6); t >= 0; t--) {
            tasks.add(rnd.nextInt(8) == 0 ? List.of() : List.of("h" + rnd.nextInt(n), "h" + rnd.nextInt(n)));
          }
          e.submitJob(jobs++, "u" + rnd.nextInt(3), tasks);
          e.pendingTasks(jobs - 1).forEach(t -> o.listed(t, -1));
        } else if (op == 2) {
          e.advanceTo(now += rnd.nextInt(3));
        } else if (op == 3 && !running.isEmpty()) {
          e.taskFinished(running.remove(rnd.nextInt(running.size())));
        } else if (op == 4 && !running.isEmpty()) {
          int t = running.remove(rnd.nextInt(running.size()));
          e.taskFailed(t);
          o.listed(t, -1);
        } else if (op == 5) {
          int host = rnd.nextInt(n);
          Decision d = e.propose(host, java.util.Set.of());
          if (d != null) {
            e.refuse(d);
            o.listed(d.task(), host);
          }
        } else if (op == 6) {
          int t = o.anyQueued(rnd);
          if (t >= 0) {
            e.dropPending(t);
          }
        } else if (op == 8 && rnd.nextInt(6) == 0) {
          int h = rnd.nextInt(n);
          if (e.state().alive(h) && e.state().running(h) == 0) {
            e.setSlots(h, e.state().slots(h) == 0 ? 1 : 0); // a node leaving or rejoining a labelled partition
          }
        } else if (op == 7 && rnd.nextInt(6) == 0) {
          int h = rnd.nextInt(n);
          if (e.state().alive(h)) {
            e.removeHost(h);
            running.removeIf(t -> e.state().state(t) != io.dataloc.core.engine.TaskState.RUNNING);
            o.relistNew(); // the task it ran is routed again, after the tasks already waiting
          } else {
            e.addHost("h" + h, racks ? "/r" + (h % 2) : null, 1);
          }
        } else {
          int h = rnd.nextInt(n);
          if (e.state().alive(h) && e.state().running(h) < e.state().slots(h)) {
            int expected = o.choose(h);
            Decision d = e.onSlotFree(h);
            int exp = expected;
            assertEquals(expected, d == null ? -1 : d.task(), "seed " + seed + ", step " + step + ", host " + h
                + (exp < 0 ? "" : ": task " + exp + " replicas " + java.util.Arrays.toString(e.state().replicas(exp))
                + " waited " + (e.state().now() - e.state().queuedAt(exp)) + " level " + e.state().level(exp, h)
                + " racks " + racks + " alive " + java.util.stream.IntStream.range(0, n)
                .mapToObj(x -> e.state().alive(x) ? "1" : "0").collect(java.util.stream.Collectors.joining())));
            if (d != null) {
              running.add(d.task());
              o.started(d.task());
            }
          }
        }
      }
    }
  }

  /**
   * The rule as a scan: each queued task with the order it was last routed in and the host it
   * avoids; candidates by step (replica host; rack-mate past 1/β − 1/best; anyone past
   * 1/rate − 1/best, best α while a replica host lives), the first job in the engine's order, that
   * job's earliest-routed candidate.
   */
  private static final class Oracle {
    private final EngineState s;
    private final ServiceRates rates;
    /** Per queued task: {the order it was last routed in, the host it avoids or -1}. */
    private final java.util.Map<Integer, long[]> order = new java.util.HashMap<>();
    private long seq;
    /** A read sharing its link costs this much against a local task's 1000. */
    private final long perSharedRead;

    Oracle(DecisionEngine e, ServiceRates rates, long perSharedRead) {
      this.s = e.state();
      this.rates = rates;
      this.perSharedRead = perSharedRead;
    }

    void started(int task) {
      order.remove(task);
    }

    void listed(int task, int avoid) {
      order.put(task, new long[] {seq++, avoid});
    }

    /** After a host loss the engine routes the task it ran again; the others keep their order. */
    void relistNew() {
      for (int t = 0; t < s.taskCount(); t++) {
        if (s.queued(t) && !order.containsKey(t)) {
          listed(t, -1);
        }
      }
    }

    int anyQueued(SplittableRandom rnd) {
      List<Integer> q = queued();
      return q.isEmpty() ? -1 : q.get(rnd.nextInt(q.size()));
    }

    private List<Integer> queued() {
      List<Integer> q = new ArrayList<>();
      for (int t = 0; t < s.taskCount(); t++) {
        if (s.queued(t)) {
          q.add(t);
        }
      }
      return q;
    }

    int choose(int h) {
      List<Integer> here = new ArrayList<>();
      for (int t : queued()) {
        if (order.get(t)[1] != h && isReplica(t, h)) {
          here.add(t);
        }
      }
      if (!here.isEmpty()) {
        return best(here);
      }
      for (int step = 1; step <= 2; step++) {
        // Per job, its earliest-routed task of this step that does not avoid h; kept if it waited enough.
        java.util.Map<JobView, Integer> earliest = new java.util.HashMap<>();
        for (int t : queued()) {
          if (step == 1 && !(s.rackOf(h) != PolicyState.NO_RACK && inRack(t, s.rackOf(h)))) {
            continue;
          }
          earliest.merge(s.job(t), t, (a, b) -> order.get(a)[0] < order.get(b)[0] ? a : b);
        }
        List<Integer> c = new ArrayList<>();
        for (int t : earliest.values()) {
          boolean refused = order.get(t)[1] == h;
          long link = isReplica(t, h) ? 0 : linkTicks(t);
          if (waited(t, refused ? rates.gamma() : rates.rate(step == 1 ? 1 : s.level(t, h).ordinal()), link)) {
            c.add(t);
          }
        }
        if (!c.isEmpty()) {
          return best(c);
        }
      }
      return -1;
    }

    /**
     * A local task's time (1/α = 1.25 ticks) times perSharedRead/1000 for each read on the least busy
     * link among the task's replica hosts, rounded up; reads counted by a scan of the running tasks.
     */
    private long linkTicks(int t) {
      long least = Long.MAX_VALUE;
      for (int r : s.replicas(t)) {
        long reads = 0;
        for (int u = 0; u < s.taskCount(); u++) {
          if (s.state(u) == io.dataloc.core.engine.TaskState.RUNNING && !isReplica(u, s.hostOf(u)) && isReplica(u, r)) {
            reads++;
          }
        }
        least = Math.min(least, reads);
      }
      return least == Long.MAX_VALUE ? 0 : (long) Math.ceil(least * perSharedRead * 1.25 / 1000.0 - 1e-9);
    }

    private boolean isReplica(int t, int h) {
      for (int r : s.replicas(t)) {
        if (r == h) {
          return true;
        }
      }
      return false;
    }

    private boolean inRack(int t, int rack) {
      for (int r : s.replicas(t)) {
        if (s.rackOf(r) == rack) {
          return true;
        }
      }
      return false;
    }

    /** Waited past 1/rate − 1/best: best α while a replica host lives with slots, else β with a known rack, else γ. */
    private boolean waited(int t, long rate, long link) {
      double age = s.now() - s.queuedAt(t) - link;
      if (age < 0) {
        return false;
      }
      long best = rates.gamma();
      for (int r : s.replicas(t)) {
        if (s.alive(r) && s.slots(r) > 0) {
          best = rates.alpha();
          break;
        }
        if (s.rackOf(r) != PolicyState.NO_RACK) {
          best = rates.beta();
        }
      }
      return age >= 1000.0 / rate - 1000.0 / best - 1e-9;
    }

    /** The first job in the engine's order (the job first listed among equals), its earliest-routed task. */
    private int best(List<Integer> c) {
      int best = -1;
      for (int t : c) {
        if (best < 0) {
          best = t;
          continue;
        }
        JobView a = s.job(t);
        JobView b = s.job(best);
        int cmp = a == b ? 0 : s.compareJobs(a, b);
        if (cmp < 0 || (cmp == 0 && a == b && order.get(t)[0] < order.get(best)[0])) {
          best = t;
        }
      }
      return best;
    }
  }
}
