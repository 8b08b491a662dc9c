package io.dataloc.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.core.workload.Scenarios;
import io.dataloc.yarn.LocalityScheduler;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ApplicationMasters go where the live maps' data is not ({@code AmSiting}): with a planned job's
 * blocks all on h1 and h2, a new AM offered room on h1 declines it and takes h4's; with
 * {@code am.placement-wait-ms} 0 it takes h1 (first fit, as the stock schedulers); and a declined AM
 * takes any room once its wait is over. (The harness places AMs first fit unless a test sets the wait.)
 * And when the AM limit lets one more AM in, the admission ordering picks which; and AMs submitted
 * together take one node heartbeat each.
 */
class AmPlacementTest {
  @TempDir Path dir;

  private static List<List<String>> hotSplits() {
    List<List<String>> splits = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      splits.add(List.of("h1", "h2"));
    }
    return splits;
  }

  @Test
  void anAmDeclinesAHostWhoseDataPlannedMapsNeedAndTakesAColdOne() throws Exception {
    try (MiniMr c = cluster("3000")) {
      LocalityScheduler s = (LocalityScheduler) c.rm.getResourceScheduler();
      RMApp second = secondAfterAHotJob(c);
      assertNotEquals(RMAppAttemptState.ALLOCATED, second.getCurrentAppAttempt().getAppAttemptState(),
          "h1 holds the data of eight planned maps; h3 and h4 have room and none");
      assertTrue(s.datalocMetrics().amDeclined() > 0);
      heartbeat(c, "h4");
      assertAmOn("h4", second);
      assertEquals(0, s.datalocMetrics().errors());
    }
  }

  @Test
  void withNoWaitTheAmTakesTheFirstRoomAsTheStockSchedulersDo() throws Exception {
    try (MiniMr c = cluster("0")) {
      LocalityScheduler s = (LocalityScheduler) c.rm.getResourceScheduler();
      assertAmOn("h1", secondAfterAHotJob(c));
      assertEquals(0, s.datalocMetrics().amDeclined());
    }
  }

  @Test
  void aDeclinedAmTakesAnyRoomOnceItsWaitIsOver() throws Exception {
    try (MiniMr c = cluster("300")) {
      RMApp second = secondAfterAHotJob(c);
      assertNotEquals(RMAppAttemptState.ALLOCATED, second.getCurrentAppAttempt().getAppAttemptState());
      Thread.sleep(400);
      heartbeat(c, "h1");
      assertAmOn("h1", second);
    }
  }

  /**
   * Inside the CapacityScheduler the AM key's allocator sites the AM the same way: h1 declined
   * (the application is skipped there, the node is not), h4 taken; the decline is in the job's
   * wait log; and with the wait at 0, first fit.
   */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {"3000", "0"})
  void insideTheCapacitySchedulerTheAmKeyDeclinesAHostWhoseDataPlannedMapsNeed(String waitMs) throws Exception {
    Map<String, String> settings = new java.util.LinkedHashMap<>(CapacityModeTest.twoQueues(true, false));
    settings.put("yarn.scheduler.dataloc.am.placement-wait-ms", waitMs);
    try (MiniMr c = MiniMr.start(io.dataloc.yarn.cs.DatalocCapacityScheduler.class, settings, Scenarios.twoRacks(4),
        8192, dir)) {
      io.dataloc.yarn.CapacityPlans plans = CapacityModeTest.plans(c);
      RMApp hot = c.submitEdited("alice", hotSplits(), sub -> sub.setQueue("a"));
      c.launch(hot, "h3", hotSplits());
      CapacityModeTest.awaitPhase(c, hot, "planned");
      RMApp second = c.submitEdited("bob", null, sub -> sub.setQueue("a"));
      heartbeat(c, "h1");
      if (waitMs.equals("0")) {
        assertAmOn("h1", second);
        assertEquals(0, plans.metrics().amDeclined());
        return;
      }
      assertNotEquals(RMAppAttemptState.ALLOCATED, second.getCurrentAppAttempt().getAppAttemptState(),
          "h1 holds the data of eight planned maps; h3 and h4 have room and none");
      assertTrue(plans.metrics().amDeclined() > 0);
      assertTrue(plans.waits().of(second.getApplicationId()).summary().contains("ApplicationMaster"),
          plans.waits().of(second.getApplicationId()).summary());
      heartbeat(c, "h4");
      assertAmOn("h4", second);
      assertEquals(0, plans.metrics().errors());
    }
  }

  /**
   * AMs submitted together spread over the nodes, as the CapacityScheduler spreads them: a node
   * heartbeat takes one off-switch container, so three AMs do not all take the first node that
   * heartbeats (whose slots may be the ones their data's maps need).
   */
  @Test
  void aNodeHeartbeatTakesOneAmTheNextHeartbeatTheNext() throws Exception {
    try (MiniMr c = cluster("0")) {
      LocalityScheduler s = (LocalityScheduler) c.rm.getResourceScheduler();
      List<RMApp> apps = List.of(c.submit("alice", null), c.submit("bob", null), c.submit("carol", null));
      heartbeat(c, "h1");
      assertEquals(List.of("h1", "-", "-"), amHosts(apps), "h1 has room for all three");
      heartbeat(c, "h2");
      assertEquals(List.of("h1", "h2", "-"), amHosts(apps));
      heartbeat(c, "h1");
      assertEquals(List.of("h1", "h2", "h1"), amHosts(apps));
      assertEquals(0, s.datalocMetrics().errors());
    }
  }

  /** Where each application's AM runs, in the list's order; "-" for one not allocated yet. */
  private static List<String> amHosts(List<RMApp> apps) {
    List<String> hosts = new ArrayList<>();
    for (RMApp app : apps) {
      boolean allocated = app.getCurrentAppAttempt().getAppAttemptState() == RMAppAttemptState.ALLOCATED;
      hosts.add(allocated ? app.getCurrentAppAttempt().getMasterContainer().getNodeId().getHost() : "-");
    }
    return hosts;
  }

  private MiniMr cluster(String placementWaitMs) throws Exception {
    return MiniMr.start(LocalityScheduler.class, Map.of("yarn.scheduler.dataloc.maximum-am-resource-percent", "1",
        "yarn.scheduler.dataloc.am.placement-wait-ms", placementWaitMs), Scenarios.twoRacks(4), 8192, dir);
  }

  /** A job with all its data on h1 and h2 is planned and its AM runs on h3; a second job's AM is then offered h1. */
  private static RMApp secondAfterAHotJob(MiniMr c) throws Exception {
    RMApp hot = c.submit("alice", hotSplits());
    LocalityComparisonTest.awaitPlan(c);
    c.launch(hot, "h3", hotSplits());
    RMApp second = c.submit("bob", null);
    heartbeat(c, "h1");
    return second;
  }

  private static void assertAmOn(String host, RMApp app) {
    assertEquals(RMAppAttemptState.ALLOCATED, app.getCurrentAppAttempt().getAppAttemptState());
    assertEquals(host, app.getCurrentAppAttempt().getMasterContainer().getNodeId().getHost());
  }

  /**
   * When the AM limit lets one more AM in, {@code bid} admits the one-map job that waited before the
   * sixteen-map job submitted just before it ({@code AmAdmission}); {@code fifo} admits in
   * submission order, as the stock schedulers do.
   */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {"bid", "fifo"})
  void theAmLimitLetsTheNextJobInByItsAdmissionOrdering(String ordering) throws Exception {
    try (MiniMr c = MiniMr.start(LocalityScheduler.class, Map.of("yarn.scheduler.dataloc.maximum-am-resource-percent",
        "0.01", "yarn.scheduler.dataloc.am.admission-ordering", ordering), Scenarios.twoRacks(4), 8192, dir)) {
      LocalityScheduler s = (LocalityScheduler) c.rm.getResourceScheduler();
      RMApp first = c.submit("alice", hotSplits());
      org.apache.hadoop.yarn.server.resourcemanager.MockAM firstAm =
          org.apache.hadoop.yarn.server.resourcemanager.MockRM.launchAndRegisterAM(first, c.rm, c.nodes.get("h3"));
      RMApp large = c.submit("bob", Scenarios.spread(16, 4, 2, 3));
      Thread.sleep(50);
      RMApp small = c.submit("carol", List.of(List.of("h1", "h2")));
      for (int i = 0; i < 400 && s.reports().jobs().stream().filter(j -> j.phase().equals("planned")).count() < 3; i++) {
        Thread.sleep(25);
      }
      Thread.sleep(300);
      heartbeat(c, "h4");
      assertNotEquals(RMAppAttemptState.ALLOCATED, large.getCurrentAppAttempt().getAppAttemptState(), "the AM limit");
      assertNotEquals(RMAppAttemptState.ALLOCATED, small.getCurrentAppAttempt().getAppAttemptState(), "the AM limit");
      firstAm.unregisterAppAttempt(org.apache.hadoop.yarn.api.protocolrecords.FinishApplicationMasterRequest
          .newInstance(org.apache.hadoop.yarn.api.records.FinalApplicationStatus.SUCCEEDED, "", ""), false);
      c.nodes.get("h3").nodeHeartbeat(first.getCurrentAppAttempt().getAppAttemptId(), 1,
          org.apache.hadoop.yarn.api.records.ContainerState.COMPLETE);
      c.rm.drainEvents();
      heartbeat(c, "h4");
      RMApp admitted = ordering.equals("bid") ? small : large;
      RMApp waits = ordering.equals("bid") ? large : small;
      assertEquals(RMAppAttemptState.ALLOCATED, admitted.getCurrentAppAttempt().getAppAttemptState(), ordering);
      assertNotEquals(RMAppAttemptState.ALLOCATED, waits.getCurrentAppAttempt().getAppAttemptState(), ordering);
      assertEquals(0, s.datalocMetrics().errors());
    }
  }

  private static void heartbeat(MiniMr c, String host) throws Exception {
    MockNM nm = c.nodes.get(host);
    nm.nodeHeartbeat(true);
    c.rm.drainEvents();
  }
}
