package io.dataloc.it;

import io.dataloc.core.workload.Scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.yarn.LocalityScheduler;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.yarn.server.api.protocolrecords.NMContainerStatus;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Work-preserving ResourceManager restart (MockRM with a memory state store): the maps running
 * when the RM goes down keep running, the new RM recovers their containers into its accounting,
 * the AM resyncs and re-sends what is left, and every map runs exactly once.
 */
class WorkPreservingRestartTest {
  @TempDir Path dir;

  @Test
  void runningMapsSurviveARestartAndTheRestIsServedFromTheResentAsks() throws Exception {
    Map<String, String> topology = Scenarios.twoRacks(4);
    List<List<String>> splits = Scenarios.spread(24, 4, 2, 3);
    MiniMr c = MiniMr.start(LocalityScheduler.class, MiniMr.workPreserving(Map.of()), topology, 4096, dir);
    try {
      RMApp app = c.submit("alice", splits);
      MrJob job = c.launch(app, "h1", splits);
      LocalityComparisonTest.awaitPlan(c);
      job.heartbeat();
      for (MockNM nm : c.nodeList()) {
        nm.nodeHeartbeat(true);
        c.rm.drainEvents();
      }
      job.heartbeat();
      int runningBefore = job.runningMaps();
      assertTrue(runningBefore > 0, "maps run before the restart");

      Map<String, List<NMContainerStatus>> reported = job.runningContainers("h1");
      // An opportunistic container (another scheduler before the restart may have made one) runs
      // on h2 besides: it is recovered but never counted in the scheduler's use.
      var opportunistic = org.apache.hadoop.yarn.api.records.ContainerId.newContainerId(
          app.getCurrentAppAttempt().getAppAttemptId(), 999);
      Map<String, List<NMContainerStatus>> withOpportunistic = new java.util.HashMap<>();
      reported.forEach((h, l) -> withOpportunistic.put(h, new java.util.ArrayList<>(l)));
      withOpportunistic.computeIfAbsent("h2", h -> new java.util.ArrayList<>()).add(NMContainerStatus.newInstance(
          opportunistic, 0, org.apache.hadoop.yarn.api.records.ContainerState.RUNNING,
          org.apache.hadoop.yarn.api.records.Resource.newInstance(1024, 1), "running", 0,
          org.apache.hadoop.yarn.api.records.Priority.newInstance(MrJob.MAP_PRIORITY), 0, "",
          org.apache.hadoop.yarn.api.records.ExecutionType.OPPORTUNISTIC, -1));
      c = c.restart(withOpportunistic);
      LocalityScheduler s = (LocalityScheduler) c.rm.getResourceScheduler();
      for (List<NMContainerStatus> list : reported.values()) {
        for (NMContainerStatus st : list) {
          assertNotNull(s.getRMContainer(st.getContainerId()), "recovered " + st.getContainerId());
        }
      }
      int recovered = reported.values().stream().mapToInt(List::size).sum();
      assertEquals(runningBefore + 1, recovered);
      assertNotNull(s.getRMContainer(opportunistic), "the opportunistic container is recovered");
      assertEquals(recovered * 1024L, s.getUsedResource().getMemorySize(),
          "scheduler accounting: the guaranteed containers only (before: the opportunistic one too)");
      assertEquals(1024L, s.reports().amMemoryUsed(), "the recovered AM counts against the AM limit (before: 0)");
      assertEquals(recovered, s.getRootQueueMetrics().getAllocatedContainers(), "queue metrics");
      for (Map.Entry<String, MockNM> e : c.nodes.entrySet()) {
        SchedulerNode node = s.getSchedulerNode(e.getValue().getNodeId());
        assertEquals(reported.getOrDefault(e.getKey(), List.of()).size(), node.getNumContainers(), e.getKey());
      }

      job.resync(c.rm);
      int rounds = Rounds.run(c, job, 100);
      assertTrue(rounds > 0, "every map finished after the restart: " + job.describe());
      assertEquals(splits.size(), job.perHost().values().stream().mapToInt(Integer::intValue).sum());
      assertTrue(s.reports().jobs().get(0).note().contains("restart"), s.reports().jobs().toString());
      assertEquals(1024L, s.getUsedResource().getMemorySize(), "only the AM container is left");
      assertEquals(1024L, s.reports().amMemoryUsed());
    } finally {
      c.close();
    }
  }
}
