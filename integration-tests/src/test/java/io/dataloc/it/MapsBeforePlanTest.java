package io.dataloc.it;

import io.dataloc.core.workload.Scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.yarn.FaultInjector;
import io.dataloc.yarn.LocalityScheduler;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A MapReduce job's maps start from its asks while its block placement is still being read (here
 * held back, as a slow file system would), only where their data is; when the plan comes, the AM
 * replay ties each of them to its task, and the plan serves the rest. Before: no map started until
 * the read and the plan were done.
 */
class MapsBeforePlanTest {
  @TempDir Path dir;

  @Test
  void mapsStartWhileThePlacementIsReadAndThePlanTakesOverWhatTheyRan() throws Exception {
    List<List<String>> splits = Scenarios.spread(48, 4, 2, 11);
    try (MiniMr c = MiniMr.start(LocalityScheduler.class, Map.of(), Scenarios.twoRacks(4), 8192, dir)) {
      LocalityScheduler s = (LocalityScheduler) c.rm.getResourceScheduler();
      CountDownLatch release = Holds.hold(s, FaultInjector.READ);
      RMApp app = c.submit("alice", splits);
      MrJob job = c.launch(app, "h1", splits);
      for (int round = 0; round < 3; round++) {
        job.heartbeat();
        for (MockNM nm : c.nodeList()) {
          nm.nodeHeartbeat(true);
          c.rm.drainEvents();
        }
        job.heartbeat();
      }
      int early = job.runningMaps();
      assertTrue(early > 0, "maps started while the placement was read: " + job.describe());
      assertEquals(early, job.dataLocal(), "only where their data is");
      assertEquals(early, s.datalocMetrics().mapsBeforePlan());
      assertTrue(s.reports().jobs().stream().allMatch(j -> j.phase().equals("reading")), s.reports().jobs().toString());
      release.countDown();
      LocalityComparisonTest.awaitPlan(c);
      assertEquals(early, s.datalocMetrics().mapsTiedToPlan(), "every early map tied to its task");
      assertTrue(Rounds.run(c, job, 100) > 0, job.describe());
      assertEquals(splits.size(), job.dataLocal() + job.atLevel(1) + job.atLevel(2), "every map ran once");
      int[] engine = s.reports().engineCounts();
      assertEquals(0, engine[3], "no task left running in the engine");
      assertEquals(0, engine[4], "no container left tied to a task");
      assertEquals(0, s.datalocMetrics().errors());
    }
  }

  /**
   * A job's maps started before its plan are maps: they come after the ApplicationMasters, as the
   * plan's maps do. Before: an older job waiting for its placement filled the AM host with early
   * maps in the heartbeat a newer job's AM was due in, and that AM waited (a reliability-run
   * failure, seed 316760).
   */
  @Test
  void anEarlierJobsEarlyMapsDoNotTakeTheRoomOfANewerJobsApplicationMaster() throws Exception {
    List<List<String>> splits = Scenarios.spread(24, 2, 2, 5);
    try (MiniMr c = MiniMr.start(LocalityScheduler.class, Map.of("yarn.scheduler.dataloc.maximum-am-resource-percent", "1"),
        Scenarios.twoRacks(2), 4096, dir)) {
      LocalityScheduler s = (LocalityScheduler) c.rm.getResourceScheduler();
      CountDownLatch release = Holds.hold(s, FaultInjector.READ);
      RMApp first = c.submit("alice", splits);
      MrJob job = c.launch(first, "h1", splits);
      job.heartbeat(); // asks for its 24 maps, every one with data on h1 or h2
      RMApp second = c.submit("bob", null);
      c.nodes.get("h1").nodeHeartbeat(true);
      c.rm.drainEvents();
      assertEquals(RMAppAttemptState.ALLOCATED, second.getCurrentAppAttempt().getAppAttemptState(),
          "the newer job's AM took h1 before the older job's early maps ("
          + s.datalocMetrics().mapsBeforePlan() + " started): " + job.describe());
      assertTrue(s.datalocMetrics().mapsBeforePlan() > 0, "the older job's maps started in the same heartbeat");
      release.countDown();
    }
  }
}
