package io.dataloc.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.core.am.WaitLog;
import io.dataloc.core.workload.Scenarios;
import io.dataloc.yarn.LocalityScheduler;
import io.dataloc.yarn.WaitReport;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.api.protocolrecords.NMContainerStatus;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRM;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A job past its maps that holds more than an equal share of the cluster does not take a freed
 * slot ahead of a job that arrives meanwhile ({@code EqualShare}; here with {@code
 * reduce.max-share=1}, the rule alone): four 4-GB nodes, a job of one map whose reduces fill them
 * and ask for more, then a one-map job. Under {@code job-ordering=fair} (the default) and {@code
 * bid} the newcomer's AM gets the next slot that frees, and its map the one after; under {@code
 * fifo} the earlier job's reduces take both, as the FIFO scheduler's would. And a job over {@code
 * reduce.max-share} while another runs takes no freed slot for its reduces even when nobody else
 * wants it ({@code LastPhaseCap}), and takes one again once it runs alone; its wait report says
 * why (while it still asks for a map, why the map waits; a map's container ends the wait); its AM
 * does not count, and an application that runs no maps is not capped. A priority change, an
 * arrival or a departure moves the cap at once, and a MapReduce job recovered after a restart, its maps ended
 * before it, is capped (an application of another type is not). A job of a higher priority gets a
 * freed slot for its map ahead of a lower one's reduces. The cap is not blamed where the reduce
 * does not fit anyway.
 */
class ReduceShareTest {
  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"fair", "bid"})
  void aJobOverItsShareLetsANewcomersAmAndMapGoFirst(String ordering) throws Exception {
    try (MiniMr c = cluster(ordering)) {
      MockAM big = fill(c);
      List<List<String>> splits = List.of(List.of("h3"));
      RMApp small = c.submit("bob", splits);
      List<Container> got = freeOneOn(c, big, "h3");
      assertEquals(0, got.size(), "the big job's reduce waited");
      assertEquals("h3", small.getCurrentAppAttempt().getMasterContainer().getNodeId().getHost(),
          "the newcomer's AM took the freed slot");
      // Its AM container is already allocated: launch and register it without another heartbeat.
      MockAM smallAm = c.rm.sendAMLaunched(small.getCurrentAppAttempt().getAppAttemptId());
      smallAm.registerAppAttempt();
      MrJob job = new MrJob(smallAm, splits, c.rackOf);
      job.heartbeat();
      awaitPlans(c, 2); // the big job's and the newcomer's
      got = freeOneOn(c, big, "h3");
      job.heartbeat();
      assertEquals(0, got.size(), "the big job's reduce waited again");
      assertEquals("h3", job.ranOn[0], "the newcomer's map ran on its data");
    }
  }

  @Test
  void underFifoTheEarlierJobsReducesTakeTheSlot() throws Exception {
    try (MiniMr c = cluster("fifo")) {
      MockAM big = fill(c);
      RMApp small = c.submit("bob", List.of(List.of("h3")));
      List<Container> got = freeOneOn(c, big, "h3");
      assertEquals(1, got.size(), "the earlier job's reduce took the freed slot");
      assertNull(small.getCurrentAppAttempt().getMasterContainer(), "the newcomer's AM waits");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"0.5", "1"})
  void aJobOverTheCapLeavesAFreedSlotEmptyWhileAnotherRunsAndTakesItAlone(String maxShare) throws Exception {
    boolean on = maxShare.equals("0.5");
    try (MiniMr c = cluster("fair", maxShare)) {
      MockAM big = fill(c);
      MockAM otherAm = newcomer(c, big);
      RMApp other = app(c, otherAm);
      assertEquals(on ? 0 : 1, freeOneOn(c, big, "h4").size(),
          on ? "15 of 16 GB while another runs: no reduce, the slot stays free" : "no cap: the reduce takes it");
      LocalityScheduler s = (LocalityScheduler) c.rm.getResourceScheduler();
      assertEquals(on, s.datalocMetrics().reducesCapped() > 0);
      ApplicationId bigId = big.getApplicationAttemptId().getApplicationId();
      WaitReport why = s.waitReports().of(bigId);
      if (!on) {
        assertTrue(why.latestRefusals().stream().noneMatch(e -> e.cause() == WaitLog.Cause.LAST_PHASE_CAPPED),
            why.summary());
        return;
      }
      // The wait report says why its reduces wait.
      assertEquals(WaitLog.Cause.LAST_PHASE_CAPPED, why.latestRefusals().get(0).cause(), why.summary());
      assertTrue(why.summary().contains("reduce.max-share"), why.summary());
      // A retried map, which the MapReduce AM asks for at priority 5, is never held back.
      big.allocate(List.of(ResourceRequest.newInstance(Priority.newInstance(5), ResourceRequest.ANY,
          Resource.newInstance(1024, 1), 1)), List.of());
      c.nodes.get("h4").nodeHeartbeat(true);
      c.rm.drainEvents();
      List<Container> retry = big.allocate(new ArrayList<>(), new ArrayList<>()).getAllocatedContainers();
      assertEquals(1, retry.size(), "the retried map takes the free slot");
      assertEquals(5, retry.get(0).getPriority().getPriority());
      reduces.addAll(retry);
      big.allocate(List.of(ResourceRequest.newInstance(Priority.newInstance(5), ResourceRequest.ANY,
          Resource.newInstance(1024, 1), 0)), List.of());
      Container done = retry.get(0);
      c.nodes.get("h4").nodeHeartbeat(List.of(ContainerStatus.newInstance(done.getId(), ContainerState.COMPLETE, "done", 0)),
          true);
      c.rm.drainEvents();
      reduces.remove(done);
      otherAm.unregisterAppAttempt(org.apache.hadoop.yarn.api.protocolrecords.FinishApplicationMasterRequest
          .newInstance(org.apache.hadoop.yarn.api.records.FinalApplicationStatus.SUCCEEDED, "", ""), false);
      c.nodes.get("h3").nodeHeartbeat(other.getCurrentAppAttempt().getAppAttemptId(), 1, ContainerState.COMPLETE);
      c.rm.waitForState(other.getApplicationId(), org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState.FINISHED);
      c.rm.drainEvents();
      Thread.sleep(10);
      assertTrue((Long) s.waitReports().of(bigId).asMap().get("waitingMs") > 0, "its reduces wait");
      c.nodes.get("h4").nodeHeartbeat(true);
      c.rm.drainEvents();
      List<Container> got = big.allocate(new ArrayList<>(), new ArrayList<>()).getAllocatedContainers();
      assertEquals(1, got.size(), "alone again, the job's reduces take the free slot");
      assertEquals(0L, s.waitReports().of(bigId).asMap().get("waitingMs"), "a reduce's container ends the wait");
    }
  }

  @Test
  void anApplicationThatRunsNoMapsIsNotCapped() throws Exception {
    try (MiniMr c = cluster("fair", "0.5")) {
      MockAM big = containers(c, false, 30, 15); // as Spark's executors: all of its work is "other"
      newcomer(c, big);
      assertEquals(1, freeOneOn(c, big, "h4").size(), "no map phase, no last phase: it takes the slot");
    }
  }

  /** Waits until {@code n} jobs are planned (plans are made on another thread). */
  private static void awaitPlans(MiniMr c, int n) throws InterruptedException {
    LocalityScheduler s = (LocalityScheduler) c.rm.getResourceScheduler();
    for (int i = 0; i < 400 && s.reports().jobs().stream().filter(j -> j.phase().equals("planned")).count() < n; i++) {
      Thread.sleep(25);
    }
    assertEquals(n, s.reports().jobs().stream().filter(j -> j.phase().equals("planned")).count(),
        "planned: " + s.reports().jobs());
  }

  /** The equal-share rule alone: {@code reduce.max-share} off. */
  private MiniMr cluster(String ordering) throws Exception {
    return cluster(ordering, "1");
  }

  private MiniMr cluster(String ordering, String maxShare) throws Exception {
    return start(ordering + "-" + maxShare, Map.of("yarn.scheduler.dataloc.job-ordering", ordering,
        "yarn.scheduler.dataloc.reduce.max-share", maxShare));
  }

  /** Four 4-GB nodes on two racks, AMs up to half the cluster, and {@code settings}. */
  private MiniMr start(String name, Map<String, String> settings) throws Exception {
    Map<String, String> all = new java.util.HashMap<>(settings);
    all.put("yarn.scheduler.dataloc.maximum-am-resource-percent", "0.5");
    return MiniMr.start(LocalityScheduler.class, all, Scenarios.twoRacks(4), 4096, dir.resolve(name));
  }

  private final List<Container> reduces = new ArrayList<>();
  /** The application type the big job is submitted with. */
  private String appType = "MAPREDUCE";

  /** A job past its one map asks for 30 reduces; the cluster's 16 GB hold its AM and 15 of them. */
  private MockAM fill(MiniMr c) throws Exception {
    return reduces(c, 30, 15);
  }

  /**
   * A job of one map, on h1, runs it (the cap is for the last phase of jobs with a map phase), then
   * asks for {@code asked} reduces and gets {@code got} of them.
   */
  private MockAM reduces(MiniMr c, int asked, int got) throws Exception {
    return containers(c, true, asked, got);
  }

  /** As {@link #reduces}; without {@code map}, an application that asks for no maps at all. */
  private MockAM containers(MiniMr c, boolean map, int asked, int got) throws Exception {
    List<List<String>> split = List.of(List.of("h1"));
    RMApp app = c.submitEdited("alice", map ? split : null, sub -> sub.setApplicationType(appType));
    MockAM am = MockRM.launchAndRegisterAM(app, c.rm, c.nodes.get("h2"));
    if (map) {
      assertTrue(Rounds.run(c, new MrJob(am, split, c.rackOf), 20) > 0, "its map ran");
    }
    am.allocate(List.of(ResourceRequest.newInstance(Priority.newInstance(MrJob.REDUCE_PRIORITY), ResourceRequest.ANY,
        Resource.newInstance(1024, 1), asked)), List.of());
    for (int round = 0; round < 10 && reduces.size() < got; round++) {
      for (MockNM nm : c.nodeList()) {
        nm.nodeHeartbeat(true);
        c.rm.drainEvents();
      }
      reduces.addAll(am.allocate(new ArrayList<>(), new ArrayList<>()).getAllocatedContainers());
    }
    assertEquals(got, reduces.size(), "the reduces run");
    return am;
  }

  @Test
  void theAmContainerDoesNotCountAgainstTheCap() throws Exception {
    try (MiniMr c = cluster("fair", "0.5")) {
      MockAM big = reduces(c, 8, 8); // its AM and 8 reduces: 9 of 16 GB, 8 of them its last phase
      RMApp other = c.submit("bob", null);
      c.nodes.get("h4").nodeHeartbeat(true);
      c.rm.drainEvents();
      c.rm.sendAMLaunched(other.getCurrentAppAttempt().getAppAttemptId()).registerAppAttempt();
      big.allocate(List.of(ResourceRequest.newInstance(Priority.newInstance(MrJob.REDUCE_PRIORITY), ResourceRequest.ANY,
          Resource.newInstance(1024, 1), 1)), List.of());
      for (MockNM nm : c.nodeList()) {
        nm.nodeHeartbeat(true);
        c.rm.drainEvents();
      }
      List<Container> ninth = big.allocate(new ArrayList<>(), new ArrayList<>()).getAllocatedContainers();
      assertEquals(1, ninth.size(), "8 GB of reduces is half the cluster, not more: one more reduce runs");
      reduces.addAll(ninth);
      big.allocate(List.of(ResourceRequest.newInstance(Priority.newInstance(MrJob.REDUCE_PRIORITY), ResourceRequest.ANY,
          Resource.newInstance(1024, 1), 1)), List.of());
      for (MockNM nm : c.nodeList()) {
        nm.nodeHeartbeat(true);
        c.rm.drainEvents();
      }
      assertEquals(0, big.allocate(new ArrayList<>(), new ArrayList<>()).getAllocatedContainers().size(),
          "9 GB of reduces is more than half: the next one waits");
    }
  }

  @Test
  void aPriorityChangeMovesTheCapAtOnce() throws Exception {
    try (MiniMr c = withPriorities("0.5", "priority")) {
      MockAM big = fill(c);
      RMApp other = app(c, newcomer(c, big));
      freezeClock(c);
      changePriority(c, big.getApplicationAttemptId().getApplicationId(), 5);
      assertEquals(1, freeOneOn(c, big, "h4").size(), "above the lowest priority running: not capped");
      changePriority(c, other.getApplicationId(), 10);
      assertEquals(0, freeOneOn(c, big, "h4").size(),
          "the other raised above it: now of the lowest priority, it is capped at once");
    }
  }

  /**
   * An application arriving or leaving moves the cap at once, even within a second and with their
   * number unchanged: the big job, alone at the lowest priority beside one above it, is capped; then
   * a job of a lower priority arrives (the big job is no longer of the lowest priority), or the
   * higher one leaves (the big job runs alone), or both, and the big job takes the next freed slot
   * for a reduce (ahead of a newcomer's AM: priority orders the walk).
   */
  @ParameterizedTest
  @ValueSource(strings = {"arrival", "departure", "both"})
  void anArrivalOrADepartureMovesTheCapAtOnce(String change) throws Exception {
    try (MiniMr c = withPriorities("0.5", change)) {
      MockAM big = fill(c);
      RMApp other = app(c, newcomer(c, big));
      freezeClock(c);
      changePriority(c, big.getApplicationAttemptId().getApplicationId(), 5);
      changePriority(c, other.getApplicationId(), 10);
      assertEquals(0, freeOneOn(c, big, "h4").size(), "of the lowest priority while another runs: capped");
      // No heartbeat meanwhile (a kill ends the other's AM without one): nothing counts again on the way.
      if (!change.equals("departure")) {
        c.submit("carol", null); // priority 0
      }
      if (!change.equals("arrival")) {
        c.rm.killApp(other.getApplicationId());
        c.rm.waitForState(other.getApplicationId(), org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState.KILLED);
      }
      c.rm.drainEvents();
      assertEquals(1, freeOneOn(c, big, "h1").size(), change + ": not capped now");
    }
  }

  @Test
  void aJobOfHigherPriorityGetsAFreedSlotForItsMapAheadOfALowerOnesReduces() throws Exception {
    try (MiniMr c = withPriorities("1", "higher")) {
      MockAM big = fill(c);
      List<List<String>> splits = List.of(List.of("h3"));
      RMApp small = c.submit("bob", splits);
      assertEquals(0, freeOneOn(c, big, "h3").size(), "the newcomer's AM took the freed slot");
      MockAM smallAm = c.rm.sendAMLaunched(small.getCurrentAppAttempt().getAppAttemptId());
      smallAm.registerAppAttempt();
      MrJob job = new MrJob(smallAm, splits, c.rackOf);
      job.heartbeat();
      awaitPlans(c, 2);
      // Raised above the big job, which is then alone at the lowest priority (its equal share
      // there the whole cluster): the newcomer's map still goes first.
      changePriority(c, small.getApplicationId(), 5);
      List<Container> got = freeOneOn(c, big, "h3");
      job.heartbeat();
      assertEquals(0, got.size(), "the lower priority's reduce waited");
      assertEquals("h3", job.ranOn[0], "the higher priority's map ran on its data");
    }
  }

  /**
   * While the capped job still asks for a map, its wait report says why the map waits, not that its
   * reduces are capped: a map strictly for h1 (full), a slot freed on h4, which the map cannot take
   * and the cap keeps from its reduces. The map, once it runs, ends the job's wait.
   */
  @Test
  void whileTheCappedJobAsksForAMapItsWaitReportDoesNotBlameTheCap() throws Exception {
    try (MiniMr c = cluster("fair", "0.5")) {
      MockAM big = fill(c);
      newcomer(c, big);
      Resource one = Resource.newInstance(1024, 1);
      Priority map = Priority.newInstance(MrJob.MAP_PRIORITY);
      ResourceRequest rack = ResourceRequest.newInstance(map, c.rackOf.get("h1"), one, 1);
      rack.setRelaxLocality(false);
      ResourceRequest any = ResourceRequest.newInstance(map, ResourceRequest.ANY, one, 1);
      any.setRelaxLocality(false);
      big.allocate(List.of(ResourceRequest.newInstance(map, "h1", one, 1), rack, any), List.of());
      LocalityScheduler s = (LocalityScheduler) c.rm.getResourceScheduler();
      long cappedBefore = s.datalocMetrics().reducesCapped();
      assertEquals(0, freeOneOn(c, big, "h4").size(), "the map may run only on h1; the cap holds the reduces");
      assertTrue(s.datalocMetrics().reducesCapped() > cappedBefore, "the cap passed h4 over");
      WaitReport why = s.waitReports().of(big.getApplicationAttemptId().getApplicationId());
      assertTrue(why.latestRefusals().stream().noneMatch(e -> e.cause() == WaitLog.Cause.LAST_PHASE_CAPPED
          && e.node().equals("h4")), why.summary()); // (h3's, before it asked for the map, stays)
      Thread.sleep(10);
      assertTrue((Long) why.asMap().get("waitingMs") > 0, "it waits");
      // The map, served from its asks (strict locality takes a job out of the engine), ends the wait.
      List<Container> got = freeOneOn(c, big, "h1");
      assertEquals(List.of(MrJob.MAP_PRIORITY), got.stream().map(x -> x.getPriority().getPriority()).toList());
      assertEquals(0L, s.waitReports().of(big.getApplicationAttemptId().getApplicationId()).asMap().get("waitingMs"),
          "a map's container ends the wait");
    }
  }

  /**
   * The cap is counted, and blamed in the wait report, only where it is what keeps a reduce off a
   * node: the capped job asks for reduces of 2 GB, and the slot freed on h4 is 1 GB.
   */
  @Test
  void whereTheReduceDoesNotFitTheCapIsNotBlamed() throws Exception {
    try (MiniMr c = cluster("fair", "0.5")) {
      MockAM big = fill(c);
      newcomer(c, big);
      big.allocate(List.of(ResourceRequest.newInstance(Priority.newInstance(MrJob.REDUCE_PRIORITY), ResourceRequest.ANY,
          Resource.newInstance(2048, 1), 5)), List.of());
      LocalityScheduler s = (LocalityScheduler) c.rm.getResourceScheduler();
      long cappedBefore = s.datalocMetrics().reducesCapped();
      assertEquals(0, freeOneOn(c, big, "h4").size(), "a 2-GB reduce does not fit 1 GB");
      assertEquals(cappedBefore, s.datalocMetrics().reducesCapped(), "the node refused it, not the cap");
      WaitReport why = s.waitReports().of(big.getApplicationAttemptId().getApplicationId());
      assertTrue(why.latestRefusals().stream().noneMatch(e -> e.cause() == WaitLog.Cause.LAST_PHASE_CAPPED
          && e.node().equals("h4")), why.summary());
    }
  }

  /** The cluster of {@link #start}, under the default ordering, with application priorities up to 10. */
  private MiniMr withPriorities(String maxShare, String name) throws Exception {
    return start(name, Map.of("yarn.scheduler.dataloc.reduce.max-share", maxShare,
        YarnConfiguration.MAX_CLUSTER_LEVEL_APPLICATION_PRIORITY, "10"));
  }

  private static void changePriority(MiniMr c, ApplicationId id, int priority) throws Exception {
    c.rm.getClientRMService().updateApplicationPriority(
        org.apache.hadoop.yarn.api.protocolrecords.UpdateApplicationPriorityRequest.newInstance(id,
            Priority.newInstance(priority)));
  }

  /**
   * After a work-preserving restart the new RM has seen no map of a job whose maps ended before it:
   * a MapReduce job is capped all the same; an application of another type is not, as one that never
   * ran a map (its maps cannot be known).
   */
  @ParameterizedTest
  @ValueSource(strings = {"MAPREDUCE", "TEZ"})
  void aRecoveredJobPastItsMapsIsCappedIfMapReduce(String type) throws Exception {
    boolean capped = type.equals("MAPREDUCE");
    MiniMr c = start("recovered-" + type, MiniMr.workPreserving(Map.of("yarn.scheduler.dataloc.reduce.max-share",
        "0.5")));
    try {
      appType = type;
      MockAM big = fill(c); // its map ended before the restart
      MockAM otherAm = newcomer(c, big);
      RMApp other = app(c, otherAm);
      // The NodeManagers report what runs: both AMs and the big job's reduces.
      Map<String, List<NMContainerStatus>> running = new java.util.HashMap<>();
      RMApp bigApp = c.rm.getRMContext().getRMApps().get(big.getApplicationAttemptId().getApplicationId());
      for (Container am : List.of(bigApp.getCurrentAppAttempt().getMasterContainer(),
          other.getCurrentAppAttempt().getMasterContainer())) {
        running.computeIfAbsent(am.getNodeId().getHost(), h -> new ArrayList<>()).add(status(am, 0));
      }
      for (Container r : reduces) {
        running.computeIfAbsent(r.getNodeId().getHost(), h -> new ArrayList<>()).add(status(r, MrJob.REDUCE_PRIORITY));
      }
      c = c.restart(running);
      big.setAMRMProtocol(c.rm.getApplicationMasterService(), c.rm.getRMContext());
      big.registerAppAttempt(true);
      otherAm.setAMRMProtocol(c.rm.getApplicationMasterService(), c.rm.getRMContext());
      otherAm.registerAppAttempt(true);
      // The AM re-sends its ask table: the reduces it still wants.
      big.allocate(List.of(ResourceRequest.newInstance(Priority.newInstance(MrJob.REDUCE_PRIORITY), ResourceRequest.ANY,
          Resource.newInstance(1024, 1), 30 - 1 - reduces.size())), List.of());
      assertEquals(capped ? 0 : 1, freeOneOn(c, big, "h4").size(),
          capped ? "15 of 16 GB while another runs: no reduce after the restart" : "not known to have run maps");
      assertEquals(capped, ((LocalityScheduler) c.rm.getResourceScheduler()).datalocMetrics().reducesCapped() > 0);
    } finally {
      c.close();
    }
  }

  private static NMContainerStatus status(Container c, int priority) {
    return NMContainerStatus.newInstance(c.getId(), 0, ContainerState.RUNNING, c.getResource(), "running", 0,
        Priority.newInstance(priority), 0, "", org.apache.hadoop.yarn.api.records.ExecutionType.GUARANTEED, -1);
  }

  /**
   * A newcomer that asks for nothing, its AM on the slot one of the big job's reduces frees on h3,
   * launched and registered.
   */
  private MockAM newcomer(MiniMr c, MockAM big) throws Exception {
    RMApp other = c.submit("bob", null);
    assertEquals(0, freeOneOn(c, big, "h3").size(), "the newcomer's AM took the freed slot");
    MockAM am = c.rm.sendAMLaunched(other.getCurrentAppAttempt().getAppAttemptId());
    am.registerAppAttempt();
    return am;
  }

  private static RMApp app(MiniMr c, MockAM am) {
    return c.rm.getRMContext().getRMApps().get(am.getApplicationAttemptId().getApplicationId());
  }

  /** Time stands still from here: the share rules count again only when told to, not for a second having passed. */
  private static void freezeClock(MiniMr c) {
    org.apache.hadoop.yarn.util.ControlledClock clock = new org.apache.hadoop.yarn.util.ControlledClock();
    clock.setTime(System.currentTimeMillis());
    ((LocalityScheduler) c.rm.getResourceScheduler()).setClock(clock);
  }

  /** One of the big job's reduces on {@code host} ends; returns the containers the big job got after. */
  private List<Container> freeOneOn(MiniMr c, MockAM big, String host) throws Exception {
    Container r = reduces.stream().filter(x -> x.getNodeId().getHost().equals(host)).findFirst().orElseThrow();
    reduces.remove(r);
    c.nodes.get(host).nodeHeartbeat(List.of(ContainerStatus.newInstance(r.getId(), ContainerState.COMPLETE, "done", 0)),
        true);
    c.rm.drainEvents();
    c.nodes.get(host).nodeHeartbeat(true);
    c.rm.drainEvents();
    List<Container> got = big.allocate(new ArrayList<>(), new ArrayList<>()).getAllocatedContainers();
    reduces.addAll(got);
    assertTrue(got.size() <= 1);
    return got;
  }
}
