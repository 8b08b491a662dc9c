package io.dataloc.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.dataloc.core.workload.Scenarios;
import io.dataloc.core.am.WaitLog;
import io.dataloc.yarn.CapacityPlans;
import io.dataloc.yarn.HadoopLine;
import io.dataloc.yarn.WaitReport;
import io.dataloc.yarn.cs.DatalocCapacityScheduler;
import io.dataloc.yarn.cs.DatalocPlacementAllocator;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptState;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Dataloc inside the CapacityScheduler, on a MockRM with two queues: the same MapReduce-like job on
 * skewed input under the stock CapacityScheduler (tuned as its documentation advises) and under
 * the CapacityScheduler with Dataloc's placement component, each alone in its queue. The maps follow
 * the plan: every map data-local, the map phase no longer; the queue's job was planned and its
 * allocator attached.
 */
class CapacityModeTest {
  @TempDir Path dir;

  /** Two queues, a (60%, up to 100%) and b (40%), and the two lines that install Dataloc. */
  static Map<String, String> twoQueues(boolean dataloc, boolean async) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("yarn.scheduler.capacity.root.queues", "a,b");
    m.put("yarn.scheduler.capacity.root.a.capacity", "60");
    m.put("yarn.scheduler.capacity.root.a.maximum-capacity", "100");
    m.put("yarn.scheduler.capacity.root.b.capacity", "40");
    m.put("yarn.scheduler.capacity.root.b.maximum-capacity", "100");
    m.put("yarn.scheduler.capacity.maximum-am-resource-percent", "0.5");
    m.put("yarn.scheduler.capacity.schedule-asynchronously.enable", Boolean.toString(async));
    // As the CapacityScheduler's documentation advises: the node-locality delay is about the
    // number of nodes (here 6); the rack delay adds a few more opportunities.
    m.put("yarn.scheduler.capacity.node-locality-delay", "6");
    m.put("yarn.scheduler.capacity.rack-locality-additional-delay", "2");
    if (dataloc) {
      m.put(YarnConfiguration.RM_SCHEDULER, DatalocCapacityScheduler.class.getName());
      m.put("yarn.scheduler.app-placement-allocator.class", DatalocPlacementAllocator.class.getName());
    }
    return m;
  }

  record Outcome(String label, int dataLocal, int maps, int maxPerHost, int rounds, Map<String, Integer> perHost) {}

  private Outcome run(String label, boolean dataloc, Map<String, String> topology, List<List<String>> splits)
      throws Exception {
    Class<? extends ResourceScheduler> scheduler = dataloc ? DatalocCapacityScheduler.class : CapacityScheduler.class;
    try (MiniMr c = MiniMr.start(scheduler, twoQueues(dataloc, false), topology, 8192, dir.resolve(label))) {
      RMApp app = c.submitEdited("alice", splits, sub -> sub.setQueue("a"));
      MrJob job = c.launch(app, topology.keySet().iterator().next(), splits);
      if (dataloc) {
        awaitPhase(c, app, "planned");
      }
      int rounds = Rounds.run(c, job, 300);
      assertTrue(rounds > 0, label + " did not finish the maps: " + job.describe());
      Outcome o = new Outcome(label, job.dataLocal(), splits.size(), job.maxPerHost(), rounds, job.perHost());
      System.out.println(o);
      if (dataloc) {
        CapacityPlans plans = plans(c);
        assertTrue(plans.metrics().csAttaches() > 0, "the placement component attached");
        assertEquals(0, plans.metrics().errors(), "no error in Dataloc's code");
        assertEquals(1, plans.metrics().plansMade());
        // Why it waited: every veto is in the job's wait log, as a node the plan held none of its maps for.
        WaitReport why = plans.waits().of(app.getApplicationId());
        assertEquals(plans.metrics().declines(), why.refusals(), why.summary());
        assertEquals(plans.metrics().declines() > 0, why.latestRefusals().stream()
            .anyMatch(e -> e.cause() == WaitLog.Cause.NOT_PLANNED_HERE), why.summary());
        System.out.println(label + ": declines " + plans.metrics().declines() + ", fallbacks "
            + plans.metrics().csFallbacks() + ", local/rack/off " + plans.metrics().mapsNodeLocal() + "/"
            + plans.metrics().mapsRackLocal() + "/" + plans.metrics().mapsOffSwitch());
      }
      return o;
    }
  }

  static CapacityPlans plans(MiniMr c) {
    return ((DatalocCapacityScheduler) c.rm.getResourceScheduler()).plans();
  }

  static void awaitPhase(MiniMr c, RMApp app, String phase) throws InterruptedException {
    CapacityPlans plans = plans(c);
    for (int i = 0; i < 400 && !phase.equals(plans.phaseOf(app.getApplicationId())); i++) {
      Thread.sleep(25);
    }
    assertEquals(phase, plans.phaseOf(app.getApplicationId()));
  }

  @Test
  void mapsFollowThePlanInsideTheCapacityScheduler() throws Exception {
    Map<String, String> topology = Scenarios.twoRacks(6);
    List<List<String>> splits = Scenarios.skewed(24, 6, 2, 2, 11);
    Outcome stock = run("capacity", false, topology, splits);
    Outcome planned = run("capacity+dataloc", true, topology, splits);
    assertEquals(splits.size(), planned.perHost().values().stream().mapToInt(Integer::intValue).sum(),
        "every map ran once");
    assertEquals(planned.maps(), planned.dataLocal(), "every map data-local: " + planned);
    assertTrue(planned.dataLocal() >= stock.dataLocal(), planned + " vs " + stock);
    assertTrue(planned.rounds() <= stock.rounds(), planned + " vs " + stock);
  }

  /**
   * Asynchronous scheduling (on by default in Hadoop 3.5): the scheduling threads ask the
   * component every few milliseconds with no CapacityScheduler lock, the committer commits under
   * it. The job's maps still follow the plan, every one data-local, with no error. The two bounds
   * counted in wall-clock time (how long a planned key may decline, and the break-even wait before
   * a planned map may leave its host) are set far out of reach here: on a loaded machine a round of
   * this harness can outlast their defaults, and then a map leaving its plan is the policy working,
   * not a fault (their own tests cover them).
   */
  @Test
  void mapsFollowThePlanWithAsynchronousScheduling() throws Exception {
    Map<String, String> topology = Scenarios.twoRacks(6);
    List<List<String>> splits = Scenarios.skewed(24, 6, 2, 2, 11);
    Map<String, String> settings = new LinkedHashMap<>(twoQueues(true, true));
    settings.put("yarn.scheduler.dataloc.cs.max-wait-ms", "600000");
    settings.put("yarn.scheduler.dataloc.rate.rack", "0.001");
    settings.put("yarn.scheduler.dataloc.rate.remote", "0.001");
    try (MiniMr c = MiniMr.start(DatalocCapacityScheduler.class, settings, topology, 8192, dir)) {
      RMApp app = c.submitEdited("alice", splits, sub -> sub.setQueue("a"));
      // The scheduling threads place the AM wherever they find room first, with no heartbeat.
      c.rm.waitForState(app.getApplicationId(), org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState.ACCEPTED);
      for (int i = 0; i < 500 && (app.getCurrentAppAttempt() == null
          || app.getCurrentAppAttempt().getAppAttemptState() != RMAppAttemptState.ALLOCATED); i++) {
        Thread.sleep(10);
      }
      var am = c.rm.sendAMLaunched(app.getCurrentAppAttempt().getAppAttemptId());
      am.registerAppAttempt();
      MrJob job = new MrJob(am, splits, c.rackOf);
      awaitPhase(c, app, "planned");
      int rounds = Rounds.run(c, job, 300);
      assertTrue(rounds > 0, job.describe());
      assertEquals(splits.size(), job.dataLocal(), "every map data-local: " + job.perHost() + " " + job.offData());
      assertEquals(0, plans(c).metrics().errors());
    }
  }

  /**
   * Two queues at once, both wanting more than the cluster holds: a's job is planned, b's (not in
   * {@code cs.queues}) is scheduled as stock. b keeps at least its guaranteed 40%; a's job runs
   * every map data-local, passing up the nodes its plan does not want (as a job asking for strict
   * locality does under the stock CapacityScheduler); b's job uses them (elasticity), so no
   * container is idle.
   */
  @Test
  void queuesKeepTheirCapacitiesAndOnlyChosenQueuesArePlanned() throws Exception {
    Map<String, String> topology = Scenarios.twoRacks(4);
    Map<String, String> settings = new LinkedHashMap<>(twoQueues(true, false));
    settings.put("yarn.scheduler.dataloc.cs.queues", "a");
    // Users may grow beyond their queue's capacity (elasticity), so no node need stay idle.
    settings.put("yarn.scheduler.capacity.root.a.user-limit-factor", "100");
    settings.put("yarn.scheduler.capacity.root.b.user-limit-factor", "100");
    List<List<String>> splitsA = java.util.Collections.nCopies(40, List.of("h1", "h2"));
    List<List<String>> splitsB = Scenarios.spread(40, 4, 2, 6);
    try (MiniMr c = MiniMr.start(DatalocCapacityScheduler.class, settings, topology, 8192, dir)) {
      RMApp a = c.submitEdited("alice", splitsA, sub -> sub.setQueue("a"));
      MrJob jobA = c.launch(a, "h1", splitsA);
      RMApp b = c.submitEdited("bob", splitsB, sub -> sub.setQueue("b"));
      MrJob jobB = c.launch(b, "h3", splitsB);
      awaitPhase(c, a, "planned");
      assertEquals(null, plans(c).phaseOf(b.getApplicationId()), "queue b is not Dataloc's");
      // No map finishes here: the cluster (4 nodes of 8 containers) stays full while both ask for more.
      for (int round = 0; round < 8; round++) {
        jobA.heartbeat();
        jobB.heartbeat();
        for (var nm : c.nodeList()) {
          nm.nodeHeartbeat(true);
          c.rm.drainEvents();
        }
        jobA.heartbeat();
        jobB.heartbeat();
      }
      // Containers the queues hold (an AM releases those it cannot use at its next heartbeat).
      var cs = (CapacityScheduler) c.rm.getResourceScheduler();
      int heldA = cs.getQueue("a").getMetrics().getAllocatedContainers();
      int heldB = cs.getQueue("b").getMetrics().getAllocatedContainers();
      Map<String, Integer> dataHostsA = new java.util.HashMap<>();
      splitsA.forEach(hosts -> hosts.forEach(h -> dataHostsA.merge(h, 1, Integer::sum)));
      System.out.println("containers held: a " + heldA + " " + jobA.perHost() + ", b " + heldB + " " + jobB.perHost()
          + "; a's data on " + dataHostsA.keySet());
      assertEquals(32, heldA + heldB, "no container idle");
      assertTrue(heldB >= 32 * 40 / 100, "queue b keeps its guaranteed share: " + heldB);
      assertEquals(jobA.runningMaps(), jobA.dataLocal(), "a's maps follow its plan: " + jobA.perHost());
      assertEquals(0, plans(c).metrics().errors());
    }
  }

  /**
   * The CapacityScheduler falls back to its stock allocator without a word when the class name is
   * wrong; Dataloc refuses to start instead, naming the key.
   */
  @Test
  void aMisspeltAllocatorClassStopsTheStartNamingTheKey() {
    assumeFalse(HadoopLine.line().equals("3.3"), "Hadoop 3.3 has no cluster-wide allocator key");
    Map<String, String> settings = new LinkedHashMap<>(twoQueues(true, false));
    settings.put("yarn.scheduler.app-placement-allocator.class", "io.dataloc.yarn.cs.DatalocPlacementAlocator");
    Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class, () -> MiniMr.start(
        DatalocCapacityScheduler.class, settings, Scenarios.twoRacks(2), 4096, dir).close());
    StringBuilder chain = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      chain.append(t.getMessage()).append(" / ");
    }
    assertTrue(chain.toString().contains("yarn.scheduler.app-placement-allocator.class"), chain.toString());
  }

  /**
   * A planned map key never reserves a node: a node the plan wants but where the map does not fit
   * now is not let through (the CapacityScheduler would reserve it, and a reserved allocation skips
   * the plan's question yet is asked at commit, so a veto there would pin the node). Here all data
   * is on h1; after the AM and two 3-GB maps h1 has 1 GB free, less than a map.
   */
  @Test
  void aPlannedJobNeverReservesANode() throws Exception {
    Map<String, String> settings = new LinkedHashMap<>(twoQueues(true, false));
    settings.put("yarn.scheduler.dataloc.cs.max-wait-ms", "600000"); // no fallback in this test
    List<List<String>> splits = java.util.Collections.nCopies(12, List.of("h1"));
    try (MiniMr c = MiniMr.start(DatalocCapacityScheduler.class, settings, Scenarios.twoRacks(4), 8192, dir)) {
      RMApp app = c.submitEdited("alice", splits, sub -> sub.setQueue("a"));
      MrJob job = c.launch(app, "h1", splits, 3072);
      awaitPhase(c, app, "planned");
      var cs = (CapacityScheduler) c.rm.getResourceScheduler();
      for (int round = 0; round < 6; round++) {
        job.heartbeat();
        for (var nm : c.nodeList()) {
          nm.nodeHeartbeat(true);
          c.rm.drainEvents();
        }
        job.heartbeat();
        for (var nm : c.nodeList()) {
          assertEquals(null, cs.getNode(nm.getNodeId()).getReservedContainer(),
              "round " + round + ": no reservation on " + nm.getNodeId() + "; maps " + job.perHost());
        }
      }
      assertTrue(job.perHost().getOrDefault("h1", 0) == 2, "h1 runs the two maps that fit: " + job.perHost());
      assertEquals(0, plans(c).metrics().errors());
    }
  }
}
