package io.dataloc.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.core.workload.Scenarios;
import io.dataloc.yarn.CapacityPlans;
import io.dataloc.yarn.FaultInjector;
import io.dataloc.yarn.cs.DatalocCapacityScheduler;
import io.dataloc.yarn.cs.DatalocPlacementAllocator;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.service.Service;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * An exception in Dataloc's code inside the CapacityScheduler must cost one application, never the
 * ResourceManager: thrown on a scheduling thread it would end the RM, on the committer it would
 * stop allocation silently, on an AM handler it would fail the AM's heartbeat. A fault is injected
 * once into each method of the placement component and each site of the plan service: the RM stays
 * up, the job is taken off its plan and finishes every map from its asks, and the error is counted.
 */
class CapacityModeFaultsTest {
  @TempDir Path dir;

  @AfterEach
  void noMoreFaults() {
    DatalocPlacementAllocator.setFaultInjector(null);
  }

  @ParameterizedTest
  @ValueSource(strings = {"allocator:initialize", "allocator:updatePendingAsk", "allocator:precheckNode",
      "allocator:canAllocate", "allocator:allocate", "allocator:getUniqueLocationAsks", FaultInjector.PRECHECK,
      FaultInjector.COMMIT, FaultInjector.RECONCILE, FaultInjector.AM_SITING})
  void aFaultCostsOneApplicationOnly(String site) throws Exception {
    Map<String, String> topology = Scenarios.twoRacks(4);
    // All data on h1 (8 slots, one of them the AM's): the plan runs maps on the other rack too,
    // where the AM asks for nothing but "anywhere" (off-switch), so every method of the component is asked.
    List<List<String>> splits = java.util.Collections.nCopies(120, List.of("h1"));
    Map<String, String> settings = new java.util.LinkedHashMap<>(CapacityModeTest.twoQueues(true, false));
    // The plan's remote part runs once a node has declined for this long (here, a few rounds).
    settings.put("yarn.scheduler.dataloc.cs.max-wait-ms", "50");
    // ... and at once, as JSQ-MaxWeight serves it (break-even would hold it 3.75 s of
    // wall time for h1, and the off-switch methods might not be asked before the job ends).
    settings.put("yarn.scheduler.dataloc.online-policy", "jsq-maxweight-steal");
    if (site.equals(FaultInjector.AM_SITING)) {
      // AM siting on: the AM key's allocator asks the plan service where the AM goes (the fault
      // meets its first question, so the AM still starts on h1, where the test launches it).
      settings.put("yarn.scheduler.dataloc.am.placement-wait-ms", "2000");
    }
    try (MiniMr c = MiniMr.start(DatalocCapacityScheduler.class, settings, topology, 8192, dir)) {
      CapacityPlans plans = CapacityModeTest.plans(c);
      AtomicBoolean thrown = new AtomicBoolean();
      RMApp app = c.submitEdited("alice", splits, sub -> sub.setQueue("a"));
      FaultInjector once = (at, id) -> {
        if (at.equals(site) && app.getApplicationId().equals(id) && thrown.compareAndSet(false, true)) {
          throw new IllegalStateException("injected at " + at);
        }
      };
      plans.setFaultInjector(once);
      DatalocPlacementAllocator.setFaultInjector(once);
      MrJob job = c.launch(app, "h1", splits);
      int rounds = Rounds.run(c, job, 400);
      assertTrue(thrown.get(), "the fault was met at " + site);
      assertEquals(Service.STATE.STARTED, c.rm.getServiceState(), "the ResourceManager is up");
      assertTrue(rounds > 0, site + ": every map ran: " + job.describe());
      assertEquals(splits.size(), job.dataLocal() + job.atLevel(1) + job.atLevel(2));
      assertTrue(plans.metrics().errors() >= 1, "the error was counted");
      assertEquals("contained", plans.phaseOf(app.getApplicationId()), "the job left its plan");
      assertTrue(!plans.degraded(), "the error was blamed on the application, not on Dataloc as a whole");
    }
  }
}
