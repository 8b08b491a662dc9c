package io.dataloc.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.core.engine.Decision;
import io.dataloc.core.engine.DecisionEngine;
import io.dataloc.core.engine.EngineConfig;
import io.dataloc.core.engine.EngineState;
import io.dataloc.core.engine.TaskState;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contract every {@link OnlinePolicy} keeps, checked for each registered policy over seeded
 * random runs through the engine (jobs arriving, slots freeing, tasks finishing, tasks dropped,
 * a job removed): a pick is a proposal that changes nothing (asked twice, the same answer; never
 * a task of an excluded job); it picks only queued tasks, never one dropped or of a removed job; a removal is
 * idempotent; {@code hostLost(h)} returns exactly the queued tasks whose queue is {@code h}'s
 * ({@link OnlinePolicy#queueHostOf}); every task still wanted runs once; and the same seed gives
 * the same decisions.
 */
class OnlinePolicyContractTest {
  static List<String> policies() {
    return OnlinePolicies.names();
  }

  @ParameterizedTest
  @MethodSource("policies")
  void picksOnlyQueuedTasksRemovalIsIdempotentAndHostLossReturnsItsQueue(String policy) {
    for (long seed = 1; seed <= 40; seed++) {
      List<String> first = run(policy, seed);
      assertEquals(first, run(policy, seed), policy + ", seed " + seed + ": the same seed, the same decisions");
    }
  }

  /** One seeded run; returns its decisions (task, generation and host), after checking the contract throughout. */
  private static List<String> run(String policy, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    DecisionEngine e = new DecisionEngine(EngineConfig.defaults().withPolicy(policy).withPlanner("none")
        .withDelays(2, 2).withSeed(seed));
    int hosts = 4 + rnd.nextInt(6);
    for (int h = 0; h < hosts; h++) {
      e.addHost("h" + h, "/r" + (h % 3), 1 + rnd.nextInt(2));
    }
    EngineState s = e.state();
    List<String> log = new ArrayList<>();
    Set<Long> removedJobs = new HashSet<>();
    Set<String> dropped = new HashSet<>();
    Set<String> ran = new HashSet<>();
    List<Integer> running = new ArrayList<>();
    int jobs = 0;
    for (int step = 0; step < 400; step++) {
      int op = rnd.nextInt(10);
      if (op == 0 && jobs < 8) {
        List<List<String>> tasks = new ArrayList<>();
        int m = 1 + rnd.nextInt(12);
        for (int t = 0; t < m; t++) {
          tasks.add(List.of("h" + rnd.nextInt(hosts), "h" + rnd.nextInt(hosts)));
        }
        e.submitJob(jobs++, "u" + rnd.nextInt(3), tasks);
      } else if (op == 1 && !running.isEmpty()) {
        e.taskFinished(running.remove(rnd.nextInt(running.size())));
      } else if (op == 2) {
        // Drop a queued task, twice: the second removal changes nothing.
        int t = anyQueued(s, rnd);
        if (t >= 0) {
          String key = key(s, t);
          assertTrue(e.dropPending(t), "a queued task drops");
          assertFalse(e.dropPending(t), "a second drop does nothing");
          dropped.add(key);
        }
      } else if (op == 3 && jobs > 0 && rnd.nextInt(8) == 0) {
        long j = rnd.nextInt(jobs);
        if (e.job(j) != null) {
          running.removeIf(t -> s.job(t).id() == j);
          e.removeJob(j);
          e.removeJob(j); // idempotent
          removedJobs.add(j);
        }
      } else {
        int h = rnd.nextInt(hosts);
        if (s.running(h) >= s.slots(h)) {
          continue;
        }
        Set<String> queuedBefore = queued(s);
        pickChangesNothing(policy, e.policy(), s, h, hosts);
        Decision d = e.onSlotFree(h);
        if (d != null) {
          String key = key(s, d.task());
          assertTrue(queuedBefore.contains(key), policy + ": picked " + key + ", which was not queued");
          assertFalse(removedJobs.contains(d.jobId()), policy + ": picked a task of a removed job");
          assertFalse(dropped.contains(key), policy + ": picked a dropped task");
          assertTrue(ran.add(key), policy + ": " + key + " ran twice");
          assertEquals(TaskState.RUNNING, s.state(d.task()));
          running.add(d.task());
          log.add(key + "@" + h);
        }
      }
      e.advanceTo(step + 1);
    }
    // hostLost: exactly the queued tasks whose queue is that host's.
    OnlinePolicy p = e.policy();
    int lost = rnd.nextInt(hosts);
    Set<Integer> expected = new TreeSet<>();
    for (int t = 0; t < s.taskCount(); t++) {
      if (s.queued(t) && p.queueHostOf(t) == lost) {
        expected.add(t);
      }
    }
    Set<Integer> returned = new TreeSet<>();
    for (int t : p.hostLost(lost)) {
      returned.add(t);
    }
    assertEquals(expected, returned, policy + ": hostLost(" + lost + ") returns that host's queue");
    for (int t : returned) {
      p.route(t); // as the engine does with them
    }
    // Liveness: every task still wanted runs, once.
    for (int round = 0; round < 2_000 && anyQueued(s, rnd) >= 0; round++) {
      for (int t : new ArrayList<>(running)) {
        e.taskFinished(t);
      }
      running.clear();
      for (int h = 0; h < hosts; h++) {
        if (h == lost) {
          continue;
        }
        Decision d = e.onSlotFree(h);
        if (d != null) {
          String key = key(s, d.task());
          assertFalse(dropped.contains(key), policy + ": picked a dropped task");
          assertTrue(ran.add(key), policy + ": " + key + " ran twice");
          running.add(d.task());
          log.add(key + "@" + h);
        }
      }
      e.advanceTo(1_000 + round);
    }
    assertEquals(-1, anyQueued(s, rnd), policy + ": every queued task ran on the live hosts");
    return log;
  }

  /**
   * A pick is a proposal: asking twice gives the same pick, with a job excluded never one of its
   * tasks, and neither changes which tasks are queued, where, or how many each host's queue holds.
   */
  private static void pickChangesNothing(String policy, OnlinePolicy p, EngineState s, int h, int hosts) {
    List<String> before = queues(p, s, hosts);
    OnlinePolicy.Pick first = p.pick(h);
    assertEquals(first, p.pick(h), policy + ": asking twice gives the same pick");
    if (first != null) {
      io.dataloc.core.jobs.JobView job = s.job(first.task());
      OnlinePolicy.Pick other = p.pick(h, Set.of(job));
      assertTrue(other == null || s.job(other.task()) != job, policy + ": picked a task of an excluded job");
    }
    assertEquals(before, queues(p, s, hosts), policy + ": a pick changed the queues");
  }

  /** Every queued task with the host whose queue holds it, and every host's queue length. */
  private static List<String> queues(OnlinePolicy p, EngineState s, int hosts) {
    List<String> out = new ArrayList<>();
    for (int t = 0; t < s.taskCount(); t++) {
      if (s.queued(t)) {
        out.add(key(s, t) + ">" + p.queueHostOf(t));
      }
    }
    for (int h = 0; h < hosts; h++) {
      out.add("h" + h + ":" + p.queuedFor(h));
    }
    return out;
  }

  /** A task's identity for the run: its number and that number's generation (numbers are reused). */
  private static String key(EngineState s, int t) {
    return t + "g" + s.generation(t);
  }

  private static Set<String> queued(EngineState s) {
    Set<String> out = new HashSet<>();
    for (int t = 0; t < s.taskCount(); t++) {
      if (s.queued(t)) {
        out.add(key(s, t));
      }
    }
    return out;
  }

  /** A queued task chosen by {@code rnd}, or -1 if none is queued. */
  private static int anyQueued(EngineState s, SplittableRandom rnd) {
    List<Integer> q = new ArrayList<>();
    for (int t = 0; t < s.taskCount(); t++) {
      if (s.queued(t)) {
        q.add(t);
      }
    }
    return q.isEmpty() ? -1 : q.get(rnd.nextInt(q.size()));
  }
}
