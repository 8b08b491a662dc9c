package io.dataloc.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.core.am.AskDeltas;
import io.dataloc.core.workload.Scenarios;
import io.dataloc.yarn.LocalityScheduler;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRM;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A planned job whose ApplicationMaster stops asking for maps has its pending tasks dropped a part
 * per heartbeat ({@link AskDeltas#MAX_DROPS}), not all in one hold of the lock: a job of 5,000 maps
 * on nodes with no room for them loses 2,048 at each node heartbeat after the ask is gone.
 */
class DropPendingPartsTest {
  @TempDir Path dir;

  @Test
  void aJobThatStopsAskingLosesItsTasksAPartPerHeartbeat() throws Exception {
    int maps = 2 * AskDeltas.MAX_DROPS + 904;
    List<List<String>> splits = new ArrayList<>();
    for (int i = 0; i < maps; i++) {
      splits.add(List.of("h" + (1 + i % 4)));
    }
    // 1-GB nodes and 2-GB maps: no map ever fits, so only the drops change the pending count.
    try (MiniMr c = MiniMr.start(LocalityScheduler.class, Map.of(), Scenarios.twoRacks(2), 1024, dir)) {
      RMApp app = c.submit("alice", splits);
      LocalityComparisonTest.awaitPlan(c);
      MockAM am = MockRM.launchAndRegisterAM(app, c.rm, c.nodes.get("h1"));
      Priority map = Priority.newInstance(MrJob.MAP_PRIORITY);
      Resource two = Resource.newInstance(2048, 1); // fits no 1-GB node: nothing runs
      am.allocate(List.of(ResourceRequest.newInstance(map, ResourceRequest.ANY, two, maps)), List.of());
      heartbeat(c);
      LocalityScheduler s = (LocalityScheduler) c.rm.getResourceScheduler();
      ApplicationId id = app.getApplicationId();
      assertEquals(maps, pending(s, id), "asking for all of them: all pending");
      am.allocate(List.of(ResourceRequest.newInstance(map, ResourceRequest.ANY, two, 0)), List.of());
      MockNM h2 = c.nodes.get("h2");
      h2.nodeHeartbeat(true);
      c.rm.drainEvents();
      assertEquals(maps - AskDeltas.MAX_DROPS, pending(s, id), "one part dropped at a node heartbeat");
      h2.nodeHeartbeat(true);
      c.rm.drainEvents();
      assertEquals(maps - 2 * AskDeltas.MAX_DROPS, pending(s, id), "another at the next");
      h2.nodeHeartbeat(true);
      c.rm.drainEvents();
      assertEquals(0, pending(s, id), "the rest at the one after");
    }
  }

  private static void heartbeat(MiniMr c) throws Exception {
    for (MockNM nm : c.nodeList()) {
      nm.nodeHeartbeat(true);
      c.rm.drainEvents();
    }
  }

  private static int pending(LocalityScheduler s, ApplicationId id) {
    return ((Number) s.waitReports().of(id).asMap().get("pendingMaps")).intValue();
  }
}
