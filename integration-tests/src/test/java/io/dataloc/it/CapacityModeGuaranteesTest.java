package io.dataloc.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.core.workload.Scenarios;
import io.dataloc.yarn.cs.DatalocCapacityScheduler;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.NodeLabel;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CapacityScheduler's guarantees while Dataloc plans: preemption gives a queue back its share
 * from a planned job that took the whole cluster; a node in an exclusive label partition gets no
 * planned map; a queue's submit ACL refuses a user it does not name. Each with a MapReduce-like
 * job whose maps follow its plan.
 */
class CapacityModeGuaranteesTest {
  @TempDir Path dir;

  /**
   * Queues a and b, 50% each, a's users allowed the whole cluster: a's planned job fills all 32
   * containers; then b's job arrives and the preemption monitor takes containers back from a until
   * b holds its guaranteed half (less a container of slack); a's maps stay on their data.
   */
  @Test
  void preemptionGivesAQueueItsShareBackFromAPlannedJob() throws Exception {
    Map<String, String> settings = new LinkedHashMap<>(CapacityModeTest.twoQueues(true, false));
    settings.put("yarn.scheduler.capacity.root.a.capacity", "50");
    settings.put("yarn.scheduler.capacity.root.b.capacity", "50");
    settings.put("yarn.scheduler.capacity.root.a.user-limit-factor", "100");
    settings.put("yarn.scheduler.capacity.root.b.user-limit-factor", "100");
    settings.put(YarnConfiguration.RM_SCHEDULER_ENABLE_MONITORS, "true");
    settings.put(YarnConfiguration.RM_SCHEDULER_MONITOR_POLICIES,
        "org.apache.hadoop.yarn.server.resourcemanager.monitor.capacity.ProportionalCapacityPreemptionPolicy");
    settings.put("yarn.resourcemanager.monitor.capacity.preemption.monitoring_interval", "100");
    settings.put("yarn.resourcemanager.monitor.capacity.preemption.max_wait_before_kill", "100");
    settings.put("yarn.resourcemanager.monitor.capacity.preemption.natural_termination_factor", "1");
    settings.put("yarn.resourcemanager.monitor.capacity.preemption.total_preemption_per_round", "1");
    Map<String, String> topology = Scenarios.twoRacks(4);
    List<List<String>> splitsA = Scenarios.spread(80, 4, 2, 9);
    List<List<String>> splitsB = Scenarios.spread(40, 4, 2, 10);
    try (MiniMr c = MiniMr.start(DatalocCapacityScheduler.class, settings, topology, 8192, dir)) {
      RMApp a = c.submitEdited("alice", splitsA, sub -> sub.setQueue("a"));
      MrJob jobA = c.launch(a, "h1", splitsA);
      CapacityModeTest.awaitPhase(c, a, "planned");
      rounds(c, List.of(jobA), 6, 0);
      var cs = (CapacityScheduler) c.rm.getResourceScheduler();
      assertEquals(32, cs.getQueue("a").getMetrics().getAllocatedContainers(), "a's job took the whole cluster");
      RMApp b = c.submitEdited("bob", splitsB, sub -> sub.setQueue("b"));
      MrJob jobB = null;
      int heldB = 0;
      for (int i = 0; i < 60 && heldB < 15; i++) {
        if (jobB == null && b.getCurrentAppAttempt() != null && b.getCurrentAppAttempt().getMasterContainer() != null) {
          jobB = new MrJob(c.rm.sendAMLaunched(b.getCurrentAppAttempt().getAppAttemptId()), splitsB, c.rackOf);
          jobB.am.registerAppAttempt();
        }
        rounds(c, jobB == null ? List.of(jobA) : List.of(jobA, jobB), 1, 100);
        heldB = cs.getQueue("b").getMetrics().getAllocatedContainers();
      }
      System.out.println("after preemption: a " + cs.getQueue("a").getMetrics().getAllocatedContainers() + ", b "
          + heldB + "; a's maps " + jobA.perHost());
      assertTrue(heldB >= 15, "b got its guaranteed half back (16 of 32, less one): " + heldB);
      assertEquals(jobA.runningMaps(), jobA.dataLocal(), "a's running maps are on their data: " + jobA.perHost());
      assertEquals(0, CapacityModeTest.plans(c).metrics().errors());
    }
  }

  /** Heartbeats: each job's AM, every node, each AM again; a pause after each round. */
  private static void rounds(MiniMr c, List<MrJob> jobs, int n, long pauseMillis) throws Exception {
    for (int r = 0; r < n; r++) {
      for (MrJob j : jobs) {
        j.heartbeat();
      }
      for (MockNM nm : c.nodeList()) {
        nm.nodeHeartbeat(true);
        c.rm.drainEvents();
      }
      for (MrJob j : jobs) {
        j.heartbeat();
      }
      if (pauseMillis > 0) {
        Thread.sleep(pauseMillis);
      }
    }
  }

  /**
   * h4 in an exclusive partition no queue of the job can use: the plan puts no map there and no
   * container lands there; the job finishes on the three other hosts, every map once.
   */
  @Test
  void aNodeInAnExclusivePartitionGetsNoPlannedMap() throws Exception {
    Map<String, String> settings = new LinkedHashMap<>(CapacityModeTest.twoQueues(true, false));
    settings.put(YarnConfiguration.NODE_LABELS_ENABLED, "true");
    Map<String, String> topology = Scenarios.twoRacks(4);
    List<List<String>> splits = Scenarios.spread(36, 4, 2, 12);
    try (MiniMr c = MiniMr.start(DatalocCapacityScheduler.class, settings, topology, 8192, dir)) {
      var labels = c.rm.getRMContext().getNodeLabelManager();
      labels.addToCluserNodeLabels(Set.of(NodeLabel.newInstance("gpu", true)));
      labels.replaceLabelsOnNode(Map.of(c.nodes.get("h4").getNodeId(), Set.of("gpu")));
      c.rm.drainEvents();
      RMApp app = c.submitEdited("alice", splits, sub -> sub.setQueue("a"));
      MrJob job = c.launch(app, "h1", splits);
      CapacityModeTest.awaitPhase(c, app, "planned");
      assertTrue(Rounds.run(c, job, 200) > 0, job.describe());
      assertFalse(job.perHost().containsKey("h4"), "nothing on the labelled node: " + job.perHost());
      assertEquals(splits.size(), job.perHost().values().stream().mapToInt(Integer::intValue).sum());
      assertEquals(0, CapacityModeTest.plans(c).metrics().errors());
    }
  }

  /**
   * With ACLs on, queue a admits only alice: bob's job for a is refused, alice's is planned and
   * runs; the CapacityScheduler's ACLs are untouched by Dataloc.
   */
  @Test
  void aQueuesSubmitAclStillRefusesOthers() throws Exception {
    Map<String, String> settings = new LinkedHashMap<>(CapacityModeTest.twoQueues(true, false));
    settings.put(YarnConfiguration.YARN_ACL_ENABLE, "true");
    settings.put("yarn.scheduler.capacity.root.acl_submit_applications", " ");
    settings.put("yarn.scheduler.capacity.root.acl_administer_queue", " ");
    settings.put("yarn.scheduler.capacity.root.a.acl_submit_applications", "alice");
    settings.put("yarn.scheduler.capacity.root.b.acl_submit_applications", "*");
    List<List<String>> splits = Scenarios.skewed(16, 4, 2, 2, 13);
    try (MiniMr c = MiniMr.start(DatalocCapacityScheduler.class, settings, Scenarios.twoRacks(4), 8192, dir)) {
      boolean refused;
      try {
        RMApp bobs = c.submitOnly("bob", splits, url -> url, sub -> sub.setQueue("a"));
        refused = bobs == null || waitFor(c, bobs, RMAppState.FAILED, RMAppState.KILLED);
      } catch (Exception e) {
        refused = true;
      }
      assertTrue(refused, "bob may not submit to a");
      RMApp alices = c.submitEdited("alice", splits, sub -> sub.setQueue("a"));
      MrJob job = c.launch(alices, "h1", splits);
      CapacityModeTest.awaitPhase(c, alices, "planned");
      assertTrue(Rounds.run(c, job, 200) > 0, job.describe());
      assertEquals(0, CapacityModeTest.plans(c).metrics().errors());
    }
  }

  private static boolean waitFor(MiniMr c, RMApp app, RMAppState... states) throws InterruptedException {
    for (int i = 0; i < 100; i++) {
      c.rm.drainEvents();
      for (RMAppState s : states) {
        if (app.getState() == s) {
          return true;
        }
      }
      Thread.sleep(20);
    }
    return false;
  }
}
