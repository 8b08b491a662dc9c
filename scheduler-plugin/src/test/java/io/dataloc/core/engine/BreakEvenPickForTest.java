package io.dataloc.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.core.jobs.JobView;
import io.dataloc.core.online.OnlinePolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Break-even answers the CapacityScheduler's per-job question from the job's own part of each list
 * ({@link OnlinePolicy#pickFor}, amortised O(1)). The oracle is the scan it replaces: a pick with
 * every other job excluded. Both are asked for every host and job along seeded histories of jobs
 * arriving, tasks running and finishing, hosts lost, and time passing (so tasks cross their
 * break-even waits).
 */
class BreakEvenPickForTest {
  @Test
  void theJobsOwnAnswerIsTheScansAnswer() {
    int answered = 0;
    int awayAnswers = 0;
    for (long seed = 1; seed <= 40; seed++) {
      SplittableRandom rnd = new SplittableRandom(seed);
      DecisionEngine e = new DecisionEngine(EngineConfig.defaults().withPolicy("break-even").withPlanner("none"));
      int hosts = 3 + rnd.nextInt(6);
      for (int h = 0; h < hosts; h++) {
        e.addHost("h" + h, "/r" + (h % 3), 1 + rnd.nextInt(2));
      }
      List<Integer> running = new ArrayList<>();
      long now = 0;
      for (int step = 0; step < 120; step++) {
        now += rnd.nextInt(3);
        e.advanceTo(now);
        if (rnd.nextInt(4) == 0) {
          List<List<String>> replicas = new ArrayList<>();
          for (int t = 0, n = 1 + rnd.nextInt(5); t < n; t++) {
            replicas.add(rnd.nextInt(5) == 0 ? List.of() : List.of("h" + rnd.nextInt(hosts), "h" + rnd.nextInt(hosts)));
          }
          e.submitJob(step + 1, "u" + rnd.nextInt(3), replicas);
        }
        if (!running.isEmpty() && rnd.nextInt(2) == 0) {
          e.taskFinished(running.remove(rnd.nextInt(running.size())));
        }
        OnlinePolicy p = e.policy();
        EngineState s = e.state();
        for (int h = 0; h < hosts; h++) {
          if (!s.alive(h)) {
            continue;
          }
          for (JobView job : jobs(s)) {
            OnlinePolicy.Pick own = p.pickFor(h, job);
            OnlinePolicy.Pick scan = p.pick(h, OnlinePolicy.everyJobBut(job));
            assertEquals(scan == null ? null : scan.task() + " " + scan.reason(),
                own == null ? null : own.task() + " " + own.reason(), "seed " + seed + " step " + step + " h" + h);
            if (own != null) {
              answered++;
              awayAnswers += own.reason().contains("break-even") ? 1 : 0;
            }
          }
        }
        Decision d = e.onSlotFree(rnd.nextInt(hosts));
        if (d != null) {
          running.add(d.task());
        }
      }
    }
    assertTrue(answered > 1000, "answers compared: " + answered);
    assertTrue(awayAnswers > 100, "answers of tasks past a break-even wait: " + awayAnswers);
  }

  private static List<JobView> jobs(EngineState s) {
    List<JobView> out = new ArrayList<>();
    for (int t = 0; t < s.taskCount(); t++) {
      JobView j = s.job(t);
      if (!out.contains(j)) {
        out.add(j);
      }
    }
    return out;
  }
}
