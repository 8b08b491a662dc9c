package io.dataloc.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.core.online.OnlinePolicies;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The per-job query a front end that chooses the job itself asks on every visit of every node
 * ({@link DecisionEngine#proposeFor}): it changes nothing (no task, queue, clock or starvation
 * round; asking twice gives the same answer), answers only with a queued task of that job, answers
 * whenever the job has a task in the host's own queue, and its answer commits. Checked for every
 * policy on random engines against an independent oracle: a walk over the job's pending tasks.
 */
class ProposeForTest {
  private static DecisionEngine engine(String policy, int hosts) {
    DecisionEngine e = new DecisionEngine(EngineConfig.defaults().withPolicy(policy).withPlanner("none"));
    for (int h = 0; h < hosts; h++) {
      e.addHost("h" + h, "/r" + (h % 2), 2);
    }
    return e;
  }

  /** Every task's state, host and queue, and what the engine would propose on each host. */
  private static List<String> snapshot(DecisionEngine e) {
    EngineState s = e.state();
    List<String> out = new ArrayList<>();
    for (int t = 0; t < s.taskCount(); t++) {
      out.add(t + ":" + s.state(t) + "@" + s.hostOf(t) + ">" + e.policy().queueHostOf(t));
    }
    for (int h = 0; h < s.hostCount(); h++) {
      out.add("h" + h + ":" + s.running(h) + "/" + e.policy().queuedFor(h));
    }
    return out;
  }

  /** Oracle: the job's pending tasks queued in {@code host}'s own queue, by a walk over all of them. */
  private static Set<Integer> inHostQueue(DecisionEngine e, long job, int host) {
    Set<Integer> out = new HashSet<>();
    for (int t : e.pendingTasks(job)) {
      if (e.policy().queueHostOf(t) == host) {
        out.add(t);
      }
    }
    return out;
  }

  @Test
  void theQueryIsPureSoundAndCompleteForEveryPolicy() {
    for (String policy : OnlinePolicies.names()) {
      for (long seed = 1; seed <= 25; seed++) {
        SplittableRandom rnd = new SplittableRandom(seed);
        DecisionEngine e = engine(policy, 6);
        int jobs = 2 + rnd.nextInt(4);
        for (int j = 0; j < jobs; j++) {
          List<List<String>> tasks = new ArrayList<>();
          for (int t = 0, m = 1 + rnd.nextInt(10); t < m; t++) {
            tasks.add(List.of("h" + rnd.nextInt(6), "h" + rnd.nextInt(6)));
          }
          e.submitJob(j, "u" + j, tasks);
        }
        String where = policy + ", seed " + seed;
        for (int step = 0; step < 40; step++) {
          long job = rnd.nextInt(jobs + 1); // one job id unknown to the engine
          int h = rnd.nextInt(6);
          List<String> before = snapshot(e);
          Decision d = e.proposeFor(job, h);
          assertEquals(before, snapshot(e), where + ": the query changed the engine");
          assertEquals(d, e.proposeFor(job, h), where + ": asked twice, answered differently");
          Set<Integer> own = inHostQueue(e, job, h);
          if (d == null) {
            assertTrue(own.isEmpty(), where + ": no answer, yet job " + job + " has " + own + " in h" + h + "'s queue");
            continue;
          }
          assertEquals(job, d.jobId(), where);
          assertTrue(e.state().queued(d.task()), where + ": not a queued task: " + d);
          assertEquals(h, d.host(), where);
          if (!own.isEmpty()) {
            assertTrue(own.contains(d.task()), where + ": the job's task in this host's queue comes first: " + d);
          }
          if (rnd.nextInt(3) == 0) {
            e.commit(d);
            assertEquals(h, e.state().hostOf(d.task()), where);
          }
        }
      }
    }
  }

  /**
   * Twin engines, built alike; one is asked the per-job query many times. From then on both decide
   * alike on every free slot: the query ticked no starvation clock and no policy heard a pass (the
   * {@code delay} policy counts skips; the guard counts decisions).
   */
  @Test
  void theQueryLeavesNoTraceInWhatTheEngineDecidesLater() {
    for (String policy : OnlinePolicies.names()) {
      for (long seed = 1; seed <= 10; seed++) {
        DecisionEngine asked = twin(policy, seed);
        DecisionEngine quiet = twin(policy, seed);
        SplittableRandom rnd = new SplittableRandom(seed * 31);
        for (int i = 0; i < 200; i++) {
          asked.proposeFor(rnd.nextInt(4), rnd.nextInt(6));
        }
        for (int step = 0; step < 60; step++) {
          int h = step % 6;
          Decision a = asked.onSlotFree(h);
          Decision q = quiet.onSlotFree(h);
          assertEquals(q, a, policy + ", seed " + seed + ", step " + step);
        }
      }
    }
  }

  private static DecisionEngine twin(String policy, long seed) {
    DecisionEngine e = new DecisionEngine(EngineConfig.defaults().withPolicy(policy).withPlanner("none"));
    for (int h = 0; h < 6; h++) {
      e.addHost("h" + h, "/r" + (h % 2), 1);
    }
    SplittableRandom rnd = new SplittableRandom(seed);
    for (int j = 0; j < 4; j++) {
      List<List<String>> tasks = new ArrayList<>();
      for (int t = 0, m = 2 + rnd.nextInt(12); t < m; t++) {
        tasks.add(List.of("h" + rnd.nextInt(3), "h" + rnd.nextInt(3)));
      }
      e.submitJob(j, "u" + j, tasks);
    }
    return e;
  }

  /** A parked job (its AM asks for nothing now) and a lost host get no answer. */
  @Test
  void parkedJobsAndLostHostsGetNone() {
    DecisionEngine e = engine("jsq-maxweight-steal", 3);
    e.submitJob(7, "u", List.of(List.of("h0"), List.of("h0")));
    assertNotNull(e.proposeFor(7, 0));
    e.setParked(7, true);
    assertNull(e.proposeFor(7, 0));
    e.setParked(7, false);
    e.removeHost(0);
    assertNull(e.proposeFor(7, 0));
    assertNull(e.proposeFor(7, 99));
  }
}
