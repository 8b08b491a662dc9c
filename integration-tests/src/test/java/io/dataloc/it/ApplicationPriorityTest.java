package io.dataloc.it;

import io.dataloc.core.workload.Scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dataloc.yarn.LocalityScheduler;
import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.protocolrecords.UpdateApplicationPriorityRequest;
import org.apache.hadoop.yarn.api.protocolrecords.UpdateApplicationPriorityResponse;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRM;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Application priority, under Dataloc and the CapacityScheduler: set at submission (capped at
 * {@code yarn.cluster.max-application-priority}) and changed while the application runs, it
 * decides who is served first — for AM-side work the engine does not manage and for maps alike.
 * Two applications each ask for more 1-GB containers than the four 8-GB hosts hold; whoever ranks
 * first takes all the room.
 */
class ApplicationPriorityTest {
  @TempDir Path dir;

  static List<Arguments> cases() {
    List<Arguments> out = new java.util.ArrayList<>();
    for (Class<?> s : List.of(LocalityScheduler.class, CapacityScheduler.class)) {
      for (int askPriority : new int[] {5, MrJob.MAP_PRIORITY}) {
        out.add(Arguments.of(s, askPriority));
      }
    }
    return out;
  }

  private MiniMr cluster(Class<?> scheduler, int maxPriority, String name) throws Exception {
    return cluster(scheduler, maxPriority, name, "fair");
  }

  /** As above, Dataloc's jobs ordered by {@code ordering} (the default is fair). */
  private MiniMr cluster(Class<?> scheduler, int maxPriority, String name, String ordering) throws Exception {
    @SuppressWarnings("unchecked")
    Class<? extends ResourceScheduler> s = (Class<? extends ResourceScheduler>) scheduler;
    return MiniMr.start(s, Map.of(YarnConfiguration.MAX_CLUSTER_LEVEL_APPLICATION_PRIORITY, String.valueOf(maxPriority),
        "yarn.scheduler.dataloc.job-ordering", ordering),
        Scenarios.twoRacks(4), 8192, dir.resolve(name + "-" + scheduler.getSimpleName()));
  }

  /** An application of {@code priority} (null: none asked), and its AM, registered, on {@code host}. */
  private record App(RMApp app, MockAM am) {}

  private static App submit(MiniMr c, String user, Integer priority, String host) throws Exception {
    RMApp app = c.submitEdited(user, null, sub -> sub.setPriority(priority == null ? null
        : Priority.newInstance(priority)));
    return new App(app, MockRM.launchAndRegisterAM(app, c.rm, c.nodes.get(host)));
  }

  /** Both AMs ask for 40 containers at {@code askPriority}; then nodes heartbeat. Containers each got. */
  private static int[] race(MiniMr c, MockAM first, MockAM second, int askPriority) throws Exception {
    for (MockAM am : List.of(first, second)) {
      am.allocate(List.of(ResourceRequest.newInstance(Priority.newInstance(askPriority), ResourceRequest.ANY,
          Resource.newInstance(1024, 1), 40)), List.of());
    }
    int[] got = new int[2];
    for (int round = 0; round < 10; round++) {
      for (MockNM nm : c.nodeList()) {
        nm.nodeHeartbeat(true);
        c.rm.drainEvents();
      }
      got[0] += first.allocate(List.of(), List.of()).getAllocatedContainers().size();
      got[1] += second.allocate(List.of(), List.of()).getAllocatedContainers().size();
    }
    return got;
  }

  /** Two AMs of 1 GB hold two of the 32 GB: 30 containers for the application served first. */
  private static final int ROOM = 30;

  @ParameterizedTest(name = "{0}, asks at priority {1}")
  @MethodSource("cases")
  void theApplicationOfHigherPriorityIsServedFirst(Class<?> scheduler, int askPriority) throws Exception {
    try (MiniMr c = cluster(scheduler, 10, "submitted")) {
      App low = submit(c, "alice", null, "h1");
      App high = submit(c, "bob", 50, "h2");
      assertEquals(Priority.newInstance(0), low.app().getApplicationPriority(), "none asked: 0");
      assertEquals(Priority.newInstance(10), high.app().getApplicationPriority(), "50 capped at the cluster's maximum");
      int[] got = race(c, low.am(), high.am(), askPriority);
      assertEquals(0, got[0], "the earlier application of lower priority waits");
      assertEquals(ROOM, got[1], "the later one of higher priority takes the room");
    }
  }

  @ParameterizedTest(name = "{0}, asks at priority {1}")
  @MethodSource("cases")
  void aPriorityRaisedWhileRunningTakesEffect(Class<?> scheduler, int askPriority) throws Exception {
    try (MiniMr c = cluster(scheduler, 10, "updated")) {
      App first = submit(c, "alice", 2, "h1");
      App second = submit(c, "bob", 5, "h2");
      // The owner raises the first application above the second before any container is handed out.
      UpdateApplicationPriorityResponse r = UserGroupInformation.createRemoteUser("alice").doAs(
          (PrivilegedExceptionAction<UpdateApplicationPriorityResponse>) () -> c.rm.getClientRMService()
              .updateApplicationPriority(UpdateApplicationPriorityRequest.newInstance(
                  first.app().getApplicationId(), Priority.newInstance(7))));
      assertEquals(Priority.newInstance(7), r.getApplicationPriority());
      assertEquals(Priority.newInstance(7), first.app().getApplicationPriority());
      int[] got = race(c, first.am(), second.am(), askPriority);
      assertEquals(ROOM, got[0], "priority 7 now ranks above 5");
      assertEquals(0, got[1]);
    }
  }

  /**
   * By default the cluster's maximum is 0: every application has priority 0 and arrival decides
   * (under Dataloc with {@code job-ordering=fifo}; with the default, {@code fair}, arrival decides
   * up to an equal share: {@link #atEqualPriorityTheFirstKeepsPrecedenceUpToAnEqualShare}).
   */
  @ParameterizedTest(name = "{0}, asks at priority {1}")
  @MethodSource("cases")
  void byDefaultEveryApplicationHasPriorityZero(Class<?> scheduler, int askPriority) throws Exception {
    try (MiniMr c = cluster(scheduler, 0, "default", "fifo")) {
      App first = submit(c, "alice", null, "h1");
      App second = submit(c, "bob", 9, "h2");
      assertEquals(Priority.newInstance(0), second.app().getApplicationPriority());
      int[] got = race(c, first.am(), second.am(), askPriority);
      assertEquals(ROOM, got[0] + got[1], "the room is used");
      if (askPriority != MrJob.MAP_PRIORITY || scheduler == CapacityScheduler.class) {
        assertEquals(ROOM, got[0], "first come, first served");
      }
    }
  }

  /**
   * Under Dataloc's default {@code job-ordering=fair}, of two applications of one priority asking
   * for more than the cluster holds (requests the engine does not serve, such as reduces), the
   * first is served first until it holds more than an equal share of the 32 GB (its AM and 16
   * containers: 17 GB, the share checked before each container), then the second takes the rest.
   */
  @org.junit.jupiter.api.Test
  void atEqualPriorityTheFirstKeepsPrecedenceUpToAnEqualShare() throws Exception {
    try (MiniMr c = cluster(LocalityScheduler.class, 0, "share")) {
      App first = submit(c, "alice", null, "h1");
      App second = submit(c, "bob", null, "h2");
      int[] got = race(c, first.am(), second.am(), 5);
      assertEquals(16, got[0], "the first, to one container past its share");
      assertEquals(ROOM - 16, got[1], "the second, the rest");
    }
  }

  /**
   * A negative priority is raised to 0, the lowest, at submission and on a change: it cannot jump
   * the queue. Before, {@code Integer.MIN_VALUE} was kept and the walk over AMs, reduces and other
   * requests ordered by its negation, which overflows: the application of the lowest priority
   * was served first.
   */
  @org.junit.jupiter.api.Test
  void aNegativePriorityIsRaisedToZeroAndJumpsNoQueue() throws Exception {
    try (MiniMr c = cluster(LocalityScheduler.class, 10, "negative", "fifo")) {
      App first = submit(c, "alice", 0, "h1");
      App second = submit(c, "bob", Integer.MIN_VALUE, "h2");
      assertEquals(Priority.newInstance(0), second.app().getApplicationPriority(), "raised to the lowest");
      change(c, "bob", second.app(), -5);
      assertEquals(Priority.newInstance(0), second.app().getApplicationPriority(), "a change likewise");
      int[] got = race(c, first.am(), second.am(), 5); // requests the engine does not serve: the walk's order
      assertEquals(ROOM, got[0], "first come, first served at equal priority");
      assertEquals(0, got[1]);
    }
  }

  /**
   * Priority changes from many clients at once (the RM serialises them per request object only,
   * so two clients' changes of one application do meet in the scheduler): after each burst, what
   * the state store saves (the submission context it writes) and what the scheduler serves by are
   * the same priority. Before: the store write and the scheduler's update were two steps, and a
   * burst could end with the store holding one client's priority and the scheduler another's.
   */
  @org.junit.jupiter.api.Test
  void concurrentPriorityChangesLeaveTheStateStoreAndTheSchedulerAgreeing() throws Exception {
    try (MiniMr c = MiniMr.start(LocalityScheduler.class, MiniMr.workPreserving(Map.of(
        YarnConfiguration.MAX_CLUSTER_LEVEL_APPLICATION_PRIORITY, "100000")), Scenarios.twoRacks(2), 8192,
        dir.resolve("concurrent"))) {
      App app = submit(c, "alice", 0, "h1");
      LocalityScheduler s = (LocalityScheduler) c.rm.getResourceScheduler();
      var id = app.app().getApplicationId();
      UserGroupInformation alice = UserGroupInformation.createRemoteUser("alice");
      java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
      try {
        int disagreements = 0;
        for (int burst = 0; burst < 300; burst++) {
          java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
          List<java.util.concurrent.Future<?>> changes = new java.util.ArrayList<>();
          for (int t = 0; t < 4; t++) {
            int p = burst * 4 + t + 1;
            changes.add(pool.submit(() -> {
              go.await();
              return s.updateApplicationPriority(Priority.newInstance(p), id,
                  org.apache.hadoop.thirdparty.com.google.common.util.concurrent.SettableFuture.create(), alice);
            }));
          }
          go.countDown();
          for (var f : changes) {
            f.get();
          }
          Priority saved = app.app().getApplicationSubmissionContext().getPriority();
          Priority served = s.getSchedulerApplications().get(id).getPriority();
          if (!saved.equals(served)) {
            disagreements++;
          }
        }
        assertEquals(0, disagreements, "bursts after which the store and the scheduler disagreed");
      } finally {
        pool.shutdownNow();
      }
    }
  }

  /**
   * Per-user priority ACLs (Dataloc's {@code acl.application-max-priority}, the CapacityScheduler's
   * {@code acl_application_max_priority} of its default queue, in the same syntax) with
   * {@code yarn.acl.enable}: an application asking no priority gets its user's default, one asking
   * above its user's maximum is refused at submission, and so is a change above it. Before: Dataloc
   * had no such key, and every user could take the cluster's maximum.
   */
  @ParameterizedTest(name = "{0}")
  @org.junit.jupiter.params.provider.ValueSource(classes = {LocalityScheduler.class, CapacityScheduler.class})
  void priorityAclsGiveEachUserADefaultAndAMaximum(Class<?> scheduler) throws Exception {
    String acl = "[user=alice max_priority=3 default_priority=1] [user=bob max_priority=8 default_priority=0]";
    @SuppressWarnings("unchecked")
    Class<? extends ResourceScheduler> type = (Class<? extends ResourceScheduler>) scheduler;
    try (MiniMr c = MiniMr.start(type, Map.of(YarnConfiguration.MAX_CLUSTER_LEVEL_APPLICATION_PRIORITY, "10",
        YarnConfiguration.YARN_ACL_ENABLE, "true", "yarn.scheduler.dataloc.acl.application-max-priority", acl,
        "yarn.scheduler.capacity.root.default.acl_application_max_priority", acl), Scenarios.twoRacks(4), 8192,
        dir.resolve("acl-" + scheduler.getSimpleName()))) {
      RMApp none = c.submitEdited("alice", null, sub -> sub.setPriority(null));
      assertEquals(Priority.newInstance(1), none.getApplicationPriority(), "alice's default priority");
      RMApp three = c.submitEdited("alice", null, sub -> sub.setPriority(Priority.newInstance(3)));
      assertEquals(Priority.newInstance(3), three.getApplicationPriority(), "alice's maximum");
      Exception refused = org.junit.jupiter.api.Assertions.assertThrows(Exception.class,
          () -> c.submitOnly("alice", null, url -> url, sub -> sub.setPriority(Priority.newInstance(5))));
      org.junit.jupiter.api.Assertions.assertTrue(chain(refused).contains("does not have permission"), chain(refused));
      RMApp seven = c.submitEdited("bob", null, sub -> sub.setPriority(Priority.newInstance(7)));
      assertEquals(Priority.newInstance(7), seven.getApplicationPriority(), "bob may have 7");
      Exception changeRefused = org.junit.jupiter.api.Assertions.assertThrows(Exception.class,
          () -> change(c, "alice", three, 5));
      org.junit.jupiter.api.Assertions.assertTrue(chain(changeRefused).contains("does not have permission"),
          chain(changeRefused));
      assertEquals(Priority.newInstance(3), three.getApplicationPriority(), "unchanged");
      change(c, "alice", three, 2);
      assertEquals(Priority.newInstance(2), three.getApplicationPriority(), "a change within her maximum");
    }
  }

  private static void change(MiniMr c, String user, RMApp app, int priority) throws Exception {
    UserGroupInformation.createRemoteUser(user).doAs(
        (PrivilegedExceptionAction<UpdateApplicationPriorityResponse>) () -> c.rm.getClientRMService()
            .updateApplicationPriority(UpdateApplicationPriorityRequest.newInstance(app.getApplicationId(),
                Priority.newInstance(priority))));
  }

  /** Every message of an exception and its causes. */
  private static String chain(Throwable t) {
    StringBuilder sb = new StringBuilder();
    for (Throwable x = t; x != null; x = x.getCause()) {
      sb.append(x).append(" / ");
    }
    return sb.toString();
  }
}
