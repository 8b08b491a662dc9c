package io.dataloc.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
import org.apache.hadoop.yarn.util.ControlledClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A planned job whose AM asks for more maps than its plan holds is topped up from its asks (a walk
 * over its pending tasks' hosts) at most once a second: a second top-up asked within the second
 * waits for it, then comes. Maps of 2 GB on 1-GB nodes, so nothing runs and only top-ups change
 * the pending count; the scheduler's clock is held still and moved by hand.
 */
class TopUpPaceTest {
  @TempDir Path dir;

  @Test
  void aPlannedJobIsToppedUpAtMostOnceASecond() throws Exception {
    int maps = 8;
    List<List<String>> splits = new ArrayList<>();
    for (int i = 0; i < maps; i++) {
      splits.add(List.of("h" + (1 + i % 4)));
    }
    try (MiniMr c = MiniMr.start(LocalityScheduler.class, Map.of(), Scenarios.twoRacks(2), 1024, dir)) {
      LocalityScheduler s = (LocalityScheduler) c.rm.getResourceScheduler();
      RMApp app = c.submit("alice", splits);
      LocalityComparisonTest.awaitPlan(c);
      MockAM am = MockRM.launchAndRegisterAM(app, c.rm, c.nodes.get("h1"));
      ControlledClock clock = new ControlledClock();
      clock.setTime(System.currentTimeMillis());
      s.setClock(clock);
      ApplicationId id = app.getApplicationId();
      ask(am, maps + 3);
      heartbeat(c);
      assertEquals(maps + 3, pending(s, id), "the first top-up comes at once");
      ask(am, maps + 5);
      heartbeat(c);
      heartbeat(c);
      assertEquals(maps + 3, pending(s, id), "a second within the second waits");
      clock.tickMsec(1000);
      heartbeat(c);
      assertEquals(maps + 5, pending(s, id), "and comes a second after the first");
    }
  }

  private static void ask(MockAM am, int n) throws Exception {
    am.allocate(List.of(ResourceRequest.newInstance(Priority.newInstance(MrJob.MAP_PRIORITY), ResourceRequest.ANY,
        Resource.newInstance(2048, 1), n)), List.of());
  }

  private static void heartbeat(MiniMr c) throws Exception {
    MockNM h2 = c.nodes.get("h2");
    h2.nodeHeartbeat(true);
    c.rm.drainEvents();
  }

  private static int pending(LocalityScheduler s, ApplicationId id) {
    return ((Number) s.waitReports().of(id).asMap().get("pendingMaps")).intValue();
  }
}
