package io.dataloc.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.core.workload.Scenarios;
import io.dataloc.yarn.FaultInjector;
import io.dataloc.yarn.JobReport;
import io.dataloc.yarn.LocalityScheduler;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Placements read and waiting for the one plan thread hold their bytes together within
 * {@code placement.max-bytes-in-flight}: ten jobs of 30,000 maps submitted at once while the plan
 * thread is held (as a long plan would hold it), with a budget of 1 MiB, leave two placements
 * (about 360 KB each) waiting and serve the other eight from their asks at once, each saying
 * which key; once the plan thread goes on, both are planned and the budget is empty again.
 * Before, every read result waited, up to {@code placement.max-waiting} = 1,000 of them, with no
 * total bound.
 */
class PlacementBudgetTest {
  @TempDir Path dir;

  @Test
  void readPlacementsWaitingForThePlanThreadStayWithinTheirByteBudget() throws Exception {
    try (MiniMr c = MiniMr.start(LocalityScheduler.class, Map.of("yarn.scheduler.dataloc.placement.max-bytes-in-flight",
        "1048576", "yarn.scheduler.dataloc.plan.max-tasks", "100000"), Scenarios.twoRacks(4), 8192, dir)) {
      LocalityScheduler s = (LocalityScheduler) c.rm.getResourceScheduler();
      CountDownLatch release = Holds.hold(s, FaultInjector.PLAN);
      List<RMApp> apps = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        apps.add(c.submit("user" + i, Scenarios.spread(30_000, 4, 2, i)));
      }
      for (int i = 0; i < 1_000 && count(s, "online") < 8; i++) {
        Thread.sleep(20);
      }
      Thread.sleep(200);
      assertEquals(8, count(s, "online"), s.reports().jobs().toString());
      assertEquals(2, count(s, "reading") + count(s, "planning"), s.reports().jobs().toString());
      for (JobReport j : s.reports().jobs()) {
        if (j.phase().equals("online")) {
          assertTrue(j.note().contains("placement.max-bytes-in-flight"), j.note());
        }
      }
      long held = s.datalocMetrics().placementBytesInFlight();
      assertTrue(held > 512 * 1024 && held <= 1 << 20, "bytes in flight " + held);
      release.countDown();
      for (int i = 0; i < 1_500 && count(s, "planned") < 2; i++) {
        Thread.sleep(20);
      }
      assertEquals(2, count(s, "planned"), s.reports().jobs().toString());
      assertEquals(0, s.datalocMetrics().placementBytesInFlight());
      assertEquals(0, s.datalocMetrics().errors());
    }
  }

  /**
   * A job whose plan waits behind a held plan thread is served from its asks once the read
   * timeout plus the plan budget have passed, though nothing about it changes meanwhile (no AM
   * heartbeat, no new ask). Before, the timeout was checked only when the job's asks changed, so
   * such a job waited for its plan however long the plan queue was.
   */
  @Test
  void aJobWaitingForThePlanThreadIsServedFromItsAsksAfterTheTimeout() throws Exception {
    try (MiniMr c = MiniMr.start(LocalityScheduler.class, Map.of("yarn.scheduler.dataloc.placement.read-timeout-ms",
        "300", "yarn.scheduler.dataloc.plan.time-budget-ms", "300"), Scenarios.twoRacks(4), 8192, dir)) {
      LocalityScheduler s = (LocalityScheduler) c.rm.getResourceScheduler();
      CountDownLatch release = Holds.hold(s, FaultInjector.PLAN);
      RMApp app = c.submit("alice", Scenarios.spread(16, 4, 2, 1));
      for (int i = 0; i < 250 && count(s, "online") < 1; i++) {
        Thread.sleep(20);
      }
      release.countDown();
      JobReport j = s.reports().jobs().get(0);
      assertEquals(app.getApplicationId().toString(), j.application());
      assertEquals("online", j.phase(), j.note());
      assertTrue(j.note().contains("took longer than"), j.note());
    }
  }

  private static long count(LocalityScheduler s, String phase) {
    return s.reports().jobs().stream().filter(j -> j.phase().equals(phase)).count();
  }
}
