package io.dataloc.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.core.workload.Scenarios;
import io.dataloc.yarn.LocalityScheduler;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptState;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine counts the room an ApplicationMaster holds from the heartbeat that placed it: the AM
 * lands on h1 (4 GB, four 1-GB slots) and h1 has three map slots at once, not four until its next
 * heartbeat. Before, a node's slots were read at the start of its heartbeat only, so a plan made in
 * between counted the AM's room as a map slot and put one map too many on its host (on the shaped
 * network: a first job whose AM sat on a data host ran a second wave there).
 */
class PlanSlotsTest {
  @TempDir Path dir;

  @Test
  void aPlanMadeRightAfterTheAmLandsCountsItsRoom() throws Exception {
    List<List<String>> splits = Collections.nCopies(8, List.of("h1"));
    try (MiniMr c = MiniMr.start(LocalityScheduler.class, Map.of(), Scenarios.twoRacks(2), 4096, dir)) {
      RMApp app = c.submit("alice", splits);
      LocalityComparisonTest.awaitPlan(c);
      c.rm.waitForState(app.getCurrentAppAttempt().getAppAttemptId(), RMAppAttemptState.SCHEDULED);
      // One heartbeat of h1 places the AM there; no other heartbeat of h1 follows.
      c.nodes.get("h1").nodeHeartbeat(true);
      c.rm.drainEvents();
      c.rm.waitForState(app.getCurrentAppAttempt().getAppAttemptId(), RMAppAttemptState.ALLOCATED);
      LocalityScheduler s = (LocalityScheduler) c.rm.getResourceScheduler();
      Map<String, Object> why = s.waitReports().of(app.getApplicationId()).asMap();
      assertTrue(((List<?>) why.get("pendingAt")).stream().anyMatch(q -> "h1".equals(((Map<?, ?>) q).get("node"))
          && Integer.valueOf(3).equals(((Map<?, ?>) q).get("slots"))), "h1 holds the AM and three map slots: " + why);
    }
  }
}
