package io.dataloc.it;

import io.dataloc.core.workload.Scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.yarn.LocalityScheduler;
import java.io.IOException;
import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.protocolrecords.KillApplicationRequest;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.server.api.protocolrecords.RefreshQueuesRequest;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRM;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Applications that are careless or hostile, each against a real ResourceManager (MockRM): each
 * ends with the RM alive, the other jobs served and a warning that names what was refused.
 */
class HostileApplicationsTest {
  @TempDir Path dir;

  private static LocalityScheduler scheduler(MiniMr c) {
    return (LocalityScheduler) c.rm.getResourceScheduler();
  }

  /** Waits (bounded) until the job's placement read is over. */
  private static void awaitPlacement(LocalityScheduler s, int job) throws InterruptedException {
    for (int i = 0; i < 500 && List.of("reading", "planning").contains(s.reports().jobs().get(job).phase()); i++) {
      Thread.sleep(20);
    }
  }

  /**
   * An AM that asks for Integer.MAX_VALUE maps used to make the scheduler build a list of that size
   * on the heartbeat path (OutOfMemoryError, then the dispatcher ended the RM). Now the engine holds
   * at most online.max-pending-per-job of its tasks, it is served, and a planned job beside it ends.
   */
  @Test
  void aHugeAskCountSizesNothing() throws Exception {
    try (MiniMr c = MiniMr.start(LocalityScheduler.class, Map.of("yarn.scheduler.dataloc.online.max-pending-per-job",
        "100"), Scenarios.twoRacks(4), 8192, dir.resolve("huge"))) {
      LocalityScheduler s = scheduler(c);
      RMApp greedy = c.submit("mallory", null);
      MockAM am = MockRM.launchAndRegisterAM(greedy, c.rm, c.nodes.get("h1"));
      Resource map = Resource.newInstance(1024, 1);
      am.allocate(List.of(ResourceRequest.newInstance(Priority.newInstance(MrJob.MAP_PRIORITY), "*", map,
          Integer.MAX_VALUE), ResourceRequest.newInstance(Priority.newInstance(MrJob.MAP_PRIORITY), "h2", map,
          Integer.MAX_VALUE), ResourceRequest.newInstance(Priority.newInstance(MrJob.MAP_PRIORITY), "/rack0", map,
          Integer.MAX_VALUE)), List.of());
      List<List<String>> splits = Scenarios.spread(8, 4, 2, 3);
      RMApp good = c.submit("alice", splits);
      awaitPlacement(s, 1);
      MrJob job = c.launch(good, "h2", splits);
      int got = 0;
      int rounds = -1;
      // The greedy AM's containers run one round each (it has work for all of them).
      Map<String, List<org.apache.hadoop.yarn.api.records.ContainerStatus>> finishing = new java.util.HashMap<>();
      for (int round = 1; round <= 400 && rounds < 0; round++) {
        job.heartbeat();
        for (Map.Entry<String, MockNM> e : c.nodes.entrySet()) {
          e.getValue().nodeHeartbeat(finishing.getOrDefault(e.getKey(), List.of()), true);
        }
        finishing.clear();
        c.rm.drainEvents();
        for (var container : am.allocate(List.of(), List.of()).getAllocatedContainers()) {
          got++;
          finishing.computeIfAbsent(container.getNodeId().getHost(), k -> new ArrayList<>()).add(
              org.apache.hadoop.yarn.api.records.ContainerStatus.newInstance(container.getId(),
                  org.apache.hadoop.yarn.api.records.ContainerState.COMPLETE, "done", 0));
        }
        job.heartbeat();
        job.tick(c.nodes);
        c.rm.drainEvents();
        if (job.finished()) {
          rounds = round;
        }
        // Its pending tasks (at most 100), its running ones (at most the cluster's 32), the other job's 8.
        assertTrue(s.reports().engineCounts()[1] <= 100 + 32 + 8, "engine tasks bounded: " + s.reports().engineCounts()[1]);
      }
      assertTrue(rounds > 0, "the other job finished: " + job.describe() + " " + s.reports().jobs());
      assertTrue(got > 0, "the greedy AM is served too");
      assertEquals(0, s.datalocMetrics().errors());
      assertFalse(s.isDegraded());
    }
  }

  /** A file system whose reads never return (until interrupted): a NameNode that hangs. */
  public static final class HangingFileSystem extends RawLocalFileSystem {
    @Override
    public java.net.URI getUri() {
      return java.net.URI.create("hang:///");
    }

    @Override
    public FSDataInputStream open(org.apache.hadoop.fs.Path f, int bufferSize) throws IOException {
      try {
        Thread.sleep(Long.MAX_VALUE);
      } catch (InterruptedException e) {
        throw new java.io.InterruptedIOException("interrupted");
      }
      throw new IOException("unreachable");
    }
  }

  /**
   * Reads that never return hold neither the job (served from its asks at the read timeout) nor
   * anyone else's plan: with one placement thread, three hanging jobs in a row each time out, and
   * a job with nothing to read is served meanwhile.
   */
  @Test
  void aReadThatNeverReturnsTimesOut() throws Exception {
    Map<String, String> settings = Map.of("fs.defaultFS", "hang:///", "fs.hang.impl", HangingFileSystem.class.getName(),
        "fs.hang.impl.disable.cache", "true", "yarn.scheduler.dataloc.placement.read-timeout-ms", "300",
        "yarn.scheduler.dataloc.placement.threads", "1");
    try (MiniMr c = MiniMr.start(LocalityScheduler.class, settings, Scenarios.twoRacks(4), 8192, dir.resolve("hang"))) {
      LocalityScheduler s = scheduler(c);
      List<List<String>> splits = Scenarios.spread(8, 4, 2, 9);
      List<RMApp> hanging = new ArrayList<>();
      // Four on one thread: the later ones time out while still queued behind the hanging reads
      // (such a job used to stay "reading" for ever: the cancelled read never ran).
      for (int i = 0; i < 4; i++) {
        hanging.add(c.submit("alice", splits, url -> org.apache.hadoop.yarn.api.records.URL.newInstance("hang", null,
            -1, url.getFile())));
      }
      for (int i = 0; i < 4; i++) {
        awaitPlacement(s, i);
        String note = s.reports().jobs().get(i).note();
        assertTrue(note.contains("placement.read-timeout-ms"), "job " + i + ": " + note);
      }
      MrJob job = c.launch(hanging.get(0), "h1", splits);
      assertTrue(Rounds.run(c, job, 200) > 0, "served from its asks: " + job.describe());
      assertEquals(4, s.datalocMetrics().placementFailures(), "each counted once");
      assertEquals(0, s.datalocMetrics().errors());
    }
  }

  /** Split hosts that are no NodeManager (object stores say "localhost"): the job is served, and so are others. */
  @Test
  void fakeHostsAreDroppedAndEveryoneIsServed() throws Exception {
    try (MiniMr c = MiniMr.start(LocalityScheduler.class, Map.of(), Scenarios.twoRacks(4), 8192, dir.resolve("fake"))) {
      LocalityScheduler s = scheduler(c);
      List<List<String>> fake = new ArrayList<>();
      for (int i = 0; i < 32; i++) {
        fake.add(List.of("localhost", "no-such-host-" + i));
      }
      RMApp a = c.submit("mallory", fake);
      MrJob fakeJob = c.launch(a, "h1", fake);
      List<List<String>> splits = Scenarios.spread(8, 4, 2, 4);
      RMApp b = c.submit("alice", splits);
      MrJob job = c.launch(b, "h2", splits);
      awaitPlacement(s, 0);
      awaitPlacement(s, 1);
      int done = -1;
      for (int round = 1; round <= 300 && done < 0; round++) {
        fakeJob.heartbeat();
        job.heartbeat();
        for (MockNM nm : c.nodeList()) {
          nm.nodeHeartbeat(true);
        }
        c.rm.drainEvents();
        fakeJob.heartbeat();
        job.heartbeat();
        fakeJob.tick(c.nodes);
        job.tick(c.nodes);
        c.rm.drainEvents();
        if (fakeJob.finished() && job.finished()) {
          done = round;
        }
      }
      assertTrue(done > 0, "both finished: " + fakeJob.describe() + " / " + job.describe());
      assertEquals(0, s.datalocMetrics().errors());
    }
  }

  /**
   * With yarn.acl.enable, the queue's ACLs hold: a user outside acl.submit-applications is
   * refused at submission with a message naming the key; a user outside acl.administer-queue cannot kill
   * another's application.
   */
  @Test
  void queueAclsAreEnforced() throws Exception {
    Map<String, String> settings = Map.of("yarn.acl.enable", "true", "yarn.admin.acl", "root",
        "yarn.scheduler.dataloc.acl.submit-applications", "alice,bob", "yarn.scheduler.dataloc.acl.administer-queue",
        "root");
    try (MiniMr c = MiniMr.start(LocalityScheduler.class, settings, Scenarios.twoRacks(4), 8192, dir.resolve("acl"))) {
      RMApp mine = c.submit("alice", Scenarios.spread(4, 4, 2, 1));
      assertEquals(RMAppState.ACCEPTED, mine.getState());
      // eve may not submit: her submission is refused, saying why (as the CapacityScheduler refuses).
      Exception refused = assertThrows(Exception.class, () -> c.submitOnly("eve", Scenarios.spread(4, 4, 2, 2),
          url -> url));
      StringBuilder chain = new StringBuilder();
      for (Throwable t = refused; t != null; t = t.getCause()) {
        chain.append(t).append('\n');
      }
      assertTrue(chain.toString().contains("yarn.scheduler.dataloc.acl.submit-applications"), chain.toString());
      assertEquals(1, scheduler(c).datalocMetrics().appsRefused());
      // bob may submit but not kill alice's application.
      UserGroupInformation bob = UserGroupInformation.createUserForTesting("bob", new String[] {"users"});
      Exception denied = assertThrows(Exception.class, () -> bob.doAs((PrivilegedExceptionAction<Object>) () ->
          c.rm.getClientRMService().forceKillApplication(KillApplicationRequest.newInstance(mine.getApplicationId()))));
      StringBuilder why = new StringBuilder();
      for (Throwable t = denied; t != null; t = t.getCause()) {
        why.append(t).append('\n');
      }
      assertTrue(why.toString().contains("User bob cannot perform operation MODIFY_APP"), why.toString());
      assertEquals(RMAppState.ACCEPTED, mine.getState());
    }
  }

  /** Group mapping that blocks for the user {@code slow} until released, as a slow LDAP would. */
  public static final class SlowGroups implements org.apache.hadoop.security.GroupMappingServiceProvider {
    static final java.util.concurrent.CountDownLatch RELEASE = new java.util.concurrent.CountDownLatch(1);
    static final java.util.concurrent.CountDownLatch ASKED = new java.util.concurrent.CountDownLatch(1);

    @Override
    public List<String> getGroups(String user) throws java.io.IOException {
      if (user.equals("slow")) {
        ASKED.countDown();
        try {
          RELEASE.await(60, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return List.of("users");
    }

    @Override
    public void cacheGroupsRefresh() {}

    @Override
    public void cacheGroupsAdd(List<String> groups) {}
  }

  /**
   * Resolving a submitter's groups for the submit ACL (LDAP, a shell) happens on the client's RPC
   * thread, never under the scheduler's monitor: while one user's lookup hangs, nodes heartbeat and
   * another job gets its containers. Before, the check ran in APP_ADDED under the monitor, on the
   * scheduler's event thread, and a slow lookup stopped all scheduling.
   */
  @Test
  void aSlowGroupLookupDoesNotStopScheduling() throws Exception {
    org.apache.hadoop.conf.Configuration groups = new org.apache.hadoop.conf.Configuration(false);
    groups.setClass(org.apache.hadoop.fs.CommonConfigurationKeys.HADOOP_SECURITY_GROUP_MAPPING, SlowGroups.class,
        org.apache.hadoop.security.GroupMappingServiceProvider.class);
    org.apache.hadoop.security.Groups.getUserToGroupsMappingServiceWithLoadedConfiguration(groups);
    UserGroupInformation.reset(); // drops the testing groups of earlier tests; UGIs resolve through the slow mapping
    UserGroupInformation.setConfiguration(groups);
    Map<String, String> settings = Map.of("yarn.acl.enable", "true", "yarn.admin.acl", "root",
        "yarn.scheduler.dataloc.acl.submit-applications", "alice,bob users");
    java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newFixedThreadPool(2);
    try (MiniMr c = MiniMr.start(LocalityScheduler.class, settings, Scenarios.twoRacks(4), 8192, dir.resolve("ldap"))) {
      try {
        List<List<String>> splits = Scenarios.spread(8, 4, 2, 3);
        RMApp alice = c.submit("alice", splits);
        MrJob job = c.launch(alice, "h1", splits);
        var slow = threads.submit(() -> c.submitOnly("slow", Scenarios.spread(4, 4, 2, 2), url -> url, sub -> {},
            UserGroupInformation.createRemoteUser("slow")));
        assertTrue(SlowGroups.ASKED.await(30, java.util.concurrent.TimeUnit.SECONDS), "the lookup began");
        // While it hangs, nodes heartbeat and alice's maps are served (a hang here fails in 60 s).
        int round = threads.submit(() -> Rounds.run(c, job, 100)).get(60, java.util.concurrent.TimeUnit.SECONDS);
        assertTrue(round > 0, "alice's job ran while slow's groups were looked up: " + job.describe());
        SlowGroups.RELEASE.countDown();
        RMApp slowApp = slow.get(60, java.util.concurrent.TimeUnit.SECONDS);
        c.rm.waitForState(slowApp.getApplicationId(), RMAppState.ACCEPTED);
      } finally {
        SlowGroups.RELEASE.countDown();
      }
    } finally {
      threads.shutdownNow();
      org.apache.hadoop.conf.Configuration defaults = new org.apache.hadoop.conf.Configuration();
      UserGroupInformation.reset();
      org.apache.hadoop.security.Groups.getUserToGroupsMappingServiceWithLoadedConfiguration(defaults);
      UserGroupInformation.setConfiguration(defaults);
    }
  }

  /** The local file system under another scheme, standing in for an HA or secured HDFS. */
  public static final class OtherFileSystem extends RawLocalFileSystem {
    @Override
    public java.net.URI getUri() {
      return java.net.URI.create("other:///");
    }
  }

  /**
   * {@code yarn rmadmin -refreshQueues} gives the scheduler yarn-site.xml alone; the placement
   * reader used to be rebuilt from it, losing the RM's file system settings (HA HDFS, security),
   * and every later read failed. Refreshed through the AdminService, as the command does.
   */
  @Test
  void refreshQueuesKeepsTheFileSystemSettings() throws Exception {
    Map<String, String> settings = Map.of("fs.defaultFS", "other:///", "fs.other.impl", OtherFileSystem.class.getName(),
        "fs.other.impl.disable.cache", "true");
    try (MiniMr c = MiniMr.start(LocalityScheduler.class, settings, Scenarios.twoRacks(4), 8192, dir.resolve("refresh"))) {
      c.rm.getAdminService().refreshQueues(RefreshQueuesRequest.newInstance());
      LocalityScheduler s = scheduler(c);
      c.submit("alice", Scenarios.spread(8, 4, 2, 5), url -> org.apache.hadoop.yarn.api.records.URL.newInstance("other",
          null, -1, url.getFile()));
      awaitPlacement(s, 0);
      assertEquals("planned", s.reports().jobs().get(0).phase(), s.reports().jobs().get(0).note());
      assertEquals(0, s.datalocMetrics().placementFailures());
    }
  }

  /**
   * A node decommissioned gracefully gets no new maps and no plan puts work on it; the maps queued
   * for it run elsewhere and the job finishes.
   */
  @Test
  void aDecommissioningNodeGetsNoNewMaps() throws Exception {
    try (MiniMr c = MiniMr.start(LocalityScheduler.class, Map.of(), Scenarios.twoRacks(4), 8192, dir.resolve("drain"))) {
      LocalityScheduler s = scheduler(c);
      List<List<String>> splits = Scenarios.spread(24, 4, 2, 6);
      RMApp app = c.submit("alice", splits);
      awaitPlacement(s, 0);
      MrJob job = c.launch(app, "h1", splits);
      c.rm.sendNodeGracefulDecommission(c.nodes.get("h4"), 3600);
      c.rm.drainEvents();
      int before = job.perHost().getOrDefault("h4", 0);
      assertTrue(Rounds.run(c, job, 200) > 0, job.describe());
      assertEquals(before, job.perHost().getOrDefault("h4", 0), "no map started on the decommissioning node: "
          + job.perHost());
      assertEquals(0, s.datalocMetrics().errors());
    }
  }
}
