package io.dataloc.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.core.model.Assignment;
import io.dataloc.core.online.OnlinePolicies;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link DecisionEngine#releaseQueued}, read from the host's own queue, moves exactly the tasks a
 * scan of the job's pending tasks finds queued for the host (the oracle), and nothing else: each
 * is still pending and no longer queued there; every other pending task keeps its queue. Seeded
 * random engines — planned jobs (some tasks planned on hosts away from their data), online jobs,
 * decisions and finished tasks — under every policy. (That the moved tasks go in the job's task
 * order is held by the replays, which repeat byte for byte.)
 */
class ReleaseQueuedTest {
  private static final int HOSTS = 6;

  @Test
  void movesExactlyTheTasksQueuedForTheHost() {
    int checked = 0;
    int moved = 0;
    for (String policy : OnlinePolicies.names()) {
      for (int seed = 0; seed < 40; seed++) {
        SplittableRandom rnd = new SplittableRandom(seed);
        DecisionEngine e = new DecisionEngine(EngineConfig.defaults().withPolicy(policy));
        for (int h = 0; h < HOSTS; h++) {
          e.addHost("h" + h, "r" + h % 2, 1 + rnd.nextInt(3));
        }
        List<Long> jobs = new ArrayList<>();
        for (long id = 1; id <= 4; id++) {
          List<List<String>> reps = new ArrayList<>();
          int n = 1 + rnd.nextInt(30);
          for (int i = 0; i < n; i++) {
            reps.add(List.of("h" + rnd.nextInt(HOSTS), "h" + rnd.nextInt(HOSTS)));
          }
          if (rnd.nextBoolean()) {
            PlanInput in = e.planInput(reps, e.state()::slots);
            int[] servers = new int[in.problem().tasks()];
            for (int i = 0; i < servers.length; i++) {
              servers[i] = rnd.nextInt(in.problem().cluster().hostCount());
            }
            e.applyPlan(id, "u", reps, in, Assignment.of(in.problem(), servers));
          } else {
            e.submitJob(id, "u", reps);
          }
          jobs.add(id);
        }
        for (int step = 0; step < 40; step++) {
          Decision d = e.onSlotFree(rnd.nextInt(HOSTS));
          if (d != null && rnd.nextInt(3) == 0) {
            e.taskFinished(d.task());
          }
        }
        for (int round = 0; round < 6; round++) {
          long job = jobs.get(rnd.nextInt(jobs.size()));
          int host = rnd.nextInt(HOSTS);
          List<Integer> expected = new ArrayList<>();
          Map<Integer, Integer> before = new HashMap<>();
          for (long j : jobs) {
            for (int t : e.pendingTasks(j)) {
              before.put(t, e.policy().queueHostOf(t));
              if (j == job && e.policy().queueHostOf(t) == host) {
                expected.add(t);
              }
            }
          }
          assertEquals(expected.size(), e.releaseQueued(job, host), policy + " seed " + seed);
          for (int t : expected) {
            assertTrue(e.state().queued(t), policy + ": still pending");
            assertNotEquals(host, e.policy().queueHostOf(t), policy + ": no longer queued there");
          }
          for (long j : jobs) {
            for (int t : e.pendingTasks(j)) {
              if (!expected.contains(t)) {
                assertEquals(before.get(t), e.policy().queueHostOf(t), policy + ": another task keeps its queue");
              }
            }
          }
          checked++;
          moved += expected.size();
        }
      }
    }
    assertTrue(moved > 50, "cases that moved tasks: " + moved + " of " + checked);
  }
}
