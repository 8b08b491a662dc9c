package io.dataloc.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dataloc.core.workload.Scenarios;
import io.dataloc.yarn.LocalityScheduler;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code heartbeat.max-containers} paces what one node heartbeat hands out: eight maps planned on
 * h1 (eight 1-GB slots), the AM on h2; unset, h1's first heartbeat starts all eight; at 3, three
 * per heartbeat (3, 6, 8); at 1, one.
 */
class HeartbeatPacingTest {
  @TempDir Path dir;

  @ParameterizedTest
  @CsvSource({"0, 8, 8", "3, 3, 6", "1, 1, 2"})
  void aNodeHeartbeatHandsOutAtMostTheSetNumberOfContainers(String max, int afterOne, int afterTwo)
      throws Exception {
    List<List<String>> splits = Collections.nCopies(8, List.of("h1"));
    try (MiniMr c = MiniMr.start(LocalityScheduler.class, Map.of("yarn.scheduler.dataloc.heartbeat.max-containers", max),
        Scenarios.twoRacks(2), 8192, dir)) {
      RMApp app = c.submit("alice", splits);
      LocalityComparisonTest.awaitPlan(c);
      MrJob job = c.launch(app, "h2", splits);
      job.heartbeat();
      c.rm.drainEvents();
      MockNM h1 = c.nodes.get("h1");
      h1.nodeHeartbeat(true);
      c.rm.drainEvents();
      assertEquals(afterOne, containersOn(c, h1), "after one heartbeat of h1");
      h1.nodeHeartbeat(true);
      c.rm.drainEvents();
      assertEquals(afterTwo, containersOn(c, h1), "after two heartbeats of h1");
      assertEquals(0, ((LocalityScheduler) c.rm.getResourceScheduler()).datalocMetrics().errors());
    }
  }

  private static int containersOn(MiniMr c, MockNM node) {
    return c.rm.getResourceScheduler().getNodeReport(node.getNodeId()).getNumContainers();
  }
}
