package io.dataloc.it;

import io.dataloc.core.workload.Scenarios;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.yarn.LocalityScheduler;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many MapReduce-like applications at once, each with its own ApplicationMaster allocated by the
 * scheduler (not placed by the test): the AM limit keeps AMs from filling the cluster, every job
 * finishes, and when all have ended the engine holds nothing. The long form (-Dsoak.jobs=10000,
 * run by the reliability profile) pushes jobs through in waves and checks the heap after GC.
 */
class ManyJobsTest {
  @TempDir Path dir;

  /** One application's life as the test drives it. */
  private static final class Job {
    final RMApp app;
    final List<List<String>> splits;
    MockAM am;
    MrJob mr;
    boolean unregistered;

    Job(RMApp app, List<List<String>> splits) {
      this.app = app;
      this.splits = splits;
    }
  }

  /**
   * Drives every job until all have finished or {@code maxRounds} pass: node heartbeats allocate
   * AMs and maps; an allocated AM is launched and registers; running jobs heartbeat and their maps
   * tick; a job whose maps are done unregisters and its AM container completes. Returns the rounds
   * taken (or -1) and checks the AM limit after every round.
   */
  private static int drive(MiniMr c, List<Job> jobs, int maxRounds, long amLimitMb) throws Exception {
    LocalityScheduler s = (LocalityScheduler) c.rm.getResourceScheduler();
    for (int round = 1; round <= maxRounds; round++) {
      for (MockNM nm : c.nodeList()) {
        nm.nodeHeartbeat(true);
      }
      c.rm.drainEvents();
      boolean all = true;
      for (Job j : jobs) {
        RMAppAttempt attempt = j.app.getCurrentAppAttempt();
        if (j.app.getState() == RMAppState.FINISHED) {
          continue;
        }
        all = false;
        if (j.am == null && attempt != null && attempt.getAppAttemptState() == RMAppAttemptState.ALLOCATED) {
          j.am = c.rm.sendAMLaunched(attempt.getAppAttemptId());
          j.am.registerAppAttempt();
          j.mr = new MrJob(j.am, j.splits, c.rackOf);
        }
        if (j.mr == null || j.unregistered) {
          continue;
        }
        j.mr.heartbeat();
        j.mr.tick(c.nodes);
        if (j.mr.finished()) {
          j.am.unregisterAppAttempt(org.apache.hadoop.yarn.api.protocolrecords.FinishApplicationMasterRequest
              .newInstance(FinalApplicationStatus.SUCCEEDED, "", ""), false);
          MockNM nm = c.nodes.get(attempt.getMasterContainer().getNodeId().getHost());
          nm.nodeHeartbeat(attempt.getAppAttemptId(), 1, ContainerState.COMPLETE);
          j.unregistered = true;
        }
      }
      c.rm.drainEvents();
      assertTrue(s.reports().amMemoryUsed() <= Math.max(1024, amLimitMb),
          "round " + round + ": AMs hold " + s.reports().amMemoryUsed() + " MB, limit " + amLimitMb);
      if (all) {
        return round;
      }
    }
    return -1;
  }

  private static List<Job> submit(MiniMr c, int n, int maps, int seed) throws Exception {
    List<Job> jobs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      List<List<String>> splits = Scenarios.spread(maps, c.nodes.size(), 2, seed + i);
      jobs.add(new Job(c.submit("user" + (i % 5), splits), splits));
    }
    return jobs;
  }

  /** Issue #13: 16 jobs at once on 4 × 8 GB used to fill the cluster with AMs for ever; here 64. */
  @Test
  void sixtyFourJobsSubmittedAtOnceOnFourNodesAllFinish() throws Exception {
    Map<String, String> topology = Scenarios.twoRacks(4);
    try (MiniMr c = MiniMr.start(LocalityScheduler.class, Map.of(), topology, 8192, dir.resolve("many"))) {
      List<Job> jobs = submit(c, 64, 6, 100);
      LocalityScheduler s = (LocalityScheduler) c.rm.getResourceScheduler();
      int rounds = drive(c, jobs, 3_000, 4 * 1024); // 0.1 of 32 GB, rounded up to whole 1-GB allocations
      assertTrue(rounds > 0, "every job finished: " + describe(jobs));
      for (Job j : jobs) {
        c.rm.waitForState(j.app.getApplicationId(), RMAppState.FINISHED);
      }
      assertTrue(s.datalocMetrics().amLimited() > 0, "the AM limit held some AMs back");
      assertEquals(0, s.datalocMetrics().errors());
      assertArrayEquals(new int[] {0, 0}, java.util.Arrays.copyOf(s.reports().engineCounts(), 2),
          "the engine holds no job and no task once every application has ended");
      assertEquals(0, s.reports().amMemoryUsed());
    }
  }

  /**
   * Jobs through the RM in waves of 32; after every wave the engine is empty, and the heap after GC
   * at the end is within a margin of the heap after the first tenth (no growth per job).
   * {@code -Dsoak.jobs} sets the total (default 256; the reliability profile runs 10,000).
   */
  @Test
  void jobsInWavesLeaveNothingBehind() throws Exception {
    int total = Integer.getInteger("soak.jobs", 256);
    Map<String, String> topology = Scenarios.twoRacks(4);
    MiniMr.quiet = true;
    try (MiniMr c = MiniMr.start(LocalityScheduler.class, Map.of(), topology, 8192, dir.resolve("soak"))) {
      org.apache.hadoop.test.GenericTestUtils.setRootLogLevel(org.slf4j.event.Level.WARN);
      LocalityScheduler s = (LocalityScheduler) c.rm.getResourceScheduler();
      long baseline = -1;
      int maxTaskNumbers = 0;
      for (int done = 0; done < total; done += 32) {
        List<Job> wave = submit(c, Math.min(32, total - done), 3, done);
        assertTrue(drive(c, wave, 2_000, 4 * 1024) > 0, "wave at " + done + ": " + describe(wave));
        for (Job j : wave) {
          c.rm.waitForState(j.app.getApplicationId(), RMAppState.FINISHED);
        }
        int[] counts = s.reports().engineCounts();
        assertEquals(0, counts[0], "no job left after the wave at " + done);
        assertEquals(0, counts[1], "no task left after the wave at " + done);
        maxTaskNumbers = Math.max(maxTaskNumbers, counts[2]);
        if (baseline < 0 && done + 32 >= total / 10) {
          baseline = usedAfterGc();
        }
      }
      long end = usedAfterGc();
      System.out.printf("soak: %d jobs; task numbers in use at most %d; heap after GC %d MB after the first tenth, "
          + "%d MB at the end%n", total, maxTaskNumbers, baseline >> 20, end >> 20);
      assertTrue(maxTaskNumbers <= 32 * 3 * 2, "task numbers are reused: " + maxTaskNumbers);
      // The RM keeps finished applications (yarn.resourcemanager.max-completed-applications,
      // 1,000 by default), so its heap grows for the first thousand jobs whatever we do.
      if (total >= 5_000) {
        assertTrue(end <= baseline + (64L << 20), "heap after GC grew from " + (baseline >> 20) + " MB to "
            + (end >> 20) + " MB over " + total + " jobs");
      }
    } finally {
      MiniMr.quiet = false;
    }
  }

  private static long usedAfterGc() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    Runtime r = Runtime.getRuntime();
    return r.totalMemory() - r.freeMemory();
  }

  private static String describe(List<Job> jobs) {
    Map<RMAppState, Integer> states = new LinkedHashMap<>();
    for (Job j : jobs) {
      states.merge(j.app.getState(), 1, Integer::sum);
    }
    return states.toString();
  }
}
