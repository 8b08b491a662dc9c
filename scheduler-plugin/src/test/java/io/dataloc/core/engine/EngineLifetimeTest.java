package io.dataloc.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.core.online.OnlinePolicies;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The engine over a long life: what ended is forgotten (task numbers reused, so memory follows the
 * tasks live at once, not the tasks ever seen), a reused number is never mistaken for its old
 * task, and a draining host takes no new work but keeps what it runs.
 */
class EngineLifetimeTest {

  private static DecisionEngine engine(String policy, int hosts) {
    DecisionEngine e = new DecisionEngine(EngineConfig.defaults().withPolicy(policy));
    for (int h = 0; h < hosts; h++) {
      e.addHost("h" + h, "r" + (h % 2), 2);
    }
    return e;
  }

  /**
   * Thousands of jobs through every policy: each runs to its end (some killed half-way); at the end
   * no job and no task is live, and the task arrays never grew past the most tasks live at once.
   */
  @Test
  void endedJobsAreForgottenUnderEveryPolicy() {
    for (String policy : OnlinePolicies.names()) {
      DecisionEngine e = engine(policy, 6);
      SplittableRandom rnd = new SplittableRandom(7);
      List<Long> live = new ArrayList<>();
      int maxLive = 0;
      for (long job = 1; job <= 3_000; job++) {
        List<List<String>> tasks = new ArrayList<>();
        int n = 1 + rnd.nextInt(6);
        for (int i = 0; i < n; i++) {
          tasks.add(List.of("h" + rnd.nextInt(6), "h" + rnd.nextInt(6)));
        }
        e.submitJob(job, "u" + (job % 3), tasks);
        live.add(job);
        maxLive = Math.max(maxLive, e.state().liveTasks());
        // Serve every host until nothing runs, then end the jobs whose tasks are all done; kill
        // one job in ten half-way.
        for (int h = 0; h < 6; h++) {
          Decision d = e.onSlotFree(h);
          if (d != null) {
            e.taskFinished(d.task());
          }
        }
        for (int k = live.size() - 1; k >= 0; k--) {
          JobState j = e.job(live.get(k));
          if (j.done() == j.total() || rnd.nextInt(10) == 0) {
            e.removeJob(live.remove(k));
          }
        }
      }
      for (long id : live) {
        e.removeJob(id);
      }
      assertEquals(0, e.activeJobs(), policy);
      assertEquals(0, e.state().liveTasks(), policy);
      assertTrue(e.state().taskCount() <= maxLive + 6, policy + ": " + e.state().taskCount() + " task numbers for at most "
          + maxLive + " live tasks");
      for (int h = 0; h < 6; h++) {
        assertEquals(0, e.state().running(h), policy);
        assertNull(e.onSlotFree(h), policy + ": nothing left to run");
      }
    }
  }

  /**
   * A job that lives long and gets its tasks one at a time (served from its asks) holds only its
   * live tasks, however many it has run; a planned job's tasks stay put (the AM replay names them
   * by place) and go with the job.
   */
  @Test
  void aLongLivedOnlineJobHoldsOnlyItsLiveTasks() {
    DecisionEngine e = engine("jsq-maxweight-steal", 4);
    e.submitJob(1, "u", List.of());
    for (int round = 0; round < 10_000; round++) {
      e.addTasks(1, "u", List.of(List.of("h" + (round % 4))));
      Decision d = e.onSlotFree(round % 4);
      assertNotNull(d);
      e.taskFinished(d.task());
    }
    assertEquals(10_000, e.job(1).done());
    assertEquals(0, e.state().liveTasks(), "every finished one-at-a-time task is forgotten");
    assertTrue(e.state().taskCount() <= 2, "numbers reused: " + e.state().taskCount());
    e.addTasks(1, "u", List.of(List.of("h0"), List.of("h1")));
    assertTrue(e.dropPending(e.pendingTasks(1).get(0)));
    assertEquals(1, e.state().liveTasks(), "a dropped one is forgotten too");
    assertEquals(List.of(e.task(1, 0)), e.pendingTasks(1), "the job's list holds its live task");
  }

  /**
   * Removing a job of more tasks than one call releases costs its caller a bounded part: the first
   * {@code RECLAIM_CHUNK} tasks now, the rest at the next clock advances. Meanwhile no decision
   * serves it (every host's slot goes to the other job, or to nobody), a finished task of it is
   * left to the release, and afterwards nothing of it is live and its numbers are reused. Under
   * every policy.
   */
  @Test
  void aLargeJobIsReleasedAChunkPerCallAndNeverServedMeanwhile() {
    int n = 2 * EngineJobs.RECLAIM_CHUNK + 100;
    for (String policy : OnlinePolicies.names()) {
      DecisionEngine e = engine(policy, 8);
      e.addTasks(3, "u", List.of(List.of("h0"), List.of("h1"))); // one at a time
      Decision first = e.onSlotFree(0);
      assertEquals(3, first.jobId(), policy);
      int runningOfThree = first.task();
      List<List<String>> tasks = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        tasks.add(List.of("h" + i % 8, "h" + (i + 3) % 8));
      }
      e.submitJob(1, "u", tasks);
      int running = 0;
      for (int h = 0; h < 8; h++) {
        Decision d = e.onSlotFree(h);
        if (d != null && d.jobId() == 1) {
          running++;
        }
      }
      e.submitJob(2, "u", List.of(List.of("h5")));
      int pendingBefore = e.job(1).pending();
      int live = e.state().liveTasks();
      assertEquals(pendingBefore, e.removeJob(1), policy);
      assertNull(e.job(1), policy);
      assertTrue(e.reclaiming(), policy);
      assertTrue(e.state().liveTasks() >= live - EngineJobs.RECLAIM_CHUNK, policy + ": one chunk at a time");
      e.removeJob(3); // a small one behind it: released after the large one's rest
      e.taskFinished(runningOfThree); // a late end of its task that arrived alone: left to the release
      for (int h = 0; h < 8; h++) {
        Decision d = e.propose(h, java.util.Set.of());
        assertTrue(d == null || d.jobId() == 2, policy + ": a removed job is not served: " + d);
      }
      for (int k = 0; k < 3 && e.reclaiming(); k++) {
        e.advanceTo(e.state().now() + 1);
      }
      assertTrue(!e.reclaiming(), policy);
      assertEquals(1, e.state().liveTasks(), policy + ": only job 2's task is live");
      assertEquals(-1, e.state().hostOf(runningOfThree), policy + ": nothing left running of job 3");
      int count = e.state().taskCount();
      e.submitJob(4, "u", List.of(List.of("h1"), List.of("h2")));
      assertEquals(count, e.state().taskCount(), policy + ": freed numbers are reused");
      assertTrue(running > 0, policy);
    }
  }

  /**
   * Greedy keeps lazy per-host lists; a task number freed while still listed, then reused by a
   * task local elsewhere, must not be served as local to the old task's host.
   */
  @Test
  void aReusedTaskNumberIsNotTakenForItsStaleEntry() {
    DecisionEngine e = engine("greedy", 3);
    e.submitJob(1, "u", List.of(List.of("h0")));
    int old = e.task(1, 0);
    e.removeJob(1); // listed under h0, never run
    e.submitJob(2, "u", List.of(List.of("h2"), List.of("h0")));
    assertEquals(old, e.task(2, 0), "the number is reused");
    Decision d = e.onSlotFree(0);
    assertNotNull(d);
    assertEquals(1, d.taskIndex(), "h0 runs the task local to it, not the stale entry's new task: " + d);
    assertEquals(io.dataloc.core.model.Level.LOCAL, d.level());
  }

  /**
   * MaxWeight's per-job sub-queues keep stale entries lazily. A job's queued task that is dropped
   * leaves one in its sub-queue; its number, freed at once, goes to another job's task queued at
   * the same host; the first job's sub-queue must not hand that task out (here: to a decision
   * excluding the other job).
   */
  @Test
  void aStaleQueueEntryNeverHandsOutAnotherJobsTask() {
    DecisionEngine e = engine("jsq-maxweight-steal", 3);
    // Job 9's tasks have no live replica: they wait in the common queue, so new tasks local to
    // h0 are routed to h0's own queue.
    e.submitJob(9, "u", List.of(List.of("gone"), List.of("gone"), List.of("gone")));
    e.submitJob(1, "u", List.of(List.of("h0"), List.of("h0")));
    int dropped = e.task(1, 0);
    assertEquals(0, e.policy().queueHostOf(dropped), "queued at h0");
    assertTrue(e.dropPending(dropped));
    e.submitJob(2, "u", List.of(List.of("h0")));
    assertEquals(dropped, e.task(2, 0), "the number is reused by job 2's task");
    assertEquals(0, e.policy().queueHostOf(dropped), "queued at h0 too");
    Decision d = e.commit(e.propose(0, java.util.Set.of(2L, 9L)));
    assertNotNull(d);
    assertEquals(1, d.jobId(), "job 2 was excluded: " + d);
    assertEquals(1, e.state().job(d.task()).id());
  }

  @Test
  void aDrainingHostTakesNoNewWorkButKeepsWhatItRuns() {
    DecisionEngine e = engine("jsq-maxweight-steal", 3);
    e.submitJob(1, "u", List.of(List.of("h0"), List.of("h0"), List.of("h0"), List.of("h0")));
    Decision running = e.onSlotFree(0);
    assertNotNull(running);
    int moved = e.drainHost(0);
    assertTrue(moved >= 0);
    assertEquals(0, e.drainHost(0), "idempotent");
    assertNull(e.onSlotFree(0), "no new work on a draining host");
    assertEquals(1, e.state().running(0), "its running task runs on");
    assertEquals(3, e.job(1).pending());
    // Everything still pending is served elsewhere.
    int served = 0;
    for (int round = 0; round < 10 && served < 3; round++) {
      for (int h = 1; h < 3; h++) {
        Decision d = e.onSlotFree(h);
        if (d != null) {
          e.taskFinished(d.task());
          served++;
        }
      }
    }
    assertEquals(3, served);
    // The host leaves: its running task is pending again, routed to live hosts.
    assertEquals(1, e.removeHost(0));
    assertEquals(1, e.job(1).pending());
    assertEquals(0, e.removeHost(0), "idempotent");
    // A decommissioning host that comes back takes work again.
    e.addHost("h0", "r0", 2);
    assertTrue(e.state().alive(0) && !e.state().draining(0));
  }
}
