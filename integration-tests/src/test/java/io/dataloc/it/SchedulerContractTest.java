package io.dataloc.it;

import io.dataloc.core.workload.Scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.yarn.DatalocConfiguration;
import io.dataloc.yarn.LocalityScheduler;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockRM;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.SchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.SchedulerEventType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scheduler contract inside a real (mock) ResourceManager, and what operators rely on. */
class SchedulerContractTest {
  @TempDir Path dir;

  private static final Map<String, String> FOUR = Scenarios.twoRacks(4);

  private MiniMr cluster(String name, Map<String, String> settings) throws Exception {
    return MiniMr.start(LocalityScheduler.class, settings, FOUR, 8192, dir.resolve(name));
  }

  private static LocalityScheduler scheduler(MiniMr c) {
    return (LocalityScheduler) c.rm.getResourceScheduler();
  }

  @Test
  void anInvalidSettingStopsTheResourceManagerNamingTheKey() {
    YarnConfiguration conf = new YarnConfiguration();
    conf.setClass(YarnConfiguration.RM_SCHEDULER, LocalityScheduler.class, ResourceScheduler.class);
    conf.set("yarn.scheduler.dataloc.online-policy", "magic");
    Exception e = assertThrows(Exception.class, () -> {
      MockRM rm = new MockRM(conf);
      try {
        rm.start();
      } finally {
        rm.stop();
      }
    });
    String all = messages(e);
    assertTrue(all.contains("yarn.scheduler.dataloc.online-policy = 'magic' is invalid"), all);
    assertTrue(all.contains("jsq-maxweight"), "names what is allowed: " + all);
  }

  private static String messages(Throwable t) {
    StringBuilder sb = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause()) {
      sb.append(c.getMessage()).append(" | ");
    }
    return sb.toString();
  }

  @Test
  void refreshQueuesAppliesGoodSettingsAndRefusesBadOnesKeepingTheOld() throws Exception {
    try (MiniMr c = cluster("refresh", Map.of())) {
      LocalityScheduler s = scheduler(c);
      assertEquals("bar", s.settings().assigner());
      YarnConfiguration good = new YarnConfiguration(c.rm.getConfig());
      good.set("yarn.scheduler.dataloc.assigner", "flow");
      s.reinitialize(good, c.rm.getRMContext());
      assertEquals("flow", s.settings().assigner());
      YarnConfiguration bad = new YarnConfiguration(good);
      bad.set("yarn.scheduler.dataloc.cost.remote", "0.5");
      IOException e = assertThrows(IOException.class, () -> s.reinitialize(bad, c.rm.getRMContext()));
      assertTrue(e.getMessage().contains("yarn.scheduler.dataloc.cost.remote = '0.5' is invalid"), e.getMessage());
      assertEquals("flow", s.settings().assigner(), "the running configuration stays in force");
      assertEquals(0, s.datalocMetrics().errors());
    }
  }

  @Test
  void aPlannedJobRunsEveryMapAndCountsItsPlan() throws Exception {
    try (MiniMr c = cluster("planned", Map.of())) {
      List<List<String>> splits = Scenarios.spread(12, 4, 2, 3);
      MrJob job = c.launch(c.submit("bob", splits), "h1", splits);
      LocalityComparisonTest.awaitPlan(c);
      assertTrue(Rounds.run(c, job, 100) > 0);
      LocalityScheduler s = scheduler(c);
      assertEquals(1, s.datalocMetrics().plansMade());
      assertEquals(12, s.datalocMetrics().mapsNodeLocal() + s.datalocMetrics().mapsRackLocal()
          + s.datalocMetrics().mapsOffSwitch());
      assertEquals(0, job.released, "never allocates beyond the AM's asks");
      assertEquals(0, s.datalocMetrics().errors());
    }
  }

  @Test
  void mapsLargerThanTheMinimumAllocationStayOnTheirPlannedHosts() throws Exception {
    // 8-GB nodes, 1-GB minimum allocation, 3-GB maps: two fit on a node, and a full node still has
    // room for a minimum allocation. Each map has one replica, so the plan runs each where its
    // block is; a node with no room for this job's next map must leave it in its queue rather than
    // send it elsewhere.
    try (MiniMr c = cluster("large-maps", Map.of())) {
      List<List<String>> splits = Scenarios.spread(24, 4, 1, 7);
      MrJob job = c.launch(c.submit("bob", splits), "h1", splits, 3072);
      LocalityComparisonTest.awaitPlan(c);
      assertTrue(Rounds.run(c, job, 200) > 0, job.describe());
      Map<String, Integer> blocksOn = new java.util.TreeMap<>();
      splits.forEach(s -> blocksOn.merge(s.get(0), 1, Integer::sum));
      assertEquals(24, job.dataLocal(), "every map data-local: " + job.perHost());
      assertEquals(blocksOn, job.perHost(), "each map ran where its block is");
      assertEquals(0, scheduler(c).datalocMetrics().errors());
    }
  }

  @Test
  void aCorruptSplitFileMeansNoPlanAWarningAndTheJobStillRuns() throws Exception {
    try (MiniMr c = cluster("corrupt", Map.of())) {
      List<List<String>> splits = Scenarios.spread(8, 4, 2, 5);
      RMApp app = c.submit("carol", splits);
      Path file = dir.resolve("corrupt/staging/carol/.staging/" + app.getApplicationId() + "/job.splitmetainfo");
      Files.write(file, new byte[] {'n', 'o', 'p', 'e'});
      MrJob job = c.launch(app, "h1", splits);
      assertTrue(Rounds.run(c, job, 100) > 0, "served online from its asks");
      LocalityScheduler s = scheduler(c);
      assertEquals(0, s.datalocMetrics().errors());
      assertTrue(s.datalocMetrics().placementFailures() + s.datalocMetrics().plansMade() >= 1);
    }
  }

  @Test
  void aJobWithoutPlacementIsServedFromItsAsks() throws Exception {
    try (MiniMr c = cluster("asks", Map.of("yarn.scheduler.dataloc.placement.sources", "asks"))) {
      List<List<String>> splits = Scenarios.spread(10, 4, 2, 9);
      MrJob job = c.launch(c.submit("dave", null), "h2", splits);
      assertTrue(Rounds.run(c, job, 100) > 0);
      assertTrue(job.dataLocal() >= 8, "host-level asks still give locality: " + job.dataLocal());
      assertEquals(0, scheduler(c).datalocMetrics().plansMade());
    }
  }

  @Test
  void aNodeLostInTheMiddleOfAPlanLosesNoTask() throws Exception {
    try (MiniMr c = cluster("lost", Map.of())) {
      List<List<String>> splits = Scenarios.spread(16, 4, 2, 13);
      MrJob job = c.launch(c.submit("erin", splits), "h1", splits);
      LocalityComparisonTest.awaitPlan(c);
      var lost = c.nodes.remove("h4");
      c.rm.sendNodeLost(lost);
      c.rm.drainEvents();
      assertTrue(Rounds.run(c, job, 200) > 0, "every map ran on the remaining nodes");
      for (String host : job.ranOn) {
        assertTrue(!"h4".equals(host), "nothing ran on the lost node");
      }
      assertEquals(0, scheduler(c).datalocMetrics().errors());
    }
  }

  @Test
  void aNodeResizedByTheAdministratorGetsNoMoreContainersThanItNowHolds() throws Exception {
    try (MiniMr c = cluster("resize", Map.of())) {
      // Every block on h3, which the administrator shrinks to two containers before the job starts.
      var h3 = c.nodes.get("h3").getNodeId();
      c.rm.getAdminService().updateNodeResource(
          org.apache.hadoop.yarn.server.api.protocolrecords.UpdateNodeResourceRequest.newInstance(Map.of(h3,
              org.apache.hadoop.yarn.api.records.ResourceOption.newInstance(
                  org.apache.hadoop.yarn.api.records.Resource.newInstance(2048, 2), -1))));
      c.rm.drainEvents();
      LocalityScheduler s = scheduler(c);
      assertEquals(2048, s.getSchedulerNode(h3).getTotalResource().getMemorySize());
      List<List<String>> splits = new java.util.ArrayList<>();
      for (int i = 0; i < 8; i++) {
        splits.add(List.of("h3", i % 2 == 0 ? "h1" : "h4"));
      }
      RMApp app = c.submit("frank", splits);
      MrJob job = c.launch(app, "h2", splits);
      LocalityComparisonTest.awaitPlan(c);
      // The client's application report (yarn application -status) works under Dataloc.
      var report = c.rm.getClientRMService().getApplicationReport(
          org.apache.hadoop.yarn.api.protocolrecords.GetApplicationReportRequest.newInstance(app.getApplicationId()))
          .getApplicationReport().getApplicationResourceUsageReport();
      assertEquals(1, report.getNumUsedContainers(), "the AM container");
      assertTrue(report.getClusterUsagePercentage() > 0, "share of the cluster in use");
      for (int round = 0; round < 100 && !job.finished(); round++) {
        assertTrue(Rounds.run(c, job, 1) != 0 || !job.finished());
        assertTrue(s.getSchedulerNode(h3).getNumContainers() <= 2, "h3 holds two containers");
      }
      assertTrue(job.finished(), job.describe());
      assertTrue(job.perHost().getOrDefault("h3", 0) >= 2, "h3 still ran maps: " + job.perHost());
      assertEquals(0, s.datalocMetrics().errors());
    }
  }

  @Test
  void aKilledApplicationLeavesNothingBehind() throws Exception {
    try (MiniMr c = cluster("kill", Map.of())) {
      List<List<String>> splits = Scenarios.spread(8, 4, 2, 17);
      RMApp app = c.submit("frank", splits);
      c.launch(app, "h1", splits);
      c.rm.killApp(app.getApplicationId());
      c.rm.waitForState(app.getApplicationId(), RMAppState.KILLED);
      c.rm.drainEvents();
      LocalityScheduler s = scheduler(c);
      assertTrue(s.reports().jobs().isEmpty(), s.reports().jobs().toString());
      assertEquals(0, s.getUsedResource().getMemorySize(), "every container released");
      assertEquals(0, s.datalocMetrics().errors());
    }
  }

  @Test
  void eventsWithNoMeaningHereAreIgnoredWithoutError() throws Exception {
    try (MiniMr c = cluster("events", Map.of())) {
      LocalityScheduler s = scheduler(c);
      // By name: not every Hadoop line has every one of these event types.
      List<String> ignored = List.of("NODE_ATTRIBUTES_UPDATE", "KILL_RESERVED_CONTAINER", "MARK_CONTAINER_FOR_PREEMPTION",
          "MARK_CONTAINER_FOR_KILLABLE", "MARK_CONTAINER_FOR_NONKILLABLE", "MANAGE_QUEUE", "AUTO_QUEUE_DELETION");
      for (SchedulerEventType type : SchedulerEventType.values()) {
        if (ignored.contains(type.name())) {
          s.handle(new SchedulerEvent(type));
        }
      }
      // A malformed event (wrong class for its type) is caught: the RM keeps running.
      s.handle(new SchedulerEvent(SchedulerEventType.NODE_UPDATE));
      assertEquals(1, s.datalocMetrics().errors());
      assertTrue(s.isDegraded(), "degraded to plain locality scheduling after an error");
      // The way back: -refreshQueues rebuilds the engine; new jobs are planned again.
      c.rm.getAdminService().refreshQueues(org.apache.hadoop.yarn.server.api.protocolrecords.RefreshQueuesRequest
          .newInstance());
      assertTrue(!s.isDegraded(), "a refresh ends the degraded spell");
      List<List<String>> splits = Scenarios.spread(8, 4, 2, 31);
      MrJob job = c.launch(c.submit("ida", splits), "h1", splits);
      LocalityComparisonTest.awaitPlan(c);
      assertEquals("planned", s.reports().jobs().get(0).phase(), s.reports().jobs().toString());
      assertTrue(Rounds.run(c, job, 100) > 0, job.describe());
      assertEquals(1, s.datalocMetrics().errors());
    }
  }

  @Test
  void blacklistedNodesGetNoContainersOfTheJob() throws Exception {
    try (MiniMr c = cluster("blacklist", Map.of())) {
      List<List<String>> splits = Scenarios.spread(16, 4, 2, 23);
      MrJob job = c.launch(c.submit("gina", splits), "h1", splits);
      LocalityComparisonTest.awaitPlan(c);
      job.blacklist("h3");
      assertTrue(Rounds.run(c, job, 200) > 0, "every map ran elsewhere");
      for (String host : job.ranOn) {
        assertTrue(!"h3".equals(host), "a map ran on the blacklisted node");
      }
      assertEquals(0, job.released, "never allocated beyond the asks");
      assertEquals(0, scheduler(c).datalocMetrics().errors());
    }
  }

  @Test
  void aFailedAmAttemptIsRetriedAndTheNewAttemptIsServed() throws Exception {
    try (MiniMr c = cluster("retry", Map.of())) {
      List<List<String>> splits = Scenarios.spread(8, 4, 2, 29);
      RMApp app = c.submit("hank", splits);
      MrJob first = c.launch(app, "h1", splits);
      LocalityComparisonTest.awaitPlan(c);
      var attempt = first.am.getApplicationAttemptId();
      c.nodes.get("h1").nodeHeartbeat(attempt, 1, org.apache.hadoop.yarn.api.records.ContainerState.COMPLETE);
      c.rm.drainEvents();
      c.rm.waitForState(attempt, org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptState.FAILED);
      MrJob second = new MrJob(MockRM.launchAndRegisterAM(app, c.rm, c.nodes.get("h2")), splits, c.rackOf);
      assertEquals(2, second.am.getApplicationAttemptId().getAttemptId());
      assertTrue(Rounds.run(c, second, 200) > 0, "the second attempt's maps all ran");
      LocalityScheduler s = scheduler(c);
      assertEquals(0, s.datalocMetrics().errors());
      assertEquals("online", s.reports().jobs().get(0).phase(), "after an AM retry the job is served from its asks");
    }
  }
}
