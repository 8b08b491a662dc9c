package io.dataloc.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.it.replay.ClusterModel;
import io.dataloc.it.replay.ReplayResult;
import io.dataloc.it.replay.SwimTrace;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A small replay through the real schedulers: every job finishes, no job beats its contention-free
 * floor, a run is the same twice for a seed (the virtual clock, and Dataloc's plans awaited), and
 * a hot path read by every job makes remote reads the stock scheduler cannot avoid.
 */
class ReplayTest {
  /** 14 jobs over 70 s: most read one hot path (as the trace's popular inputs), some their own. */
  private static List<SwimTrace.Job> trace() {
    List<SwimTrace.Job> jobs = new ArrayList<>();
    for (int i = 0; i < 14; i++) {
      long input = (i % 3 + 1) * 3L * (128L << 20) * 3000 / 24; // 3, 6 or 9 blocks once scaled to 24 nodes
      long shuffle = i % 4 == 0 ? input / 4 : 0;
      jobs.add(new SwimTrace.Job("job" + i, 5L * i, input, shuffle, input / 10, i % 2 == 0 ? "hot" : "own" + i));
    }
    return jobs;
  }

  private static ReplayResult run(String scheduler, Path dir) throws Exception {
    ClusterModel model = new ClusterModel(24, 2, 3, ClusterModel.Constants.defaults());
    return ReplayRun.run(scheduler, trace(), model, 0.5, 3600, 0.1, dir, s -> {});
  }

  @Test
  void everyJobFinishesNoneBeatsItsFloorAndARunRepeats(@TempDir Path dir) throws Exception {
    for (String scheduler : List.of("capacity", "dataloc")) {
      ReplayResult a = run(scheduler, dir.resolve("a"));
      assertEquals(0, a.unfinished(), scheduler);
      for (ReplayResult.JobTime j : a.jobs()) {
        assertTrue(j.time() >= j.floor(), scheduler + ": " + j + " beat its floor");
        assertEquals(j.maps(), j.nodeLocal() + j.rackLocal() + j.offSwitch(), scheduler + ": " + j);
        assertTrue(0 <= j.amWait() && j.amWait() <= j.firstMap() && j.firstMap() <= j.mapsDone()
            && j.mapsDone() <= j.time(), scheduler + ": " + j + "'s phases out of order");
      }
      assertTrue(a.nicBytes() > 0, scheduler + ": the shuffles cross the network");
      ReplayResult b = run(scheduler, dir.resolve("b"));
      assertEquals(a.jobs(), b.jobs(), scheduler + ": the same trace and seed replay alike");
      assertEquals(a.uplinkBytes(), b.uplinkBytes(), 1e-3, scheduler);
    }
  }

  /**
   * A followed job's story, in order: submitted, its AM, every map on a host at a locality and its
   * end, its reduce, the end of its maps, finished; under Dataloc, why its maps waited (the wait
   * report, queued at their planned hosts before the first map starts). Jobs not followed leave no
   * line.
   */
  @Test
  void aFollowedJobsStoryIsToldInOrder(@TempDir Path dir) throws Exception {
    ClusterModel model = new ClusterModel(24, 2, 3, ClusterModel.Constants.defaults());
    io.dataloc.it.replay.Follow follow = new io.dataloc.it.replay.Follow(java.util.Set.of("job4"));
    ReplayResult r = ReplayRun.run("dataloc", trace(), model, 0.5, 3600, 0.1, java.util.Map.of(), java.util.Map.of(),
        dir, s -> {}, follow);
    List<String> lines = follow.lines();
    assertTrue(lines.stream().allMatch(l -> l.contains(" job4 ")), lines.toString());
    ReplayResult.JobTime job = r.jobs().get(4);
    assertEquals(job.maps(), lines.stream()
        .filter(l -> l.matches(".* map \\d+ on h\\d+ (node-local|rack-local|off-switch), its block on .*")).count(),
        lines.toString());
    assertEquals(job.maps() + job.reduces() + 0L, lines.stream().filter(l -> l.contains("task ended")).count(),
        lines.toString());
    assertTrue(job.reduces() > 0 && lines.stream().anyMatch(l -> l.contains("reduce 0 on h")), lines.toString());
    assertTrue(lines.get(lines.size() - 1).endsWith(" finished"), lines.toString());
    List<String> order = List.of("submitted: " + job.maps() + " maps, " + job.reduces() + " reduces", "AM on ",
        "waits: not refused since its last container; " + job.maps() + " pending maps queued at h", " map ",
        "maps done", "finished");
    int at = -1;
    for (String step : order) {
      int i = at + 1;
      while (i < lines.size() && !lines.get(i).contains(step)) {
        i++;
      }
      assertTrue(i < lines.size(), "'" + step + "' after line " + at + " in " + lines);
      at = i;
    }
  }

  /**
   * The calibration's four hosts, where a second's order of events decides which host an AM lands
   * on and two jobs arrive in one second: every scheduler replays a seed alike three times, and
   * leaves the cluster timestamp as it found it.
   */
  @Test
  void theSmallModelRepeatsForEveryScheduler(@TempDir Path dir) throws Exception {
    MiniMr.quiet = true;
    long before = org.apache.hadoop.yarn.server.resourcemanager.ResourceManager.getClusterTimeStamp();
    for (String scheduler : List.of("capacity", "fair", "dataloc", "capacity-dataloc")) {
      List<ReplayResult.JobTime> first = null;
      for (int run = 0; run < 3; run++) {
        ClusterModel m = new ClusterModel(4, 2, 2, Calibration.constants(5, 10, 2));
        ReplayResult r = ReplayRun.run(scheduler, Calibration.workload(m, "hot", 2), m, 0.3, 3600, 0.1,
            dir.resolve(scheduler + run), s -> { });
        assertEquals(0, r.unfinished(), scheduler);
        if (first == null) {
          first = r.jobs();
        } else {
          assertEquals(first, r.jobs(), scheduler + ": one seed, run " + run);
        }
      }
    }
    assertEquals(before, org.apache.hadoop.yarn.server.resourcemanager.ResourceManager.getClusterTimeStamp());
  }

  /**
   * Two jobs whose reduces alone would fill the cluster: asked for all at slow-start, they would
   * hold every container while maps wait for one. The MapReduce AM's ramp-up limit and reduce
   * preemption (modelled in {@link MrJob}) let both finish, as they do on a real cluster.
   */
  @Test
  void reducesThatWouldFillTheClusterDoNotDeadlockIt(@TempDir Path dir) throws Exception {
    long block = 128L << 20;
    List<SwimTrace.Job> jobs = List.of(
        new SwimTrace.Job("big", 0, 120 * block * 3000 / 6, 60L * (1L << 30) * 3000 / 6, block, "a"),
        new SwimTrace.Job("other", 2, 90 * block * 3000 / 6, 40L * (1L << 30) * 3000 / 6, block, "b"));
    for (String scheduler : List.of("dataloc", "capacity")) {
      ClusterModel model = new ClusterModel(6, 2, 1, ClusterModel.Constants.defaults());
      ReplayResult r = ReplayRun.run(scheduler, jobs, model, 0.5, 7200, 0.1, dir.resolve(scheduler), s -> {});
      assertEquals(0, r.unfinished(), scheduler + ": " + r.jobs());
      assertEquals(60, r.jobs().get(0).reduces());
    }
  }
}
