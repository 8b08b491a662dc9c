package io.dataloc.it;

import io.dataloc.core.workload.Scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.yarn.LocalityScheduler;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateResponse;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.ContainerUpdateType;
import org.apache.hadoop.yarn.api.records.ExecutionTypeRequest;
import org.apache.hadoop.yarn.api.records.NodeLabel;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.api.records.ResourceSizing;
import org.apache.hadoop.yarn.api.records.SchedulingRequest;
import org.apache.hadoop.yarn.api.records.UpdateContainerError;
import org.apache.hadoop.yarn.api.records.UpdateContainerRequest;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRM;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.Allocation;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ContainerUpdates;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Parts of the scheduler contract Dataloc refuses rather than ignores: each refusal reaches the
 * application in its allocate response (or as the RM's own exception), never silence.
 */
class YarnContractTest {
  @TempDir Path dir;

  private MiniMr cluster(String name) throws Exception {
    return MiniMr.start(LocalityScheduler.class, Map.of(), Scenarios.twoRacks(4), 8192, dir.resolve(name));
  }

  /** One running 1-GB container of a fresh application, and its AM. */
  static Container oneRunningContainer(MiniMr c, MockAM am) throws Exception {
    am.allocate(List.of(ResourceRequest.newInstance(Priority.newInstance(5), ResourceRequest.ANY,
        Resource.newInstance(1024, 1), 1)), List.of());
    for (int round = 0; round < 20; round++) {
      for (MockNM nm : c.nodeList()) {
        nm.nodeHeartbeat(true);
      }
      c.rm.drainEvents();
      List<Container> got = am.allocate(List.of(), List.of()).getAllocatedContainers();
      if (!got.isEmpty()) {
        Container container = got.get(0);
        MockNM nm = c.nodes.get(container.getNodeId().getHost());
        nm.nodeHeartbeat(am.getApplicationAttemptId(), container.getId().getContainerId(), ContainerState.RUNNING);
        c.rm.drainEvents();
        return container;
      }
    }
    throw new AssertionError("no container in 20 rounds");
  }

  static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> schedulersAndAskPriorities() {
    return java.util.stream.Stream.of(LocalityScheduler.class, CapacityScheduler.class).flatMap(s -> java.util.stream.Stream
        .of(5, MrJob.MAP_PRIORITY).map(p -> org.junit.jupiter.params.provider.Arguments.of(s, p)));
  }

  /**
   * Vcores: nodes of 8 GB and 2 vcores, asks for 40 containers of 1 GB and 2 vcores (the AM holds
   * 1 GB and 1 vcore of h1). Counting memory only (the default calculator of both schedulers),
   * 30 fit; counting vcores too (Dataloc's {@code resource-calculator dominant}, the
   * CapacityScheduler's DominantResourceCalculator), one per node but h1: 3. At the map priority
   * too, where the engine counts each node's slots in containers of the minimum allocation.
   */
  @ParameterizedTest(name = "{0}, asks at priority {1}")
  @org.junit.jupiter.params.provider.MethodSource("schedulersAndAskPriorities")
  void vcoresCountWithTheDominantResourceCalculator(Class<? extends ResourceScheduler> scheduler, int askPriority)
      throws Exception {
    for (boolean dominant : new boolean[] {false, true}) {
      Map<String, String> settings = !dominant ? Map.of()
          : scheduler == LocalityScheduler.class ? Map.of("yarn.scheduler.dataloc.resource-calculator", "dominant")
          : Map.of("yarn.scheduler.capacity.resource-calculator",
              "org.apache.hadoop.yarn.util.resource.DominantResourceCalculator");
      try (MiniMr c = MiniMr.start(scheduler, settings, Scenarios.twoRacks(4), 8192, 2,
          dir.resolve("vcores-" + scheduler.getSimpleName() + askPriority + dominant))) {
        MockAM am = MockRM.launchAndRegisterAM(c.submit("frank", null), c.rm, c.nodes.get("h1"));
        am.allocate(List.of(ResourceRequest.newInstance(Priority.newInstance(askPriority), ResourceRequest.ANY,
            Resource.newInstance(1024, 2), 40)), List.of());
        Map<String, Integer> got = new java.util.TreeMap<>();
        for (int round = 0; round < 10; round++) {
          for (MockNM nm : c.nodeList()) {
            nm.nodeHeartbeat(true);
            c.rm.drainEvents();
          }
          am.allocate(List.of(), List.of()).getAllocatedContainers()
              .forEach(x -> got.merge(x.getNodeId().getHost(), 1, Integer::sum));
        }
        assertEquals(dominant ? Map.of("h2", 1, "h3", 1, "h4", 1) : Map.of("h1", 7, "h2", 8, "h3", 8, "h4", 8), got,
            dominant ? "vcores counted" : "memory only");
      }
    }
  }

  /**
   * Two requests at one priority told apart by {@code allocationRequestId} (2 containers of 1 GB
   * as request 1, one of 2 GB as request 2): each container comes back tagged with the id of the
   * request it serves, and each request gets what it asked for — at the map priority too, where
   * Dataloc then serves the application from its asks (the engine knows one request per job).
   */
  @ParameterizedTest(name = "{0}, asks at priority {1}")
  @org.junit.jupiter.params.provider.MethodSource("schedulersAndAskPriorities")
  void containersCarryTheAllocationRequestIdTheyServe(Class<? extends ResourceScheduler> scheduler, int askPriority)
      throws Exception {
    try (MiniMr c = MiniMr.start(scheduler, Map.of(), Scenarios.twoRacks(4), 8192,
        dir.resolve("request-ids-" + scheduler.getSimpleName() + askPriority))) {
      MockAM am = MockRM.launchAndRegisterAM(c.submit("erin", null), c.rm, c.nodes.get("h1"));
      Priority p = Priority.newInstance(askPriority);
      ResourceRequest one = ResourceRequest.newInstance(p, ResourceRequest.ANY, Resource.newInstance(1024, 1), 2);
      one.setAllocationRequestId(1);
      ResourceRequest two = ResourceRequest.newInstance(p, ResourceRequest.ANY, Resource.newInstance(2048, 1), 1);
      two.setAllocationRequestId(2);
      am.allocate(List.of(one, two), List.of());
      Map<Long, List<Long>> mbById = new java.util.TreeMap<>();
      for (int round = 0; round < 10; round++) {
        for (MockNM nm : c.nodeList()) {
          nm.nodeHeartbeat(true);
          c.rm.drainEvents();
        }
        for (Container x : am.allocate(List.of(), List.of()).getAllocatedContainers()) {
          mbById.computeIfAbsent(x.getAllocationRequestId(), k -> new java.util.ArrayList<>())
              .add(x.getResource().getMemorySize());
        }
      }
      assertEquals(Map.of(1L, List.of(1024L, 1024L), 2L, List.of(2048L)), mbById);
    }
  }

  /**
   * An AM asks to grow a running container and to demote it: both come back in the same allocate
   * response as update errors that say why and what to do (before: accepted and dropped, and the
   * AM waited for an update that never came).
   */
  @Test
  void containerUpdatesAreRefusedWithAnErrorTheAmSees() throws Exception {
    try (MiniMr c = cluster("updates")) {
      RMApp app = c.submit("alice", null);
      MockAM am = MockRM.launchAndRegisterAM(app, c.rm, c.nodes.get("h1"));
      Container container = oneRunningContainer(c, am);
      AllocateResponse r = am.sendContainerUpdateRequest(List.of(UpdateContainerRequest.newInstance(
          container.getVersion(), container.getId(), ContainerUpdateType.INCREASE_RESOURCE,
          Resource.newInstance(2048, 1), null)));
      List<UpdateContainerError> errors = r.getUpdateErrors();
      assertEquals(1, errors.size(), "one error for the one update: " + errors);
      assertTrue(errors.get(0).getReason().contains("does not support container updates"), errors.get(0).getReason());
      assertEquals(container.getId(), errors.get(0).getUpdateContainerRequest().getContainerId());
      assertTrue(r.getUpdatedContainers().isEmpty(), "nothing was updated");
      // A decrease and a demotion (a promotion of a guaranteed container the RM itself refuses).
      for (ContainerUpdateType type : List.of(ContainerUpdateType.DECREASE_RESOURCE,
          ContainerUpdateType.DEMOTE_EXECUTION_TYPE)) {
        AllocateResponse again = am.sendContainerUpdateRequest(List.of(UpdateContainerRequest.newInstance(
            container.getVersion(), container.getId(), type,
            type == ContainerUpdateType.DECREASE_RESOURCE ? Resource.newInstance(512, 1) : null,
            type == ContainerUpdateType.DEMOTE_EXECUTION_TYPE
                ? org.apache.hadoop.yarn.api.records.ExecutionType.OPPORTUNISTIC : null)));
        assertEquals(1, again.getUpdateErrors().size(), type + ": " + again.getUpdateErrors());
        assertTrue(again.getUpdateErrors().get(0).getReason().contains("does not support container updates"),
            type + ": " + again.getUpdateErrors().get(0).getReason());
        assertTrue(again.getUpdatedContainers().isEmpty(), type + ": nothing was updated");
      }
      assertEquals(0, ((LocalityScheduler) c.rm.getResourceScheduler()).datalocMetrics().errors());
    }
  }

  /**
   * An administrator puts h4 in an exclusive node-label partition. Asks that name no label (here
   * at the map priority, half of them asking for h4 by name) never get a container there, as under
   * the CapacityScheduler; the other three hosts fill up (h1 also holds the AM). The nodes
   * heartbeat once a second, as by default: the tasks that name h4 wait a few seconds for h3, in
   * h4's rack, before the other rack takes them (break-even).
   */
  @ParameterizedTest
  @ValueSource(classes = {LocalityScheduler.class, CapacityScheduler.class})
  void aNodeInALabelledPartitionGetsNoUnlabelledWork(Class<? extends ResourceScheduler> scheduler) throws Exception {
    try (MiniMr c = MiniMr.start(scheduler, Map.of(YarnConfiguration.NODE_LABELS_ENABLED, "true"),
        Scenarios.twoRacks(4), 8192, dir.resolve("labels-" + scheduler.getSimpleName()))) {
      label(c, "h4", "gpu");
      org.apache.hadoop.yarn.util.ControlledClock clock = new org.apache.hadoop.yarn.util.ControlledClock();
      clock.setTime(System.currentTimeMillis());
      ((org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractYarnScheduler<?, ?>) c.rm
          .getResourceScheduler()).setClock(clock);
      MockAM am = MockRM.launchAndRegisterAM(c.submit("carol", null), c.rm, c.nodes.get("h1"));
      Priority map = Priority.newInstance(MrJob.MAP_PRIORITY);
      Resource gb = Resource.newInstance(1024, 1);
      am.allocate(List.of(ResourceRequest.newInstance(map, "h4", gb, 16), ResourceRequest.newInstance(map, "/r2", gb, 16),
          ResourceRequest.newInstance(map, ResourceRequest.ANY, gb, 32)), List.of());
      Map<String, Integer> got = new java.util.TreeMap<>();
      for (int round = 0; round < 20; round++) {
        clock.tickSec(1);
        for (MockNM nm : c.nodeList()) {
          nm.nodeHeartbeat(true);
        }
        c.rm.drainEvents();
        am.allocate(List.of(), List.of()).getAllocatedContainers()
            .forEach(x -> got.merge(x.getNodeId().getHost(), 1, Integer::sum));
      }
      assertEquals(Map.of("h1", 7, "h2", 8, "h3", 8), got, "nothing on h4; the rest full");
      if (c.rm.getResourceScheduler() instanceof LocalityScheduler) {
        assertEquals(0, am.allocate(List.of(), List.of()).getAvailableResources().getMemorySize(),
            "the headroom leaves out the labelled partition's room (before: h4's 8 GB)");
      }
    }
  }

  /**
   * Dataloc's queue may use no node label, so the RM refuses an ask naming one, with an exception
   * the AM sees that names the label (the CapacityScheduler would serve it in the label's
   * partition).
   */
  @Test
  void asksNamingANodeLabelAreRefused() throws Exception {
    try (MiniMr c = MiniMr.start(LocalityScheduler.class, Map.of(YarnConfiguration.NODE_LABELS_ENABLED, "true"),
        Scenarios.twoRacks(4), 8192, dir.resolve("label-asks"))) {
      label(c, "h4", "gpu");
      MockAM am = MockRM.launchAndRegisterAM(c.submit("dave", null), c.rm, c.nodes.get("h1"));
      ResourceRequest ask = ResourceRequest.newInstance(Priority.newInstance(5), ResourceRequest.ANY,
          Resource.newInstance(1024, 1), 1);
      ask.setNodeLabelExpression("gpu");
      Exception e = assertThrows(Exception.class, () -> am.allocate(List.of(ask), List.of()));
      assertTrue(String.valueOf(e.getMessage()).contains("gpu"), e.toString());
    }
  }

  /**
   * An ask for opportunistic containers (enforced) with the RM's opportunistic allocation off, as
   * shipped: the scheduler is handed it and allocates guaranteed containers — the CapacityScheduler
   * does the same, so Dataloc matches it.
   */
  @ParameterizedTest
  @ValueSource(classes = {LocalityScheduler.class, CapacityScheduler.class})
  void anOpportunisticAskIsServedAsTheStockSchedulersServeIt(Class<? extends ResourceScheduler> scheduler)
      throws Exception {
    try (MiniMr c = MiniMr.start(scheduler, Map.of(), Scenarios.twoRacks(4), 8192,
        dir.resolve("execution-" + scheduler.getSimpleName()))) {
      MockAM am = MockRM.launchAndRegisterAM(c.submit("erin", null), c.rm, c.nodes.get("h1"));
      ResourceRequest ask = ResourceRequest.newInstance(Priority.newInstance(5), ResourceRequest.ANY,
          Resource.newInstance(1024, 1), 2);
      ask.setExecutionTypeRequest(ExecutionTypeRequest.newInstance(
          org.apache.hadoop.yarn.api.records.ExecutionType.OPPORTUNISTIC, true));
      am.allocate(List.of(ask), List.of());
      List<Container> got = new java.util.ArrayList<>();
      for (int round = 0; round < 10; round++) {
        for (MockNM nm : c.nodeList()) {
          nm.nodeHeartbeat(true);
        }
        c.rm.drainEvents();
        got.addAll(am.allocate(List.of(), List.of()).getAllocatedContainers());
      }
      assertEquals(2, got.size());
      for (Container x : got) {
        assertEquals(org.apache.hadoop.yarn.api.records.ExecutionType.GUARANTEED, x.getExecutionType());
      }
    }
  }

  /**
   * With the RM's opportunistic allocation on, the RM's own allocator serves opportunistic asks
   * (from the nodes' queue lengths, without the scheduler), guaranteed asks of the same AM are
   * the scheduler's, and opportunistic containers that end are released by YARN's common code:
   * the scheduler's memory count is untouched by them, under Dataloc as under the CapacityScheduler.
   */
  @ParameterizedTest
  @ValueSource(classes = {LocalityScheduler.class, CapacityScheduler.class})
  void withOpportunisticAllocationOnTheRmServesOpportunisticAsks(Class<? extends ResourceScheduler> scheduler)
      throws Exception {
    Map<String, String> settings = Map.of(YarnConfiguration.OPPORTUNISTIC_CONTAINER_ALLOCATION_ENABLED, "true",
        YarnConfiguration.NM_OPPORTUNISTIC_CONTAINERS_MAX_QUEUE_LENGTH, "10",
        YarnConfiguration.NM_CONTAINER_QUEUING_SORTING_NODES_INTERVAL_MS, "100");
    try (MiniMr c = MiniMr.start(scheduler, settings, Scenarios.twoRacks(4), 8192,
        dir.resolve("opportunistic-on-" + scheduler.getSimpleName()))) {
      MockAM am = MockRM.launchAndRegisterAM(c.submit("erin", null), c.rm, c.nodes.get("h1"));
      // The nodes tell the RM's opportunistic allocator how long their queues are (a real NodeManager
      // does so on every heartbeat); it sorts them every 100 ms.
      var queues = org.apache.hadoop.yarn.server.api.records.OpportunisticContainersStatus.newInstance();
      queues.setOpportQueueCapacity(10);
      queues.setWaitQueueLength(0);
      queues.setEstimatedQueueWaitTime(0);
      for (MockNM nm : c.nodeList()) {
        nm.nodeHeartbeat(queues, true);
      }
      c.rm.drainEvents();
      ResourceRequest opp = ResourceRequest.newInstance(Priority.newInstance(5), ResourceRequest.ANY,
          Resource.newInstance(1024, 1), 2);
      opp.setExecutionTypeRequest(ExecutionTypeRequest.newInstance(
          org.apache.hadoop.yarn.api.records.ExecutionType.OPPORTUNISTIC, true));
      ResourceRequest guaranteed = ResourceRequest.newInstance(Priority.newInstance(6), ResourceRequest.ANY,
          Resource.newInstance(1024, 1), 3);
      List<Container> got = new java.util.ArrayList<>(am.allocate(List.of(opp, guaranteed), List.of())
          .getAllocatedContainers());
      // Until all five came (the allocator serves opportunistic asks once it has sorted the nodes).
      for (int round = 0; round < 100 && got.size() < 5; round++) {
        for (MockNM nm : c.nodeList()) {
          nm.nodeHeartbeat(queues, true);
        }
        c.rm.drainEvents();
        got.addAll(am.allocate(List.of(), List.of()).getAllocatedContainers());
        Thread.sleep(50);
      }
      Map<org.apache.hadoop.yarn.api.records.ExecutionType, Long> byType = got.stream().collect(
          java.util.stream.Collectors.groupingBy(Container::getExecutionType, java.util.stream.Collectors.counting()));
      assertEquals(Map.of(org.apache.hadoop.yarn.api.records.ExecutionType.OPPORTUNISTIC, 2L,
          org.apache.hadoop.yarn.api.records.ExecutionType.GUARANTEED, 3L), byType);
      ResourceScheduler s = c.rm.getResourceScheduler();
      long usedBefore = s.getRootQueueMetrics().getAllocatedMB();
      // The opportunistic containers run and end on their nodes.
      for (Container x : got) {
        if (x.getExecutionType() == org.apache.hadoop.yarn.api.records.ExecutionType.OPPORTUNISTIC) {
          MockNM nm = c.nodes.get(x.getNodeId().getHost());
          nm.nodeHeartbeat(am.getApplicationAttemptId(), x.getId().getContainerId(), ContainerState.RUNNING);
          nm.nodeHeartbeat(am.getApplicationAttemptId(), x.getId().getContainerId(), ContainerState.COMPLETE);
        }
      }
      c.rm.drainEvents();
      assertEquals(usedBefore, s.getRootQueueMetrics().getAllocatedMB(), "opportunistic containers never counted");
      if (s instanceof LocalityScheduler l) {
        assertEquals(0, l.datalocMetrics().errors());
      }
    }
  }

  /**
   * The attempt's locality table (the RM's application page: total allocated containers, and
   * node-local/rack-local/off-switch against what was asked) counts every container, the AM's
   * included, as under the CapacityScheduler (before: Dataloc's allocations left it at zero).
   */
  @ParameterizedTest
  @ValueSource(classes = {LocalityScheduler.class, CapacityScheduler.class})
  void theAttemptsLocalityTableCountsEveryContainer(Class<? extends ResourceScheduler> scheduler) throws Exception {
    try (MiniMr c = MiniMr.start(scheduler, Map.of(), Scenarios.twoRacks(4), 8192,
        dir.resolve("locality-table-" + scheduler.getSimpleName()))) {
      RMApp app = c.submit("gina", null);
      MockAM am = MockRM.launchAndRegisterAM(app, c.rm, c.nodes.get("h1"));
      Priority p = Priority.newInstance(5);
      Resource gb = Resource.newInstance(1024, 1);
      am.allocate(List.of(ResourceRequest.newInstance(p, "h2", gb, 4), ResourceRequest.newInstance(p, "/r1", gb, 4),
          ResourceRequest.newInstance(p, ResourceRequest.ANY, gb, 4)), List.of());
      int got = 0;
      for (int round = 0; round < 60 && got < 4; round++) {
        for (MockNM nm : c.nodeList()) {
          nm.nodeHeartbeat(true);
          c.rm.drainEvents();
        }
        got += am.allocate(List.of(), List.of()).getAllocatedContainers().size();
      }
      assertEquals(4, got);
      var metrics = app.getCurrentAppAttempt().getRMAppAttemptMetrics();
      assertEquals(5, metrics.getTotalAllocatedContainers(), "the AM and four");
      int counted = 0;
      for (int[] row : metrics.getLocalityStatistics()) {
        for (int n : row) {
          counted += n;
        }
      }
      assertEquals(5, counted, "each container once in the locality table");
    }
  }

  private static void label(MiniMr c, String host, String label) throws Exception {
    var labels = c.rm.getRMContext().getNodeLabelManager();
    labels.addToCluserNodeLabels(Set.of(NodeLabel.newInstance(label, true)));
    labels.replaceLabelsOnNode(Map.of(c.nodes.get(host).getNodeId(), Set.of(label)));
    c.rm.drainEvents();
    assertEquals(label, c.rm.getResourceScheduler().getSchedulerNode(c.nodes.get(host).getNodeId()).getPartition(),
        "the scheduler's node is in the partition");
  }

  /**
   * SchedulingRequests: with the RM's default placement handler the RM itself refuses them with an
   * exception the AM sees; one that reaches the scheduler (a handler that passes it on) comes back
   * rejected.
   */
  @Test
  void schedulingRequestsAreRefused() throws Exception {
    try (MiniMr c = cluster("scheduling-requests")) {
      RMApp app = c.submit("bob", null);
      MockAM am = MockRM.launchAndRegisterAM(app, c.rm, c.nodes.get("h1"));
      SchedulingRequest request = SchedulingRequest.newBuilder().allocationRequestId(7)
          .priority(Priority.newInstance(1)).executionType(ExecutionTypeRequest.newInstance())
          .allocationTags(Set.of("web")).resourceSizing(ResourceSizing.newInstance(2, Resource.newInstance(1024, 1)))
          .build();
      Exception e = assertThrows(Exception.class, () -> am.allocate(List.of(), List.of(request), List.of()));
      assertTrue(String.valueOf(e.getMessage()).contains("SchedulingRequest"), e.toString());
      LocalityScheduler s = (LocalityScheduler) c.rm.getResourceScheduler();
      Allocation direct = s.allocate(am.getApplicationAttemptId(), List.of(), List.of(request), List.of(), null, null,
          new ContainerUpdates());
      assertEquals(1, direct.getRejectedRequest().size());
      assertEquals(request, direct.getRejectedRequest().get(0).getRequest());
      assertTrue(direct.getContainers().isEmpty());
    }
  }
}
