package io.dataloc.yarn;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.ConcurrentSkipListMap;
import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.QueueACL;
import org.apache.hadoop.yarn.api.records.QueueInfo;
import org.apache.hadoop.yarn.api.records.QueueUserACLInfo;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.api.records.SchedulingRequest;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.recovery.RMStateStore.RMState;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerEventType;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractYarnScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.Allocation;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ContainerUpdates;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerUtils;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.SchedulerEvent;
import org.apache.hadoop.yarn.util.resource.DefaultResourceCalculator;
import org.apache.hadoop.yarn.util.resource.DominantResourceCalculator;
import org.apache.hadoop.yarn.util.resource.ResourceCalculator;
import org.apache.hadoop.yarn.util.resource.Resources;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Dataloc's ResourceScheduler: YARN's scheduler contract and error containment; its events go to
 * the parts that carry them out through {@link SchedulerEventDispatch}.
 *
 * <p><b>Maps</b> (requests at {@code yarn.scheduler.dataloc.map-priority}, 20 for MapReduce): a
 * job's block placement is read and the job planned off-thread ({@link PlacementPipeline}); its
 * tasks enter the engine's queues where the plan put them; a node heartbeat with
 * room asks the engine what to run ({@link EngineMaps}) and the engine learns which task the AM
 * really runs there ({@link io.dataloc.core.am.AmReplay}); the engine follows the asks
 * ({@link AskSync}). <b>Everything else</b> (AM containers, reduces, retried maps, other
 * priorities, jobs without placement) is served from the asks as the FIFO scheduler serves it
 * ({@link OtherWork}). One heartbeat's order is {@link Heartbeat}'s; nodes are {@link NodeEvents}',
 * applications {@link AppLifecycle}'s, resources {@link ClusterRoom}'s, ids {@link AppRegistry}'s.
 *
 * <p>Safety: the threads and the lock order are stated in {@code package-info.java}; no I/O
 * happens on the dispatcher thread; nothing escapes {@link #handle}. An error met while working for
 * one application costs that application; any other switches to plain locality scheduling until
 * it has been quiet for {@code error.recovery-ms} ({@link Containment}).
 */
public class LocalityScheduler extends AbstractYarnScheduler<DatalocAppAttempt, FiCaSchedulerNode>
    implements Configurable, DatalocFrontEnd {
  private static final Logger LOG = LoggerFactory.getLogger(LocalityScheduler.class);

  private Configuration conf;
  /** What a container costs (memory, or memory and vcores): chosen at start, as the CapacityScheduler's. */
  private ResourceCalculator calculator = new DefaultResourceCalculator();
  private QueueTree queues;
  private SchedulerParts parts;
  private DatalocState state;
  private SchedulerEventDispatch events;

  public LocalityScheduler() {
    super(LocalityScheduler.class.getName());
  }

  /** Validates the settings, then wires the parts; the RM does not start on a bad key, naming it. */
  @Override
  public void serviceInit(Configuration configuration) throws Exception {
    LOG.info(HadoopLine.requireRunning());
    Settings settings = DatalocConfiguration.atStart(configuration);
    calculator = settings.dominantResources() ? new DominantResourceCalculator() : new DefaultResourceCalculator();
    applications = new ConcurrentSkipListMap<>();
    minimumAllocation = super.getMinimumAllocation();
    initMaximumResourceCapability(super.getMaximumAllocation());
    queues = new QueueTree(configuration);
    parts = new SchedulerParts(this, settings, configuration, new SchedulerParts.Yarn(nodeTracker, applications,
        queues, calculator, () -> minimumAllocation, r -> getNormalizedResource(r, getMaximumResourceCapability()),
        this::completedContainer, this::getMaxClusterLevelAppPriority, () -> getClock().getTime()), rmContext);
    state = parts.state;
    events = new SchedulerEventDispatch(this, parts);
    LOG.info("Dataloc scheduler: assigner {}, online policy {}, job ordering {}", settings.assigner(),
        settings.policy(), settings.ordering());
    super.serviceInit(configuration);
    schedulingMonitorManager.initialize(rmContext, configuration);
  }

  @Override
  public void serviceStop() throws Exception {
    if (parts != null) {
      parts.placement.stop();
    }
    DatalocMetrics.unregister();
    super.serviceStop();
  }

  @Override
  public synchronized void setConf(Configuration configuration) {
    this.conf = configuration;
  }

  @Override
  public synchronized Configuration getConf() {
    return conf;
  }

  @Override
  public synchronized void setRMContext(RMContext context) {
    this.rmContext = context;
  }

  /**
   * {@code yarn rmadmin -refreshQueues}: validates the new settings first; an invalid value is
   * refused and the running configuration stays. Engine-level changes rebuild the engine (which
   * also ends a degraded spell), and running jobs continue online from their asks.
   */
  @Override
  public synchronized void reinitialize(Configuration configuration, RMContext context) throws IOException {
    LockHolds holds = state.holds();
    holds.enter();
    try {
      Settings next = DatalocConfiguration.onRefresh(configuration, state.settings());
      setConf(configuration);
      if (!next.engineConfig().equals(state.settings().engineConfig()) || parts.containment.degraded()) {
        parts.rebuildEngine(next);
        parts.containment.endDegraded();
      }
      state.settings(next);
      parts.queue.setAcls(next.aclSubmit(), next.aclAdminister());
      parts.priorities.configure(configuration, next, parts.aclEnabled);
      parts.placement.reconfigure(next);
      super.reinitialize(configuration, context);
      LOG.info("Dataloc reconfigured: assigner {}, online policy {}, job ordering {}", next.assigner(), next.policy(),
          next.ordering());
    } finally {
      holds.exit("reinitialize");
    }
  }

  /** Runs {@code body} under the scheduler's monitor, its hold measured as {@code site}. */
  synchronized void locked(String site, Runnable body) {
    state.holds().enter();
    try {
      body.run();
    } finally {
      state.holds().exit(site);
    }
  }

  public Settings settings() {
    return state.settings();
  }

  public DatalocMetrics datalocMetrics() {
    return state.metrics();
  }

  public boolean isDegraded() {
    return parts.containment.degraded();
  }

  /** For tests: where Dataloc works for one application, {@code f} may throw. */
  public void setFaultInjector(FaultInjector f) {
    state.faults(f);
  }

  @Override
  public void handle(SchedulerEvent event) {
    try {
      events.dispatch(event);
    } catch (Throwable t) {
      parts.containment.fail("handling " + event.getType(), t, SchedulerEvents.blameOf(event));
    }
  }

  @Override
  public Allocation allocate(ApplicationAttemptId attemptId, List<ResourceRequest> ask,
      List<SchedulingRequest> schedulingRequests, List<ContainerId> release, List<String> blacklistAdditions,
      List<String> blacklistRemovals, ContainerUpdates updateRequests) {
    DatalocAppAttempt attempt = getApplicationAttempt(attemptId);
    if (attempt == null || !attempt.getApplicationAttemptId().equals(attemptId)) {
      LOG.error("allocate for a removed or unknown attempt {}", attemptId);
      return EMPTY_ALLOCATION;
    }
    List<ResourceRequest> asks = AmHeartbeat.orEmpty(ask);
    normalizeResourceRequests(asks);
    releaseContainers(AmHeartbeat.orEmpty(release), attempt);
    return parts.amHeartbeat.allocate(attempt, asks, schedulingRequests, blacklistAdditions, blacklistRemovals,
        updateRequests);
  }

  @Override
  protected synchronized void nodeUpdate(RMNode rmNode) {
    LockHolds holds = state.holds();
    holds.enter();
    try {
      try {
        super.nodeUpdate(rmNode);
      } catch (Throwable t) {
        parts.containment.fail("processing container updates of " + rmNode.getNodeID(), t, null);
      }
      holds.mark("hb: container updates");
      if (rmContext.isWorkPreservingRecoveryEnabled() && !rmContext.isSchedulerReadyForAllocatingContainers()) {
        return;
      }
      FiCaSchedulerNode node = (FiCaSchedulerNode) getNode(rmNode.getNodeID());
      if (node == null) {
        return;
      }
      parts.heartbeat.schedule(node);
    } finally {
      holds.exit("nodeUpdate");
    }
  }

  @Override
  protected synchronized void completedContainerInternal(RMContainer rmContainer, ContainerStatus status,
      RMContainerEventType event) {
    state.holds().enter();
    try {
      DatalocAppAttempt attempt = getCurrentAttemptForContainer(rmContainer.getContainerId());
      parts.containers.completed(rmContainer, status, event, attempt,
          (FiCaSchedulerNode) getNode(rmContainer.getContainer().getNodeId()), parts.containment::fail);
    } finally {
      state.holds().exit("completedContainerInternal");
    }
  }

  @Override
  public void killContainer(RMContainer container) {
    completedContainer(container, SchedulerUtils.createKilledContainerStatus(container.getContainerId(),
        "Killed by the RM"), RMContainerEventType.KILL);
  }

  @Override
  public RMContainer getRMContainer(ContainerId containerId) {
    DatalocAppAttempt attempt = getCurrentAttemptForContainer(containerId);
    return attempt == null ? null : attempt.getRMContainer(containerId);
  }

  /**
   * Containers a node reports as it registers with a restarted RM. The RM marks an attempt's AM
   * container only once it is recovered: it then counts against the AM limit, as one allocated here.
   */
  @Override
  public synchronized void recoverContainersOnNode(
      List<org.apache.hadoop.yarn.server.api.protocolrecords.NMContainerStatus> reports, RMNode nm) {
    state.holds().enter();
    try {
      super.recoverContainersOnNode(reports, nm);
      parts.room.amsRecovered(reports, this::getRMContainer);
      parts.room.refreshFree();
    } finally {
      state.holds().exit("recoverContainersOnNode");
    }
  }

  @Override
  public void recover(RMState state) {
    // Applications and containers come back through APP_ADDED and NODE_ADDED; nothing else to do.
  }

  @Override
  public Priority checkAndGetApplicationPriority(Priority requested, UserGroupInformation user, String queuePath,
      ApplicationId applicationId) throws YarnException {
    // On the client's RPC thread at submission (not at recovery): group lookups happen here.
    parts.lifecycle.checkSubmitAccess(user, applicationId);
    return parts.priorities.check(requested, user, applicationId);
  }

  @Override
  public Priority updateApplicationPriority(Priority newPriority, ApplicationId applicationId,
      org.apache.hadoop.thirdparty.com.google.common.util.concurrent.SettableFuture<Object> future,
      UserGroupInformation user) throws YarnException {
    return parts.priorities.update(newPriority, applicationId, future, user);
  }

  @Override
  public QueueInfo getQueueInfo(String queueName, boolean includeChildQueues, boolean recursive) throws IOException {
    return parts.queue.lookup(queueName);
  }

  @Override
  public List<QueueUserACLInfo> getQueueUserAclInfo() {
    return parts.queue.userAclInfo();
  }

  @Override
  public ResourceCalculator getResourceCalculator() {
    return calculator;
  }

  @Override
  public int getNumClusterNodes() {
    return nodeTracker.nodeCount();
  }

  @Override
  public QueueMetrics getRootQueueMetrics() {
    return queues.root();
  }

  @Override
  public boolean checkAccess(UserGroupInformation callerUGI, QueueACL acl, String queueName) {
    return parts.queue.hasAccess(acl, callerUGI);
  }

  @Override
  public synchronized List<ApplicationAttemptId> getAppsInQueue(String queueName) {
    return parts.queue.appsIn(queueName, applications.values());
  }

  public Resource getUsedResource() {
    return parts == null ? Resources.none() : parts.room.used();
  }

  @Override
  public WaitReports waitReports() {
    return parts.plans.waits;
  }

  /** Views of the scheduler's state: its jobs, the engine's counts, the lock's longest holds. */
  public SchedulerReports reports() {
    return parts.reports;
  }
}
