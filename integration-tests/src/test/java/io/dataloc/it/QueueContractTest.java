package io.dataloc.it;

import io.dataloc.core.workload.Scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.yarn.LocalityScheduler;
import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.protocolrecords.GetQueueInfoRequest;
import org.apache.hadoop.yarn.api.protocolrecords.GetQueueInfoResponse;
import org.apache.hadoop.yarn.api.protocolrecords.GetQueueUserAclsInfoRequest;
import org.apache.hadoop.yarn.api.protocolrecords.MoveApplicationAcrossQueuesRequest;
import org.apache.hadoop.yarn.api.records.ApplicationTimeoutType;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerExitStatus;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.QueueACL;
import org.apache.hadoop.yarn.api.records.QueueUserACLInfo;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRM;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractYarnScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The queue and application calls of the scheduler contract, each under Dataloc and under the
 * CapacityScheduler (whose behaviour is the expected one): queue names, queue information and
 * ACLs as a client asks for them, moving an application, the RM killing a container, and
 * application lifetimes.
 */
class QueueContractTest {
  @TempDir Path dir;

  private MiniMr cluster(Class<? extends ResourceScheduler> scheduler, String name, Map<String, String> settings)
      throws Exception {
    return MiniMr.start(scheduler, settings, Scenarios.twoRacks(4), 8192,
        dir.resolve(name + "-" + scheduler.getSimpleName()));
  }

  private static <T> T as(String user, PrivilegedExceptionAction<T> action) throws Exception {
    return UserGroupInformation.createRemoteUser(user).doAs(action);
  }

  /** An application for a queue that does not exist is rejected, naming the queue (before: run in default). */
  @ParameterizedTest
  @ValueSource(classes = {LocalityScheduler.class, CapacityScheduler.class})
  void anUnknownQueueIsRefused(Class<? extends ResourceScheduler> scheduler) throws Exception {
    try (MiniMr c = cluster(scheduler, "unknown-queue", Map.of())) {
      RMApp app = c.submitOnly("alice", null, url -> url, sub -> sub.setQueue("prod"));
      c.rm.waitForState(app.getApplicationId(), RMAppState.FAILED);
      String why = app.getDiagnostics().toString();
      assertTrue(why.contains("unknown queue") && why.contains("prod"), why);
      RMApp ok = c.submitOnly("alice", null, url -> url, sub -> sub.setQueue("default"));
      c.rm.waitForState(ok.getApplicationId(), RMAppState.ACCEPTED);
    }
  }

  /** `yarn queue -status default` with its applications; an unknown queue gets no information. */
  @ParameterizedTest
  @ValueSource(classes = {LocalityScheduler.class, CapacityScheduler.class})
  void queueInformationListsTheApplications(Class<? extends ResourceScheduler> scheduler) throws Exception {
    try (MiniMr c = cluster(scheduler, "queue-info", Map.of())) {
      RMApp a = c.submit("alice", null);
      RMApp b = c.submit("bob", null);
      GetQueueInfoResponse r = as("alice", () -> c.rm.getClientRMService()
          .getQueueInfo(GetQueueInfoRequest.newInstance("default", true, false, false)));
      assertNotNull(r.getQueueInfo());
      assertEquals("default", r.getQueueInfo().getQueueName());
      assertEquals(java.util.Set.of(a.getApplicationId(), b.getApplicationId()), r.getQueueInfo().getApplications()
          .stream().map(x -> x.getApplicationId()).collect(java.util.stream.Collectors.toSet()));
      GetQueueInfoResponse none = as("alice", () -> c.rm.getClientRMService()
          .getQueueInfo(GetQueueInfoRequest.newInstance("nosuch", true, false, false)));
      assertNull(none.getQueueInfo(), "unknown queue (before: default's information, then a NullPointerException"
          + " when the client asked for its applications)");
      // The root, as `yarn queue -list` and YarnClient.getAllQueues ask for it (before: no
      // information, and a NullPointerException in the client).
      GetQueueInfoResponse root = as("alice", () -> c.rm.getClientRMService()
          .getQueueInfo(GetQueueInfoRequest.newInstance("root", false, true, false)));
      assertNotNull(root.getQueueInfo());
      assertEquals(List.of("default"), root.getQueueInfo().getChildQueues().stream().map(q -> q.getQueueName())
          .collect(java.util.stream.Collectors.toList()));
      assertEquals(2, c.rm.getResourceScheduler().getAppsInQueue("default").size());
      assertNull(c.rm.getResourceScheduler().getAppsInQueue("nosuch"));
    }
  }

  /** `yarn queue -showacls`: with ACLs off, every user may submit to and administer default. */
  @ParameterizedTest
  @ValueSource(classes = {LocalityScheduler.class, CapacityScheduler.class})
  void aUserSeesWhatTheQueueLetsHimDo(Class<? extends ResourceScheduler> scheduler) throws Exception {
    try (MiniMr c = cluster(scheduler, "acls", Map.of())) {
      List<QueueUserACLInfo> acls = as("alice", () -> c.rm.getClientRMService()
          .getQueueUserAcls(GetQueueUserAclsInfoRequest.newInstance()).getUserAclsInfoList());
      QueueUserACLInfo def = acls.stream().filter(x -> x.getQueueName().endsWith("default")).findFirst()
          .orElseThrow(() -> new AssertionError(acls.toString()));
      assertTrue(def.getUserAcls().containsAll(List.of(QueueACL.SUBMIT_APPLICATIONS, QueueACL.ADMINISTER_QUEUE)),
          def.getUserAcls().toString());
    }
  }

  /** Moving an application to another queue fails with a YarnException the client sees. */
  @ParameterizedTest
  @ValueSource(classes = {LocalityScheduler.class, CapacityScheduler.class})
  void movingAnApplicationIsRefused(Class<? extends ResourceScheduler> scheduler) throws Exception {
    try (MiniMr c = cluster(scheduler, "move", Map.of())) {
      RMApp a = c.submit("alice", null);
      MockRM.launchAndRegisterAM(a, c.rm, c.nodes.get("h1"));
      String queue = a.getQueue();
      Exception e = assertThrows(Exception.class, () -> as("alice", () -> c.rm.getClientRMService()
          .moveApplicationAcrossQueues(MoveApplicationAcrossQueuesRequest.newInstance(a.getApplicationId(), "prod"))));
      StringBuilder why = new StringBuilder();
      for (Throwable t = e; t != null; t = t.getCause()) {
        why.append(t).append(" / ");
      }
      assertTrue(why.toString().contains(scheduler == LocalityScheduler.class
          ? "does not support pre-validation of moving apps between queues" : "prod doesn't exist"), why.toString());
      assertEquals(queue, a.getQueue(), "still where it was");
    }
  }

  /**
   * The RM kills a running container (YARN calls this in tests, to simulate a lost container): the
   * AM hears of it on its next heartbeat (the CapacityScheduler says preempted, Dataloc killed by
   * the RM), and the node's room comes back once its NodeManager reports the container gone, as
   * YARN's nodes keep a launched container's room until then.
   */
  @ParameterizedTest
  @ValueSource(classes = {LocalityScheduler.class, CapacityScheduler.class})
  void aContainerKilledByTheRmIsReportedAndFreed(Class<? extends ResourceScheduler> scheduler) throws Exception {
    try (MiniMr c = cluster(scheduler, "kill", Map.of())) {
      MockAM am = MockRM.launchAndRegisterAM(c.submit("alice", null), c.rm, c.nodes.get("h1"));
      Container x = YarnContractTest.oneRunningContainer(c, am);
      AbstractYarnScheduler<?, ?> s = (AbstractYarnScheduler<?, ?>) c.rm.getResourceScheduler();
      long before = s.getNode(x.getNodeId()).getAllocatedResource().getMemorySize();
      s.killContainer(s.getRMContainer(x.getId()));
      c.rm.drainEvents();
      List<ContainerStatus> done = am.allocate(List.of(), List.of()).getCompletedContainersStatuses();
      assertEquals(1, done.size(), done.toString());
      assertEquals(x.getId(), done.get(0).getContainerId());
      assertEquals(scheduler == CapacityScheduler.class ? ContainerExitStatus.PREEMPTED
          : ContainerExitStatus.KILLED_BY_RESOURCEMANAGER, done.get(0).getExitStatus());
      assertNull(s.getRMContainer(x.getId()));
      c.nodes.get(x.getNodeId().getHost()).nodeHeartbeat(am.getApplicationAttemptId(), x.getId().getContainerId(),
          org.apache.hadoop.yarn.api.records.ContainerState.COMPLETE);
      c.rm.drainEvents();
      assertEquals(before - 1024, s.getNode(x.getNodeId()).getAllocatedResource().getMemorySize());
    }
  }

  /** An application with a lifetime of 2 s is killed by the RM once it has run that long. */
  @ParameterizedTest
  @ValueSource(classes = {LocalityScheduler.class, CapacityScheduler.class})
  void anApplicationLifetimeEndsTheApplication(Class<? extends ResourceScheduler> scheduler) throws Exception {
    try (MiniMr c = cluster(scheduler, "lifetime",
        Map.of(YarnConfiguration.RM_APPLICATION_MONITOR_INTERVAL_MS, "100"))) {
      RMApp a = c.submitEdited("alice", null, sub -> sub.setApplicationTimeouts(
          Map.of(ApplicationTimeoutType.LIFETIME, 2L)));
      MockRM.launchAndRegisterAM(a, c.rm, c.nodes.get("h1"));
      c.rm.waitForState(a.getApplicationId(), RMAppState.KILLED);
      assertTrue(a.getDiagnostics().toString().contains("lifetime"), a.getDiagnostics().toString());
      for (MockNM nm : c.nodeList()) {
        nm.nodeHeartbeat(true);
      }
      c.rm.drainEvents();
      assertEquals(0, c.rm.getResourceScheduler().getAppsInQueue("default").size(), "nothing left in the queue");
    }
  }

  /**
   * An operator switches from the CapacityScheduler to Dataloc with applications running in a
   * queue Dataloc does not have: work-preserving recovery keeps them, in Dataloc's queue, and when
   * one's AM fails its next attempt is scheduled. Before: the recovered application kept its old
   * queue, the new attempt asked for that queue's information, and the RM rejected the application.
   */
  @org.junit.jupiter.api.Test
  void anApplicationRecoveredFromAnotherSchedulersQueueRunsInOursAndItsNextAttemptIsScheduled() throws Exception {
    List<List<String>> splits = Scenarios.spread(4, 2, 2, 1);
    MiniMr c = MiniMr.start(CapacityScheduler.class, MiniMr.workPreserving(Map.of(
        "yarn.scheduler.capacity.root.queues", "default,sales",
        "yarn.scheduler.capacity.root.default.capacity", "50",
        "yarn.scheduler.capacity.root.sales.capacity", "50")), Scenarios.twoRacks(2), 8192, dir);
    try {
      RMApp app = c.submitEdited("alice", null, sub -> sub.setQueue("sales"));
      MrJob job = c.launch(app, "h1", splits);
      var am = app.getCurrentAppAttempt().getMasterContainer().getId();
      c = c.restart(job.runningContainers("h1"),
          conf -> conf.set(YarnConfiguration.RM_SCHEDULER, LocalityScheduler.class.getName()));
      LocalityScheduler s = (LocalityScheduler) c.rm.getResourceScheduler();
      RMApp recovered = c.rm.getRMContext().getRMApps().get(app.getApplicationId());
      assertNotNull(s.getRMContainer(am), "its AM container is recovered");
      var first = recovered.getCurrentAppAttempt();
      s.killContainer(s.getRMContainer(am));
      c.rm.drainEvents();
      c.rm.waitForState(first.getAppAttemptId(),
          org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptState.FAILED);
      c.rm.drainEvents();
      MrJob retried = c.launch(recovered, "h1", splits);
      assertEquals(2, recovered.getAppAttempts().size(), "a second attempt");
      assertEquals(RMAppState.RUNNING, recovered.getState(), recovered.getDiagnostics().toString());
      assertNotNull(retried);
      assertEquals("default", recovered.getQueue(), "the application now runs in Dataloc's queue");
    } finally {
      c.close();
    }
  }
}
