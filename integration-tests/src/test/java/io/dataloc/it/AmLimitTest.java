package io.dataloc.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dataloc.core.workload.Scenarios;
import io.dataloc.yarn.LocalityScheduler;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptState;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The same AM limit lets as many ApplicationMasters run under Dataloc as under the
 * CapacityScheduler: four 4-GB nodes (16 GB), {@code maximum-am-resource-percent} 0.3 (4.8 GB),
 * 1-GB AMs, eight jobs waiting: the CapacityScheduler rounds the limit up to a multiple of the
 * minimum allocation and runs 5. Before, Dataloc rounded down and ran 4, so comparisons between
 * the two under the "same" limit were not like for like.
 */
class AmLimitTest {
  @TempDir Path dir;

  @ParameterizedTest(name = "{0}")
  @ValueSource(classes = {LocalityScheduler.class, CapacityScheduler.class})
  void theSameLimitRunsAsManyAmsAsTheCapacityScheduler(Class<?> scheduler) throws Exception {
    @SuppressWarnings("unchecked")
    Class<? extends ResourceScheduler> type = (Class<? extends ResourceScheduler>) scheduler;
    try (MiniMr c = MiniMr.start(type, Map.of("yarn.scheduler.dataloc.maximum-am-resource-percent", "0.3",
        "yarn.scheduler.capacity.maximum-am-resource-percent", "0.3"), Scenarios.twoRacks(4), 4096, dir)) {
      List<RMApp> apps = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        apps.add(c.submit("user" + i, null));
      }
      for (int round = 0; round < 5; round++) {
        for (MockNM nm : c.nodeList()) {
          nm.nodeHeartbeat(true);
          c.rm.drainEvents();
        }
      }
      long running = apps.stream().filter(a -> a.getCurrentAppAttempt() != null
          && a.getCurrentAppAttempt().getAppAttemptState() == RMAppAttemptState.ALLOCATED).count();
      assertEquals(5, running, scheduler.getSimpleName() + ": AMs running under a 4.8-GB limit of 1-GB AMs");
    }
  }
}
