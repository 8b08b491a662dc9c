package io.dataloc.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.protocolrecords.GetNewApplicationRequest;
import org.apache.hadoop.yarn.api.protocolrecords.SubmitApplicationRequest;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.apache.hadoop.yarn.api.records.LocalResource;
import org.apache.hadoop.yarn.api.records.LocalResourceType;
import org.apache.hadoop.yarn.api.records.LocalResourceVisibility;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.api.records.URL;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRM;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;
import org.apache.hadoop.yarn.util.Records;

/**
 * A MockRM with NodeManagers on distinct host names and racks (rack table through Hadoop's
 * TableMapping), and MapReduce-style job submission: the staging directory's
 * {@code job.splitmetainfo} is a real file on the local file system, named by the AM's local
 * resource {@code jobSubmitDir/job.splitmetainfo} exactly as YARNRunner does.
 */
final class MiniMr implements AutoCloseable {
  final MockRM rm;
  final Map<String, MockNM> nodes = new LinkedHashMap<>();
  final Map<String, String> rackOf;
  private final Path dir;
  private int jobs;
  /** Benchmarks: MockRM turns the root logger to DEBUG; set WARN again right after. */
  static volatile boolean quiet;
  private MiniMr previous;

  /** Settings that turn on work-preserving recovery with an in-memory state store. */
  static Map<String, String> workPreserving(Map<String, String> settings) {
    Map<String, String> m = new LinkedHashMap<>(settings);
    m.put(YarnConfiguration.RECOVERY_ENABLED, "true");
    m.put(YarnConfiguration.RM_STORE, org.apache.hadoop.yarn.server.resourcemanager.recovery.MemoryRMStateStore.class
        .getName());
    m.put(YarnConfiguration.RM_WORK_PRESERVING_RECOVERY_ENABLED, "true");
    m.put(YarnConfiguration.RM_WORK_PRESERVING_RECOVERY_SCHEDULING_WAIT_MS, "0");
    return m;
  }

  /**
   * Restarts the ResourceManager from the first one's state store (work-preserving recovery): a
   * new RM starts and every NodeManager re-registers with it, reporting the containers it runs.
   *
   * @param running container ids running on each host (as the NodeManagers report them)
   */
  MiniMr restart(Map<String, List<org.apache.hadoop.yarn.server.api.protocolrecords.NMContainerStatus>> running)
      throws Exception {
    return restart(running, conf -> {});
  }

  /** As {@link #restart(Map)}, the new RM's configuration changed by {@code edit} (another scheduler, say). */
  MiniMr restart(Map<String, List<org.apache.hadoop.yarn.server.api.protocolrecords.NMContainerStatus>> running,
      java.util.function.Consumer<YarnConfiguration> edit) throws Exception {
    var store = rm.getRMStateStore();
    YarnConfiguration conf = new YarnConfiguration(rm.getConfig());
    edit.accept(conf);
    QueueMetrics.clearQueueMetrics();
    DefaultMetricsSystem.shutdown();
    MockRM next = new MockRM(conf, store);
    next.start();
    MiniMr c = new MiniMr(next, rackOf, dir);
    c.jobs = jobs;
    // The old RM shares the state store, whose stop would stop the new RM's too: it is left
    // without NodeManagers and stopped when the new one is.
    c.previous = this;
    for (Map.Entry<String, MockNM> e : nodes.entrySet()) {
      MockNM nm = e.getValue();
      nm.setResourceTrackerService(next.getResourceTrackerService());
      nm.registerNode(running.getOrDefault(e.getKey(), List.of()), null);
      c.nodes.put(e.getKey(), nm);
    }
    next.drainEvents();
    return c;
  }

  private MiniMr(MockRM rm, Map<String, String> rackOf, Path dir) {
    this.rm = rm;
    this.rackOf = rackOf;
    this.dir = dir;
  }

  /**
   * Starts an RM with the given scheduler and registers one NodeManager per host.
   *
   * @param hostRack host name → rack, in registration order
   */
  static MiniMr start(Class<? extends ResourceScheduler> scheduler, Map<String, String> settings,
      Map<String, String> hostRack, int nodeMemoryMb, Path dir) throws Exception {
    return start(scheduler, settings, hostRack, nodeMemoryMb, Math.max(1, nodeMemoryMb / 1024), dir);
  }

  /** As above, with nodes of {@code nodeVcores} virtual cores (by default one per GB, as MockNM's). */
  static MiniMr start(Class<? extends ResourceScheduler> scheduler, Map<String, String> settings,
      Map<String, String> hostRack, int nodeMemoryMb, int nodeVcores, Path dir) throws Exception {
    QueueMetrics.clearQueueMetrics();
    DefaultMetricsSystem.shutdown();
    // Fake host names (h1, h2, ...) cannot be resolved: token services must use names. (Set here,
    // not in a core-site.xml, which would also reach the real MapReduce JVMs of the e2e tests.)
    org.apache.hadoop.security.SecurityUtil.setTokenServiceUseIp(false);
    YarnConfiguration conf = new YarnConfiguration();
    conf.setBoolean("hadoop.security.token.service.use_ip", false);
    conf.setClass(YarnConfiguration.RM_SCHEDULER, scheduler, ResourceScheduler.class);
    conf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 1024);
    Path table = dir.resolve("topology.table");
    Files.createDirectories(dir);
    StringBuilder sb = new StringBuilder();
    hostRack.forEach((h, r) -> sb.append(h).append(' ').append(r).append('\n'));
    Files.writeString(table, sb.toString());
    conf.set("net.topology.node.switch.mapping.impl", "org.apache.hadoop.net.TableMapping");
    conf.set("net.topology.table.file.name", table.toString());
    // The RM's own stores (node attributes, ...) default to /tmp/hadoop-$USER: shared by every RM
    // on the machine, so two test JVMs at once would trip over each other.
    conf.set("hadoop.tmp.dir", dir.resolve("hadoop-tmp").toString());
    // The node-attribute and node-label stores default to /tmp/hadoop-yarn-$USER, outside it.
    conf.set("yarn.node-attribute.fs-store.root-dir", dir.resolve("node-attribute").toUri().toString());
    conf.set("yarn.node-labels.fs-store.root-dir", dir.resolve("node-labels").toUri().toString());
    // MockRM launches an AM through one named node's heartbeat (launchAndRegisterAM), which the
    // tests choose: AMs are placed first fit here unless a test sets the wait (AmPlacementTest does).
    // For the same reason AMs are admitted in submission order unless a test sets the ordering.
    if (io.dataloc.yarn.LocalityScheduler.class.isAssignableFrom(scheduler)
        || io.dataloc.yarn.cs.DatalocCapacityScheduler.class.isAssignableFrom(scheduler)) {
      conf.setLong("yarn.scheduler.dataloc.am.placement-wait-ms", 0);
    }
    if (io.dataloc.yarn.LocalityScheduler.class.isAssignableFrom(scheduler)) {
      conf.set("yarn.scheduler.dataloc.am.admission-ordering", "fifo");
    }
    settings.forEach(conf::set);
    MockRM rm = new MockRM(conf);
    if (quiet) {
      org.apache.hadoop.test.GenericTestUtils.setRootLogLevel(org.slf4j.event.Level.WARN);
    }
    rm.start();
    MiniMr c = new MiniMr(rm, new LinkedHashMap<>(hostRack), dir);
    for (String h : hostRack.keySet()) {
      // Container tokens resolve the node's host: without this, every allocation waits for DNS.
      org.apache.hadoop.net.NetUtils.addStaticResolution(h, "127.0.0.1");
      c.nodes.put(h, c.register(h + ":1234", nodeMemoryMb, nodeVcores));
    }
    rm.drainEvents();
    return c;
  }

  /** Registers a NodeManager that reports the containers it was told to kill as completed. */
  MockNM register(String hostPort, int memoryMb) throws Exception {
    return register(hostPort, memoryMb, Math.max(1, memoryMb / 1024));
  }

  MockNM register(String hostPort, int memoryMb, int vcores) throws Exception {
    MockNM nm = new CleaningNM(hostPort, memoryMb, vcores, rm.getResourceTrackerService());
    nm.registerNode();
    rm.drainEvents();
    return nm;
  }

  /** Submits a MapReduce-like application; {@code splits} null means no split file. */
  RMApp submit(String user, List<List<String>> splits) throws Exception {
    return submit(user, splits, url -> url);
  }

  /** As {@link #submit(String, List)}, with the split file's URL rewritten (fault tests). */
  RMApp submit(String user, List<List<String>> splits, java.util.function.UnaryOperator<URL> splitUrl)
      throws Exception {
    RMApp app = submitOnly(user, splits, splitUrl);
    rm.waitForState(app.getApplicationId(), RMAppState.ACCEPTED);
    return app;
  }

  /** Submits without waiting for the application to be accepted (it may be rejected). */
  RMApp submitOnly(String user, List<List<String>> splits, java.util.function.UnaryOperator<URL> splitUrl)
      throws Exception {
    return submitOnly(user, splits, splitUrl, sub -> {});
  }

  /** Submits a job (splits may be null) whose submission context {@code edit} changes, and waits for ACCEPTED. */
  RMApp submitEdited(String user, List<List<String>> splits,
      java.util.function.Consumer<ApplicationSubmissionContext> edit)
      throws Exception {
    RMApp app = submitOnly(user, splits, url -> url, edit);
    rm.waitForState(app.getApplicationId(), RMAppState.ACCEPTED);
    return app;
  }

  RMApp submitOnly(String user, List<List<String>> splits, java.util.function.UnaryOperator<URL> splitUrl,
      java.util.function.Consumer<ApplicationSubmissionContext> edit) throws Exception {
    return submitOnly(user, splits, splitUrl, edit,
        UserGroupInformation.createUserForTesting(user, new String[] {"users"}));
  }

  /** Submits as {@code caller} (whose groups the cluster's group mapping resolves, unless it is a testing user). */
  RMApp submitOnly(String user, List<List<String>> splits, java.util.function.UnaryOperator<URL> splitUrl,
      java.util.function.Consumer<ApplicationSubmissionContext> edit, UserGroupInformation caller) throws Exception {
    ApplicationId id = rm.getClientRMService().getNewApplication(Records.newRecord(GetNewApplicationRequest.class))
        .getApplicationId();
    ApplicationSubmissionContext sub = Records.newRecord(ApplicationSubmissionContext.class);
    sub.setApplicationId(id);
    sub.setApplicationName("job-" + (++jobs));
    sub.setApplicationType("MAPREDUCE");
    sub.setMaxAppAttempts(2);
    ContainerLaunchContext clc = Records.newRecord(ContainerLaunchContext.class);
    Map<String, LocalResource> resources = new LinkedHashMap<>();
    if (splits != null) {
      // As MapReduce lays out a job's files: STAGING/USER/.staging/JOB/.
      Path file = SplitFiles.write(dir.resolve("staging/" + user + "/.staging/" + id + "/job.splitmetainfo"), splits);
      resources.put("jobSubmitDir/job.splitmetainfo", LocalResource.newInstance(
          splitUrl.apply(URL.fromPath(new org.apache.hadoop.fs.Path(file.toUri()))), LocalResourceType.FILE,
          LocalResourceVisibility.APPLICATION, Files.size(file), Files.getLastModifiedTime(file).toMillis()));
    }
    clc.setLocalResources(resources);
    sub.setAMContainerSpec(clc);
    sub.setAMContainerResourceRequests(Collections.singletonList(
        ResourceRequest.newInstance(Priority.newInstance(0), ResourceRequest.ANY, Resource.newInstance(1024, 1), 1)));
    edit.accept(sub);
    SubmitApplicationRequest req = Records.newRecord(SubmitApplicationRequest.class);
    req.setApplicationSubmissionContext(sub);
    caller.doAs((PrivilegedExceptionAction<Object>) () -> rm.getClientRMService().submitApplication(req));
    return rm.getRMContext().getRMApps().get(id);
  }

  /** Launches the application's AM on a node and returns an MR-like AM driving it. */
  MrJob launch(RMApp app, String amHost, List<List<String>> splits) throws Exception {
    MockAM am = MockRM.launchAndRegisterAM(app, rm, nodes.get(amHost));
    return new MrJob(am, splits, rackOf);
  }

  /** As above, with maps of {@code mapMb} MB each. */
  MrJob launch(RMApp app, String amHost, List<List<String>> splits, int mapMb) throws Exception {
    MockAM am = MockRM.launchAndRegisterAM(app, rm, nodes.get(amHost));
    return new MrJob(am, splits, rackOf, Resource.newInstance(mapMb, 1));
  }

  List<MockNM> nodeList() {
    return new ArrayList<>(nodes.values());
  }

  @Override
  public void close() {
    rm.stop();
    cancelDecommissioningWatcher(rm);
    if (previous != null) {
      previous.close();
    }
    QueueMetrics.clearQueueMetrics();
    DefaultMetricsSystem.shutdown();
  }

  /**
   * The RM's DecommissioningNodesWatcher starts a timer thread that stopping the RM never cancels
   * (Hadoop 3.5.0); it keeps the whole RM reachable. Tests that start thousands of RMs cancel it.
   */
  private static void cancelDecommissioningWatcher(MockRM rm) {
    try {
      var watcherField = org.apache.hadoop.yarn.server.resourcemanager.ResourceTrackerService.class
          .getDeclaredField("decommissioningWatcher");
      watcherField.setAccessible(true);
      Object watcher = watcherField.get(rm.getResourceTrackerService());
      if (watcher != null) {
        var timerField = watcher.getClass().getDeclaredField("pollTimer");
        timerField.setAccessible(true);
        ((java.util.Timer) timerField.get(watcher)).cancel();
      }
    } catch (ReflectiveOperationException | RuntimeException e) {
      // a later Hadoop may have fixed or renamed it
    }
  }

  static void deleteQuietly(Path p) {
    try {
      if (Files.exists(p)) {
        try (var s = Files.walk(p)) {
          s.sorted(Collections.reverseOrder()).forEach(f -> f.toFile().delete());
        }
      }
    } catch (IOException ignored) {
      // best effort
    }
  }
}
