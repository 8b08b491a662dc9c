package io.dataloc.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.core.model.Assignment;
import io.dataloc.core.model.Level;
import io.dataloc.core.online.JsqMaxWeight;
import io.dataloc.core.online.OnlinePolicies;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DecisionEngineTest {

  private static DecisionEngine engine(String policy, String... hosts) {
    DecisionEngine e = new DecisionEngine(EngineConfig.defaults().withPolicy(policy));
    for (String h : hosts) {
      e.addHost(h, null, 1);
    }
    return e;
  }

  private static List<List<String>> tasksOn(String host, int n) {
    List<List<String>> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(List.of(host));
    }
    return out;
  }

  /** Admits a job with a hand-made plan: the first {@code local} tasks on a, the rest remote on b. */
  private static void planned(DecisionEngine e, long id, int local, int remote) {
    List<List<String>> reps = tasksOn("a", local + remote);
    PlanInput in = e.planInput(reps, e.state()::slots);
    int a = 0;
    int b = 1;
    int[] servers = new int[local + remote];
    for (int i = 0; i < servers.length; i++) {
      servers[i] = i < local ? a : b;
    }
    e.applyPlan(id, "u", reps, in, Assignment.of(in.problem(), servers));
  }

  @Test
  void aJobWithLargerContainersIsPlannedWithFewerSlotsPerHost() {
    DecisionEngine e = new DecisionEngine(EngineConfig.defaults());
    e.addHost("a", null, 8);
    e.addHost("b", null, 8);
    List<List<String>> reps = tasksOn("a", 12);
    assertEquals(8, e.planInput(reps, e.state()::slots).problem().cluster().slots(0));
    PlanInput two = e.planInput(reps, h -> 2);
    assertEquals(2, two.problem().cluster().slots(0));
    assertEquals(2, two.problem().cluster().slots(1));
    // Never more than the host's slots, never fewer than one.
    assertEquals(8, e.planInput(reps, h -> 100).problem().cluster().slots(0));
    assertEquals(1, e.planInput(reps, h -> 0).problem().cluster().slots(0));
    // Twelve tasks on a's two slots take six rounds locally: a remote copy of some on b pays off.
    Assignment plan = io.dataloc.core.offline.Assigners.create("bar", io.dataloc.core.offline.AssignerOptions.defaults())
        .assign(two.problem());
    assertTrue(io.dataloc.core.model.Evaluation.of(two.problem(), plan).remote() > 0, plan.toString());
  }

  @Test
  void maxWeightServesLocalExactlyWhenAlphaQLocalAtLeastGammaQCommon() {
    // α = 0.8, γ = 0.2: Q_a = 1 against Q̄ = 4 is a tie (0.8 ≥ 0.8): local.
    DecisionEngine e = engine("jsq-maxweight", "a", "b");
    planned(e, 1, 1, 4);
    assertEquals(1, e.policy().queuedFor(0));
    assertEquals(4, ((JsqMaxWeight) e.policy()).commonQueueLength());
    assertEquals(Level.LOCAL, e.onSlotFree(0).level());
    // Q_a = 1 against Q̄ = 5: 0.8 < 1.0, so the common queue.
    DecisionEngine f = engine("jsq-maxweight", "a", "b");
    planned(f, 1, 1, 5);
    Decision d = f.onSlotFree(0);
    assertEquals(1, f.policy().queuedFor(0), "the local task still waits");
    assertTrue(d.reason().startsWith("common queue"), d.reason());
  }

  @Test
  void jsqJoinsTheShortestQueueAndBreaksTiesBySeed() {
    Set<String> outcomes = new HashSet<>();
    for (long seed = 0; seed < 20; seed++) {
      DecisionEngine e = new DecisionEngine(EngineConfig.defaults().withPolicy("jsq-maxweight-steal").withSeed(seed));
      e.addHost("a", null, 1);
      e.addHost("b", null, 1);
      e.submitJob(1, "u", List.of(List.of("a", "b"), List.of("a", "b"), List.of("a", "b")));
      String where = e.policy().queuedFor(0) + "/" + e.policy().queuedFor(1) + "/"
          + ((JsqMaxWeight) e.policy()).commonQueueLength();
      // Three tasks over three empty queues: one each, whatever the ties.
      assertEquals("1/1/1", where);
      DecisionEngine again = new DecisionEngine(EngineConfig.defaults().withPolicy("jsq-maxweight-steal").withSeed(seed));
      again.addHost("a", null, 1);
      again.addHost("b", null, 1);
      again.submitJob(1, "u", List.of(List.of("a", "b"), List.of("a", "b"), List.of("a", "b")));
      assertEquals(e.onSlotFree(0).taskIndex(), again.onSlotFree(0).taskIndex(), "same seed, same decision");
      outcomes.add(String.valueOf(e.task(1, 0) >= 0 ? e.state().state(e.task(1, 0)) : ""));
      outcomes.add("local-first-task:" + e.onSlotFree(1).taskIndex());
    }
    assertTrue(outcomes.size() > 2, "ties are broken differently by different seeds: " + outcomes);
  }

  @Test
  void subQueuesServeTheJobWithFewestRunningTasksFirst() {
    DecisionEngine e = engine("jsq-maxweight", "a", "b", "c");
    planned(e, 1, 0, 3); // job 1: three tasks in the common queue
    assertEquals(1, e.onSlotFree(1).jobId());
    assertEquals(1, e.onSlotFree(2).jobId()); // job 1 now runs 2
    planned(e, 2, 0, 2); // job 2 arrives later with 0 running
    Decision d = e.onSlotFree(0);
    assertEquals(2, d.jobId(), "job 2 has fewer running tasks");
  }

  @Test
  void aClusterFullRightNowIsStillPlannedOnWithTheJobsSlots() {
    DecisionEngine e = new DecisionEngine(EngineConfig.defaults());
    e.addHost("a", null, 4);
    e.addHost("b", null, 4);
    e.setSlots(0, 0);
    assertEquals(1, e.planHosts(h -> 2).names().length, "only b has slots now");
    e.setSlots(1, 0);
    PlanHosts full = e.planHosts(h -> 2);
    assertEquals(2, full.names().length, "every live host, when none has a slot now");
    assertEquals(2, full.input(tasksOn("a", 3)).problem().cluster().slots(0), "with the job's slots there");
    e.removeHost(0);
    e.removeHost(1);
    assertNull(e.planHosts(h -> 2), "no live host");
  }

  @Test
  void aTaskStartedOutsideTheEngineLeavesItsQueueAndRunsThere() {
    DecisionEngine e = engine("jsq-maxweight", "a", "b");
    planned(e, 1, 2, 0); // two tasks queued on a
    int t = e.task(1, 1);
    assertTrue(e.startedOutside(t, 1), "ran on b, from the asks, before the plan");
    assertEquals(1, e.policy().queuedFor(0));
    assertEquals(1, e.state().running(1));
    assertFalse(e.startedOutside(t, 1), "not queued any more: nothing changes");
    assertFalse(e.startedOutside(e.task(1, 0), 7), "no such host");
    assertFalse(e.startedOutside(-1, 0));
    e.taskFinished(t);
    assertEquals(1, e.job(1).done());
  }

  @Test
  void aJobOfHigherPriorityIsServedFirstWhateverTheOrderingSays() {
    for (String policy : List.of("jsq-maxweight", "jsq-maxweight-steal", "balanced-pandas", "fair")) {
      DecisionEngine e = engine(policy, "a", "b");
      planned(e, 1, 0, 3);
      assertEquals(1, e.onSlotFree(1).jobId(), policy);
      planned(e, 2, 0, 3); // job 2 arrives with no running task: fair would pick it
      e.setPriority(1, 5);
      assertEquals(1, e.onSlotFree(1).jobId(), policy + ": priority 5 beats the ordering");
      e.setPriority(2, 9);
      assertEquals(2, e.onSlotFree(1).jobId(), policy + ": and 9 beats 5");
      e.setPriority(2, 0);
      e.setPriority(1, 0);
      e.setPriority(77, 3); // unknown: ignored
      assertTrue(e.state().compareJobs(e.job(2), e.job(1)) < 0,
          policy + ": equal priorities fall back to the ordering (fair: job 2 runs fewer)");
    }
  }

  @Test
  void plannedLocalTasksJoinTheirHostsQueueAndRemoteOnesTheCommonQueue() {
    DecisionEngine e = engine("jsq-maxweight", "a", "b");
    planned(e, 7, 3, 2);
    assertEquals(3, e.policy().queuedFor(0));
    assertEquals(0, e.policy().queuedFor(1));
    assertEquals(2, ((JsqMaxWeight) e.policy()).commonQueueLength());
  }

  /** Plans a job as the adapter and the simulator do ({@link BudgetedPlanner}) and applies it. */
  static Admission planAndApply(DecisionEngine e, long id, List<List<String>> reps, String assigner) {
    java.util.concurrent.ExecutorService thread = java.util.concurrent.Executors.newSingleThreadExecutor();
    try {
      PlanInput in = e.planInput(reps, e.state()::slots);
      BudgetedPlanner.Result r = new BudgetedPlanner(thread).plan(in.problem(), assigner, "round-robin", 1L, 10_000);
      return e.applyPlan(id, "u", reps, in, r.plan());
    } catch (InterruptedException ex) {
      throw new IllegalStateException(ex);
    } finally {
      thread.shutdownNow();
    }
  }

  @Test
  void aPlannedJobEntersThePolicysQueuesWithItsPlan() {
    DecisionEngine e = engine("jsq-maxweight", "a", "b", "c");
    List<List<String>> reps = List.of(List.of("a"), List.of("a"), List.of("a"), List.of("b"), List.of("c"));
    Admission adm = planAndApply(e, 3, reps, "bar");
    assertTrue(adm.planned());
    assertEquals("bar", adm.planner());
    assertEquals(5, adm.plan().local() + adm.plan().rackLocal() + adm.plan().remote());
    int queued = e.policy().queuedFor(0) + e.policy().queuedFor(1) + e.policy().queuedFor(2)
        + ((JsqMaxWeight) e.policy()).commonQueueLength();
    assertEquals(5, queued, "every task is queued somewhere");
  }

  @Test
  void aLostHostsQueuedAndRunningTasksAreReroutedAndNothingIsLost() {
    for (String policy : OnlinePolicies.names()) {
      DecisionEngine e = engine(policy, "a", "b", "c");
      List<List<String>> reps = new ArrayList<>();
      for (int i = 0; i < 12; i++) {
        reps.add(List.of(i % 2 == 0 ? "a" : "b", "c"));
      }
      planAndApply(e, 1, reps, "bar");
      Decision first = e.onSlotFree(0);
      assertNotNull(first, policy);
      e.removeHost(0);
      assertNull(e.onSlotFree(0), policy + ": a removed host gets nothing");
      Set<Integer> ran = new HashSet<>();
      for (int round = 0; round < 200 && ran.size() < 12; round++) {
        for (int h = 1; h < 3; h++) {
          Decision d = e.onSlotFree(h);
          if (d != null) {
            assertTrue(d.host() != 0);
            assertTrue(ran.add(d.taskIndex()), policy + ": task " + d.taskIndex() + " ran twice");
            e.taskFinished(d.task());
          }
        }
      }
      assertEquals(12, ran.size(), policy + ": every task ran, the lost host's included");
    }
  }

  @Test
  void decisionsAreDeterministicForASeed() {
    for (String policy : OnlinePolicies.names()) {
      assertEquals(trace(policy, 5), trace(policy, 5), policy);
    }
  }

  private static List<String> trace(String policy, long seed) {
    DecisionEngine e = new DecisionEngine(EngineConfig.defaults().withPolicy(policy).withSeed(seed));
    String[] hosts = {"a", "b", "c", "d", "e"};
    for (int i = 0; i < hosts.length; i++) {
      e.addHost(hosts[i], "/r" + (i % 2), 1);
    }
    SplittableRandom rnd = new SplittableRandom(seed);
    List<String> out = new ArrayList<>();
    List<Integer> running = new ArrayList<>();
    for (int step = 0; step < 300; step++) {
      e.advanceTo(step);
      if (step % 7 == 0) {
        List<List<String>> reps = new ArrayList<>();
        for (int i = 0; i < 1 + rnd.nextInt(6); i++) {
          reps.add(List.of(hosts[rnd.nextInt(5)], hosts[rnd.nextInt(5)]));
        }
        e.addTasks(step, "u" + step % 3, reps);
      }
      Decision d = e.onSlotFree(rnd.nextInt(5));
      if (d != null) {
        out.add(d.jobId() + ":" + d.taskIndex() + "@" + d.host() + "/" + d.level());
        running.add(d.task());
      }
      if (!running.isEmpty() && rnd.nextInt(3) == 0) {
        e.taskFinished(running.remove(rnd.nextInt(running.size())));
      }
    }
    assertFalse(out.isEmpty());
    return out;
  }

  @Test
  void delaySchedulingWaitsForLocalityThenRelaxes() {
    DecisionEngine e = new DecisionEngine(EngineConfig.defaults().withPolicy("delay").withDelays(2, 1));
    e.addHost("a", "/r1", 1);
    e.addHost("b", "/r1", 1);
    e.addHost("c", "/r2", 1);
    e.submitJob(1, "u", List.of(List.of("a")));
    assertNull(e.onSlotFree(2), "skip 1");
    assertNull(e.onSlotFree(2), "skip 2");
    assertNull(e.onSlotFree(2), "rack-local allowed now, but c is off-rack: skip 3");
    Decision d = e.onSlotFree(2);
    assertNotNull(d, "after 2 + 1 skips any host will do");
    assertEquals(Level.REMOTE, d.level());

    DecisionEngine f = new DecisionEngine(EngineConfig.defaults().withPolicy("delay").withDelays(2, 5));
    f.addHost("a", "/r1", 1);
    f.addHost("b", "/r1", 1);
    f.submitJob(1, "u", List.of(List.of("a")));
    assertNull(f.onSlotFree(1));
    assertNull(f.onSlotFree(1));
    assertEquals(Level.RACK, f.onSlotFree(1).level(), "after the node delay, rack-local");
  }

  @Test
  void balancedPandasRoutesByWeightedWorkloadAndServesLocalThenRackThenRemote() {
    DecisionEngine e = new DecisionEngine(EngineConfig.defaults().withPolicy("balanced-pandas"));
    e.addHost("a", "/r1", 1);
    e.addHost("b", "/r1", 1);
    e.addHost("c", "/r2", 1);
    // An empty replica host wins (W/α = 0); then W_a/α = 1.25/0.8 > 0 = W_b/β: the second task
    // local to a joins b's rack queue; the third finds a and b loaded (1.5625 and 2/0.5 = 4) and
    // idle c (0/γ = 0): c's remote queue.
    e.submitJob(1, "u", List.of(List.of("a"), List.of("a"), List.of("a")));
    assertEquals(1, e.policy().queuedFor(0));
    assertEquals(1, e.policy().queuedFor(1));
    assertEquals(1, e.policy().queuedFor(2));
    Decision d = e.onSlotFree(1);
    assertEquals(Level.RACK, d.level());
    assertTrue(d.reason().startsWith("rack queue"), d.reason());
    assertEquals(Level.REMOTE, e.onSlotFree(2).level());
    assertEquals(Level.LOCAL, e.onSlotFree(0).level());
    // A fourth task finds every queue empty: ties keep the replica host.
    e.addTasks(1, "u", List.of(List.of("b")));
    assertEquals(1, e.policy().queuedFor(1));
  }
}
