package io.dataloc.yarn;

import io.dataloc.core.am.AmReplay;
import io.dataloc.core.am.AskReconciler;
import io.dataloc.core.engine.Decision;
import io.dataloc.core.engine.DecisionEngine;
import io.dataloc.core.engine.JobState;
import io.dataloc.core.model.Assignment;
import io.dataloc.core.model.Evaluation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerExitStatus;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.QueueACL;
import org.apache.hadoop.yarn.api.records.QueueInfo;
import org.apache.hadoop.yarn.api.records.QueueUserACLInfo;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.api.records.SchedulingRequest;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.exceptions.YarnRuntimeException;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.recovery.RMStateStore.RMState;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppEvent;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppEventType;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptEvent;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptEventType;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptState;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerEventType;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerState;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractYarnScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ActiveUsersManager;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.Allocation;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ContainerUpdates;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.NodeType;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerAppUtils;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplication;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerUtils;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAttemptAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAttemptRemovedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppRemovedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.ContainerExpiredSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeLabelsUpdateSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeRemovedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeResourceUpdateSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeUpdateSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.ReleaseContainerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.SchedulerEvent;
import org.apache.hadoop.yarn.server.scheduler.SchedulerRequestKey;
import org.apache.hadoop.yarn.server.utils.BuilderUtils;
import org.apache.hadoop.yarn.util.resource.DefaultResourceCalculator;
import org.apache.hadoop.yarn.util.resource.ResourceCalculator;
import org.apache.hadoop.yarn.util.resource.Resources;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Dataloc's ResourceScheduler: a thin adapter between YARN's scheduler contract and the
 * {@link DecisionEngine}.
 *
 * <p><b>Maps</b> (requests at {@code yarn.scheduler.dataloc.map-priority}, 20 for MapReduce): when
 * a job's per-task block hosts are known (read off-thread from HDFS, {@link PlacementReader}), the
 * job is planned off-thread with the configured assigner within a time budget (a cheaper fallback
 * assigner otherwise) and its tasks enter the engine's queues where the plan put them; jobs
 * without placement are served from their host-level asks. A node heartbeat with room asks the
 * engine what to run; the container goes to that job at the locality level its asks allow, never
 * beyond them, and a replay of the MapReduce AM's matching rule ({@link AmReplay}) tells the engine
 * which task really runs. <b>Everything else</b> (AM containers, reduces, retried maps, other
 * priorities) is served in application order, node-local, then rack-local, then off-switch, as
 * the FIFO scheduler does.
 *
 * <p>Safety: one lock (this object's monitor) guards all scheduling state; {@code allocate} only
 * takes the application's own lock; a priority change takes
 * {@code priorityChanges} around its state-store write and then this monitor, never the other way
 * round; no I/O happens on the dispatcher thread; nothing escapes
 * {@link #handle}. An error met while working for one application costs that application: it
 * leaves the engine and is served from its asks; a second one kills it. An error no application
 * can be blamed for switches the scheduler to plain locality scheduling (the FIFO path for maps
 * too) until {@code error.recovery-ms} pass without another, then the engine is rebuilt; the
 * {@code errors}, {@code appsContained}, {@code appsKilled}, {@code degraded} and {@code recoveries}
 * metrics count them.
 */
public class LocalityScheduler extends AbstractYarnScheduler<DatalocAppAttempt, FiCaSchedulerNode>
    implements Configurable {
  private static final Logger LOG = LoggerFactory.getLogger(LocalityScheduler.class);
  /** What an AM is told of a container update (increase, decrease, promotion, demotion). */
  static final String UPDATES_REFUSED = "The Dataloc scheduler does not support container updates (resource "
      + "increase or decrease, promotion or demotion); release the container and ask for a new one";
  /** Bound on the engine decisions one free container may try (each excludes one job). */
  private static final int MAX_TRIES = 256;
  /** Tasks of a plan entered into the engine per hold of the lock. */
  private static final int APPLY_CHUNK = 1_000;

  private Configuration conf;
  private volatile DatalocConfiguration.Settings settings;
  /** Who may give an application which priority ({@code acl.application-max-priority}). */
  private volatile org.apache.hadoop.yarn.server.resourcemanager.security.AppPriorityACLsManager priorityAcls;
  /** What a container costs (memory, or memory and vcores): chosen at start, as the CapacityScheduler's. */
  private ResourceCalculator calculator = new DefaultResourceCalculator();
  private final Resource used = Resource.newInstance(0, 0);
  /** The cluster's free resource as of the last change, for AMs' headroom (read without the lock). */
  private volatile Resource free = Resources.none();
  private QueueMetrics metrics;
  private ActiveUsersManager users;
  private DatalocQueue queue;
  private DatalocMetrics dmetrics;
  private boolean usePortForNodeName;
  /** Placement reads: {@code placement.threads} threads, at most {@code placement.max-waiting} queued. */
  private java.util.concurrent.ThreadPoolExecutor readers;
  /** Plans, one at a time, in arrival order (so each sees the last one's tasks queued). */
  private java.util.concurrent.ThreadPoolExecutor plans;
  /** Runs the assigner and the levelling, so a plan can be abandoned at its budget. */
  private ExecutorService planner;
  /** Plans within the budget on {@link #planner}. */
  private io.dataloc.core.engine.BudgetedPlanner budgeted;
  /** Interrupts a placement read at its timeout. */
  private java.util.concurrent.ScheduledExecutorService watchdog;
  private PlacementReader reader;
  /** The ResourceManager's own configuration: file system clients are made from it, never from a refresh's. */
  private Configuration rmConf;
  private final long startNanos = System.nanoTime();

  // Guarded by this.
  private final LockHolds holds = new LockHolds();
  /** Serialises application priority changes (taken before the scheduler's lock, never inside it). */
  private final Object priorityChanges = new Object();
  private DecisionEngine engine;
  private final Map<ApplicationId, AppState> apps = new LinkedHashMap<>();
  private final Map<Long, AppState> byJob = new HashMap<>();
  private final Map<ContainerId, Integer> containerTask = new HashMap<>();
  /** ApplicationMaster containers we allocated and still count against the AM limit. */
  private final Map<ContainerId, Resource> amContainers = new HashMap<>();
  private final Resource amUsed = Resource.newInstance(0, 0);
  private long nextJobId = 1;
  private volatile boolean degraded;
  private long lastErrorNanos;
  /** The application the scheduler is working for under the lock, blamed for an error (or null). */
  private ApplicationId working;
  private volatile FaultInjector faults = FaultInjector.NONE;
  /** Applications whose asks changed since the last reconciliation (written by allocate()). */
  private final Set<ApplicationId> dirty = ConcurrentHashMap.newKeySet();
  /**
   * Applications that may have requests the engine does not serve (AM, reduces, retried maps, other
   * priorities, maps of applications out of the engine), higher application priority first, then in
   * submission order, as the CapacityScheduler's FIFO ordering policy serves a queue (under the lock;
   * an application is taken out before its priority changes and put back after).
   */
  private final java.util.TreeSet<ApplicationId> otherWork = new java.util.TreeSet<>(
      java.util.Comparator.comparingInt((ApplicationId id) -> -applicationPriority(id))
          .thenComparing(java.util.Comparator.naturalOrder()));
  private long lastOtherSweep = System.nanoTime() - TimeUnit.SECONDS.toNanos(1);
  /** Nodes in a labelled partition: no containers, no maps, and not in the headroom (under the lock). */
  private final Set<NodeId> labelledNodes = new java.util.HashSet<>();
  /** Applications that sent a map ask with relaxLocality false (written by allocate, read under the lock). */
  private final Set<ApplicationId> strictAsks = ConcurrentHashMap.newKeySet();

  public LocalityScheduler() {
    super(LocalityScheduler.class.getName());
  }

  // ------------------------------------------------------------------ lifecycle

  @Override
  public void serviceInit(Configuration configuration) throws Exception {
    try {
      settings = DatalocConfiguration.load(configuration);
      priorityAcls = priorityAcls(configuration, settings);
    } catch (IllegalArgumentException e) {
      throw new YarnRuntimeException("Dataloc cannot start: " + e.getMessage(), e);
    }
    // What Dataloc does not do is refused here, not ignored later.
    int types = org.apache.hadoop.yarn.util.resource.ResourceUtils.getNumberOfKnownResourceTypes();
    if (types > 2) {
      throw new YarnRuntimeException("Dataloc cannot start: it schedules memory and vcores ("
          + DatalocConfiguration.RESOURCE_CALCULATOR.fullName() + "); the " + types
          + " resource types of yarn.resource-types (GPUs, FPGAs, ...) are not supported");
    }
    calculator = settings.dominantResources() ? new org.apache.hadoop.yarn.util.resource.DominantResourceCalculator()
        : new DefaultResourceCalculator();
    applications = new ConcurrentSkipListMap<>();
    minimumAllocation = super.getMinimumAllocation();
    initMaximumResourceCapability(super.getMaximumAllocation());
    usePortForNodeName = configuration.getBoolean(YarnConfiguration.RM_SCHEDULER_INCLUDE_PORT_IN_NODE_NAME,
        YarnConfiguration.DEFAULT_RM_SCHEDULER_USE_PORT_FOR_NODE_NAME);
    metrics = QueueMetrics.forQueue(DatalocQueue.NAME, null, false, configuration);
    users = new ActiveUsersManager(metrics);
    queue = new DatalocQueue(metrics, users, this::getClusterResource, () -> used,
        this::recovered);
    queue.setAcls(settings.aclSubmit(), settings.aclAdminister());
    dmetrics = DatalocMetrics.register();
    rmConf = new Configuration(configuration);
    reader = newReader(settings);
    DatalocConfiguration.Bounds b = settings.bounds();
    readers = new java.util.concurrent.ThreadPoolExecutor(b.placementThreads(), b.placementThreads(), 60,
        TimeUnit.SECONDS, new java.util.concurrent.LinkedBlockingQueue<>(b.maxWaiting()), daemon("dataloc-placement"));
    readers.allowCoreThreadTimeOut(true);
    plans = new java.util.concurrent.ThreadPoolExecutor(1, 1, 60, TimeUnit.SECONDS,
        new java.util.concurrent.LinkedBlockingQueue<>(b.maxWaiting()), daemon("dataloc-plans"));
    planner = Executors.newFixedThreadPool(1, daemon("dataloc-planner"));
    budgeted = new io.dataloc.core.engine.BudgetedPlanner(planner);
    watchdog = Executors.newSingleThreadScheduledExecutor(daemon("dataloc-read-watchdog"));
    synchronized (this) {
      holds.enter();
      try {
        engine = new DecisionEngine(settings.engineConfig());
      } finally {
        holds.exit("serviceInit");
      }
    }
    LOG.info("Dataloc scheduler: assigner {}, online policy {}, job ordering {}", settings.assigner(),
        settings.policy(), settings.ordering());
    super.serviceInit(configuration);
    schedulingMonitorManager.initialize(rmContext, configuration);
  }

  @Override
  public void serviceStop() throws Exception {
    if (readers != null) {
      readers.shutdownNow();
      plans.shutdownNow();
      planner.shutdownNow();
      watchdog.shutdownNow();
    }
    DatalocMetrics.unregister();
    super.serviceStop();
  }

  private static ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
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
   * refused and the running configuration stays. Engine-level changes rebuild the engine, and
   * running jobs continue online from their asks.
   */
  @Override
  public synchronized void reinitialize(Configuration configuration, RMContext context) throws IOException {
    holds.enter();
    try {
      DatalocConfiguration.Settings next;
      try {
        next = DatalocConfiguration.load(configuration);
      } catch (IllegalArgumentException e) {
        throw new IOException("refused: " + e.getMessage(), e);
      }
      if (next.dominantResources() != settings.dominantResources()) {
        throw new IOException("refused: " + DatalocConfiguration.RESOURCE_CALCULATOR.fullName()
            + " is read at start only (restart the ResourceManager to change it)");
      }
      setConf(configuration);
      if (!next.engineConfig().equals(settings.engineConfig()) || degraded) {
        // A new engine also ends a degraded spell: every job is served from its asks again and
        // new jobs are planned (the operator's way back after an error, with its warning read).
        rebuildEngine(next);
        if (degraded) {
          degraded = false;
          dmetrics.degraded.set(0);
          LOG.warn("Dataloc: back to locality planning after -refreshQueues (the engine was rebuilt)");
        }
      }
      settings = next;
      queue.setAcls(next.aclSubmit(), next.aclAdminister());
      priorityAcls = priorityAcls(configuration, next);
      // AdminService hands a refresh only yarn-site.xml (no core-site.xml, no HA or security keys):
      // the file system client keeps the RM's own configuration.
      reader = newReader(next);
      super.reinitialize(configuration, context);
      LOG.info("Dataloc reconfigured: assigner {}, online policy {}, job ordering {}", next.assigner(), next.policy(),
          next.ordering());
    } finally {
      holds.exit("reinitialize");
    }
  }

  private PlacementReader newReader(DatalocConfiguration.Settings s) {
    return new PlacementReader(rmConf, s.sources(), s.hintEnv(), s.bounds(), s.readTimeoutMs());
  }

  private void rebuildEngine(DatalocConfiguration.Settings next) {
    engine = new DecisionEngine(next.engineConfig());
    for (FiCaSchedulerNode n : nodeTracker.getAllNodes()) {
      engine.addHost(n.getNodeName(), n.getRackName(), mapSlotsAtMost(n));
    }
    containerTask.clear();
    for (AppState a : apps.values()) {
      a.goOnline("reconfigured");
    }
  }

  public DatalocConfiguration.Settings settings() {
    return settings;
  }

  public DatalocMetrics datalocMetrics() {
    return dmetrics;
  }

  public boolean isDegraded() {
    return degraded;
  }

  /** For tests: where Dataloc works for one application, {@code f} may throw. */
  public void setFaultInjector(FaultInjector f) {
    faults = f == null ? FaultInjector.NONE : f;
  }

  // ------------------------------------------------------------------ events

  @Override
  public void handle(SchedulerEvent event) {
    try {
      dispatch(event);
    } catch (Throwable t) {
      fail("handling " + event.getType(), t, blameOf(event));
    }
  }

  /** The application an event is about, if any. */
  private static ApplicationId blameOf(SchedulerEvent event) {
    try {
      return switch (event.getType()) {
        case APP_ADDED -> ((AppAddedSchedulerEvent) event).getApplicationId();
        case APP_REMOVED -> ((AppRemovedSchedulerEvent) event).getApplicationID();
        case APP_ATTEMPT_ADDED -> ((AppAttemptAddedSchedulerEvent) event).getApplicationAttemptId().getApplicationId();
        case APP_ATTEMPT_REMOVED ->
            ((AppAttemptRemovedSchedulerEvent) event).getApplicationAttemptID().getApplicationId();
        case CONTAINER_EXPIRED -> ((ContainerExpiredSchedulerEvent) event).getContainerId().getApplicationAttemptId()
            .getApplicationId();
        case RELEASE_CONTAINER -> ((ReleaseContainerEvent) event).getContainer().getApplicationAttemptId()
            .getApplicationId();
        default -> null;
      };
    } catch (RuntimeException e) {
      return null;
    }
  }

  private void dispatch(SchedulerEvent event) throws IOException {
    switch (event.getType()) {
      case NODE_ADDED -> {
        NodeAddedSchedulerEvent e = (NodeAddedSchedulerEvent) event;
        addNode(e.getAddedRMNode());
        recoverContainersOnNode(e.getContainerReports(), e.getAddedRMNode());
      }
      case NODE_REMOVED -> removeNode(((NodeRemovedSchedulerEvent) event).getRemovedRMNode());
      case NODE_RESOURCE_UPDATE -> {
        NodeResourceUpdateSchedulerEvent e = (NodeResourceUpdateSchedulerEvent) event;
        if (e.getResourceOption().getOverCommitTimeout() > 0) {
          LOG.warn("Dataloc: node {} resized with an overcommit timeout of {} ms: the timeout is not enforced;"
              + " containers beyond the new size run until they end, and no new one starts there meanwhile",
              e.getRMNode().getNodeID(), e.getResourceOption().getOverCommitTimeout());
        }
        updateNodeResource(e.getRMNode(), e.getResourceOption());
        resized(e.getRMNode());
      }
      case NODE_UPDATE -> nodeUpdate(((NodeUpdateSchedulerEvent) event).getRMNode());
      case APP_ADDED -> {
        AppAddedSchedulerEvent e = (AppAddedSchedulerEvent) event;
        addApplication(e.getApplicationId(), e.getUser(), e.getQueue(), e.getApplicatonPriority(),
            e.getIsAppRecovering(), e.isUnmanagedAM());
      }
      case APP_REMOVED -> {
        AppRemovedSchedulerEvent e = (AppRemovedSchedulerEvent) event;
        doneApplication(e.getApplicationID(), e.getFinalState());
      }
      case APP_ATTEMPT_ADDED -> {
        AppAttemptAddedSchedulerEvent e = (AppAttemptAddedSchedulerEvent) event;
        addApplicationAttempt(e.getApplicationAttemptId(), e.getTransferStateFromPreviousAttempt(),
            e.getIsAttemptRecovering());
      }
      case APP_ATTEMPT_REMOVED -> {
        AppAttemptRemovedSchedulerEvent e = (AppAttemptRemovedSchedulerEvent) event;
        doneApplicationAttempt(e.getApplicationAttemptID(), e.getFinalAttemptState(),
            e.getKeepContainersAcrossAppAttempts());
      }
      case CONTAINER_EXPIRED -> {
        ContainerId id = ((ContainerExpiredSchedulerEvent) event).getContainerId();
        RMContainer c = getRMContainer(id);
        if (c != null) {
          super.completedContainer(c, SchedulerUtils.createAbnormalContainerStatus(id,
              SchedulerUtils.EXPIRED_CONTAINER), RMContainerEventType.EXPIRE);
        }
      }
      case RELEASE_CONTAINER -> {
        RMContainer c = ((ReleaseContainerEvent) event).getContainer();
        completedContainer(c, SchedulerUtils.createAbnormalContainerStatus(c.getContainerId(),
            SchedulerUtils.RELEASED_CONTAINER), RMContainerEventType.RELEASED);
      }
      case NODE_LABELS_UPDATE -> labelsChanged((NodeLabelsUpdateSchedulerEvent) event);
      // Node attributes, reservations, preemption marks and queue management have no meaning in
      // Dataloc's single queue without preemption: deliberately ignored.
      case NODE_ATTRIBUTES_UPDATE, KILL_RESERVED_CONTAINER, MARK_CONTAINER_FOR_PREEMPTION,
          MARK_CONTAINER_FOR_KILLABLE, MARK_CONTAINER_FOR_NONKILLABLE, MANAGE_QUEUE, AUTO_QUEUE_DELETION ->
          LOG.debug("Ignoring {}", event.getType());
      default -> LOG.warn("Unknown scheduler event {}; ignoring", event.getType());
    }
  }

  /**
   * Any error keeps the RM up. One met while working for an application costs that application
   * ({@link #contain}); any other falls back to plain locality scheduling, says so, and leaves the
   * engine alone (it may be inconsistent) until {@code error.recovery-ms} pass without another
   * error or {@code -refreshQueues} rebuilds it.
   */
  private void fail(String what, Throwable t, ApplicationId blamed) {
    // An OutOfMemoryError here is most likely our own allocation's (it is gone once thrown); the
    // RM's dispatcher would exit on it. Only errors the JVM cannot continue after go on up.
    rethrowIfFatal(t);
    dmetrics.errors.incr();
    if (blamed != null) {
      try {
        if (contain(blamed, what, t)) {
          return;
        }
      } catch (Throwable t2) {
        rethrowIfFatal(t2);
        t.addSuppressed(t2);
        what = what + " (and then while taking " + blamed + " out of the engine)";
      }
    }
    degrade(what, t);
  }

  /**
   * Rethrows what the JVM cannot continue after. An OutOfMemoryError caught here is most likely our
   * own allocation's (it is gone once thrown) and a StackOverflowError unwound; the RM's dispatcher
   * would exit on either, so both are handled as any other error.
   */
  private static void rethrowIfFatal(Throwable t) {
    if (t instanceof VirtualMachineError && !(t instanceof StackOverflowError) && !(t instanceof OutOfMemoryError)) {
      throw (VirtualMachineError) t;
    }
  }

  /**
   * The application an error came from pays for it: the first time it leaves the engine (its plan
   * and queued maps are dropped) and is served from its asks as the FIFO scheduler would; a second
   * error kills it with a diagnostic its user sees. False if the application is not known here
   * (the error is then the scheduler's).
   */
  private synchronized boolean contain(ApplicationId id, String what, Throwable t) {
    AppState a = apps.get(id);
    if (a == null) {
      return false;
    }
    if (!a.contained) {
      a.contained = true;
      a.goOnline("taken out of the engine after a Dataloc error while " + what + "; served from its asks");
      dirty.remove(id);
      dmetrics.appsContained.incr();
      LOG.warn("Dataloc error while {}: {} leaves the engine and is served from its asks; other applications are "
          + "not affected", what, id, t);
    } else if (!a.killed) {
      a.killed = true;
      dmetrics.appsKilled.incr();
      String msg = "Killed by the Dataloc scheduler after a second error while " + what + ": " + t;
      LOG.error("Dataloc: {}: {}", id, msg, t);
      rmContext.getDispatcher().getEventHandler().handle(new RMAppEvent(id, RMAppEventType.KILL, msg));
    } else {
      LOG.warn("Dataloc error while {} for {} (being killed): {}", what, id, t.toString());
    }
    return true;
  }

  /** Called under the lock wherever the cluster's size or use changes. */
  private void refreshFree() {
    Resource room = Resources.subtract(getClusterResource(), used);
    for (NodeId id : labelledNodes) {
      FiCaSchedulerNode n = nodeTracker.getNode(id);
      if (n != null) {
        Resources.subtractFrom(room, n.getUnallocatedResource()); // a labelled partition's room is not ours
      }
    }
    free = Resources.componentwiseMax(Resources.none(), room);
  }

  /** The resources of the nodes Dataloc serves: the cluster's less the labelled partitions'. */
  private Resource served() {
    Resource r = Resources.clone(getClusterResource());
    for (NodeId id : labelledNodes) {
      FiCaSchedulerNode n = nodeTracker.getNode(id);
      if (n != null) {
        Resources.subtractFrom(r, n.getTotalResource());
      }
    }
    return Resources.componentwiseMax(Resources.none(), r);
  }

  private synchronized void degrade(String what, Throwable t) {
    lastErrorNanos = System.nanoTime();
    if (!degraded) {
      degraded = true;
      dmetrics.degraded.set(1);
      LOG.warn("Dataloc error while {}; degrading to plain locality-aware scheduling", what, t);
    } else {
      LOG.warn("Dataloc error while {} (already degraded): {}", what, t.toString());
    }
  }

  /** After {@code error.recovery-ms} without an error, a degraded spell ends with a new engine. */
  private void recoverIfQuiet() {
    long quiet = settings.recoveryMs();
    if (!degraded || quiet <= 0 || System.nanoTime() - lastErrorNanos < TimeUnit.MILLISECONDS.toNanos(quiet)) {
      return;
    }
    rebuildEngine(settings);
    degraded = false;
    dmetrics.degraded.set(0);
    dmetrics.recoveries.incr();
    LOG.warn("Dataloc: no error for {} ms: the engine is rebuilt; running jobs are served from their asks, new jobs "
        + "are planned", quiet);
  }

  // ------------------------------------------------------------------ nodes

  private synchronized void addNode(RMNode rmNode) {
    holds.enter();
    try {
      FiCaSchedulerNode node = new FiCaSchedulerNode(rmNode, usePortForNodeName, rmNode.getNodeLabels());
      nodeTracker.addNode(node);
      // The scheduler tells the label manager which nodes are live: it sends label changes for
      // live nodes only.
      if (rmContext.getNodeLabelManager() != null) {
        rmContext.getNodeLabelManager().activateNode(node.getNodeID(), node.getTotalResource());
      }
      if (indexPartition(node)) {
        LOG.warn("Dataloc: node {} is in node-label partition '{}': Dataloc serves the default partition only, so "
            + "this node gets no containers", node.getNodeName(), node.getPartition());
      }
      engine.addHost(node.getNodeName(), node.getRackName(), mapSlotsAtMost(node));
      refreshFree();
    } finally {
      holds.exit("addNode");
    }
  }

  /**
   * Dataloc serves the default partition only (its queue may use no node label, so the RM refuses
   * asks that name one): a node an administrator puts in a labelled partition gets no containers
   * and no maps are planned on it, as the CapacityScheduler keeps an exclusive partition's nodes
   * from asks without its label.
   */
  private static boolean labelled(FiCaSchedulerNode node) {
    String p = node.getPartition();
    return p != null && !p.isEmpty();
  }

  /** Keeps {@link #labelledNodes} true to the node's partition; whether the node is labelled. */
  private boolean indexPartition(FiCaSchedulerNode node) {
    if (labelled(node)) {
      labelledNodes.add(node.getNodeID());
      return true;
    }
    labelledNodes.remove(node.getNodeID());
    return false;
  }

  private synchronized void labelsChanged(NodeLabelsUpdateSchedulerEvent e) {
    holds.enter();
    try {
      for (Map.Entry<NodeId, Set<String>> entry : e.getUpdatedNodeToLabels().entrySet()) {
        FiCaSchedulerNode node = nodeTracker.getNode(entry.getKey());
        if (node == null) {
          continue;
        }
        node.updateLabels(entry.getValue());
        LOG.info("Dataloc: node {} is now in partition '{}'{}", node.getNodeName(), node.getPartition(),
            indexPartition(node) ? ": it gets no containers (Dataloc serves the default partition only)" : "");
        mapSlots(node);
      }
      refreshFree();
    } finally {
      holds.exit("labelsChanged");
    }
  }

  /** How many maps a node may run at once: none in a labelled partition. */
  private int mapSlotsAtMost(FiCaSchedulerNode node) {
    return labelled(node) ? 0 : slots(node);
  }

  /** Containers of the minimum allocation the node holds (memory, or memory and vcores): at least one. */
  private int slots(FiCaSchedulerNode node) {
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, minimumContainers(node.getTotalResource())));
  }

  private long minimumContainers(Resource room) {
    // A minimum allocation of 0 (the key allows it) counts in units of 1 MB and 1 vcore.
    Resource unit = Resource.newInstance(Math.max(1, minimumAllocation.getMemorySize()),
        Math.max(1, minimumAllocation.getVirtualCores()));
    return Math.max(0, calculator.computeAvailableContainers(room, unit));
  }

  private synchronized void resized(RMNode rmNode) {
    holds.enter();
    try {
      FiCaSchedulerNode node = nodeTracker.getNode(rmNode.getNodeID());
      int h = node == null ? -1 : engine.state().hostIndex(node.getNodeName());
      if (h >= 0) {
        engine.setSlots(h, mapSlotsAtMost(node));
      }
      refreshFree();
    } finally {
      holds.exit("resized");
    }
  }

  private synchronized void removeNode(RMNode rmNode) {
    holds.enter();
    try {
      FiCaSchedulerNode node = nodeTracker.getNode(rmNode.getNodeID());
      if (node == null) {
        return;
      }
      for (RMContainer c : node.getCopiedListOfRunningContainers()) {
        super.completedContainer(c, SchedulerUtils.createAbnormalContainerStatus(c.getContainerId(),
            SchedulerUtils.LOST_CONTAINER), RMContainerEventType.KILL);
      }
      nodeTracker.removeNode(rmNode.getNodeID());
      labelledNodes.remove(rmNode.getNodeID());
      if (rmContext.getNodeLabelManager() != null) {
        rmContext.getNodeLabelManager().deactivateNode(rmNode.getNodeID());
      }
      refreshFree();
      int h = engine.state().hostIndex(node.getNodeName());
      if (h >= 0) {
        int moved = engine.removeHost(h);
        if (moved > 0) {
          dmetrics.replans.incr();
          LOG.info("Node {} lost: {} queued or running map tasks re-routed", node.getNodeName(), moved);
        }
      }
    } finally {
      holds.exit("removeNode");
    }
  }

  // ------------------------------------------------------------------ applications

  private synchronized void addApplication(ApplicationId id, String user, String queueName,
      org.apache.hadoop.yarn.api.records.Priority priority, boolean recovering, boolean unmanaged) {
    holds.enter();
    try {
      // As the CapacityScheduler: an application for a queue that does not exist is rejected, with
      // the queue's name, rather than run somewhere it did not ask for.
      if (!recovering && queueName != null && !isOurQueue(queueName)) {
        String msg = "Application " + id + " submitted by user " + user + " to unknown queue: " + queueName
            + " (Dataloc has one queue, " + DatalocQueue.NAME + ")";
        LOG.warn("Dataloc: rejecting {}: {}", id, msg);
        dmetrics.appsRefused.incr();
        rmContext.getDispatcher().getEventHandler().handle(new RMAppEvent(id, RMAppEventType.APP_REJECTED, msg));
        return;
      }
      // The RM checks queue submit ACLs only for the Capacity and Fair schedulers: we do it here.
      if (!recovering && YarnConfiguration.isAclEnabled(rmConf)
          && !queue.hasAccess(QueueACL.SUBMIT_APPLICATIONS, UserGroupInformation.createRemoteUser(user))) {
        String msg = "User " + user + " cannot submit applications to queue " + DatalocQueue.NAME + " ("
            + DatalocConfiguration.ACL_SUBMIT.fullName() + ")";
        LOG.warn("Dataloc: rejecting {}: {}", id, msg);
        dmetrics.appsRefused.incr();
        rmContext.getDispatcher().getEventHandler().handle(new RMAppEvent(id, RMAppEventType.APP_REJECTED, msg));
        return;
      }
      if (recovering && queueName != null && !isOurQueue(queueName)) {
        // Recovered from another scheduler's queue (an operator switched to Dataloc): it runs in
        // ours, and says so, or its next attempt would ask for a queue that no longer exists.
        var rmApp = rmContext.getRMApps().get(id);
        if (rmApp != null) {
          rmApp.setQueue(DatalocQueue.NAME);
        }
        LOG.info("Dataloc: {} recovered from queue {} runs in queue {}", id, queueName, DatalocQueue.NAME);
      }
      SchedulerApplication<DatalocAppAttempt> app = new SchedulerApplication<>(queue, user,
          priority == null ? org.apache.hadoop.yarn.api.records.Priority.newInstance(0) : priority, unmanaged);
      applications.put(id, app);
      metrics.submitApp(user, unmanaged);
      AppState a = new AppState(id, nextJobId++, user);
      apps.put(id, a);
      byJob.put(a.jobId, a);
      if (recovering) {
        // Some of its maps may be running in recovered containers we cannot tie to tasks: the AM
        // re-sends what is left after it resyncs, and that is served from its asks.
        a.goOnline("recovered after a ResourceManager restart: served from its re-sent asks");
      } else {
        startPlacement(a);
      }
      if (!recovering) {
        rmContext.getDispatcher().getEventHandler().handle(new RMAppEvent(id, RMAppEventType.APP_ACCEPTED));
      }
    } finally {
      holds.exit("addApplication");
    }
  }

  private synchronized void addApplicationAttempt(ApplicationAttemptId attemptId, boolean transfer, boolean recovering) {
    holds.enter();
    try {
      SchedulerApplication<DatalocAppAttempt> app = applications.get(attemptId.getApplicationId());
      if (app == null) {
        LOG.warn("Attempt {} for an unknown application", attemptId);
        return;
      }
      DatalocAppAttempt attempt = new DatalocAppAttempt(attemptId, app.getUser(), queue, users, rmContext,
          app.getPriority(), recovering);
      if (transfer && app.getCurrentAppAttempt() != null) {
        attempt.transferStateFromPreviousAttempt(app.getCurrentAppAttempt());
      }
      boolean retry = app.getCurrentAppAttempt() != null;
      app.setCurrentAppAttempt(attempt);
      metrics.submitAppAttempt(app.getUser(), app.isUnmanagedAM());
      AppState a = apps.get(attemptId.getApplicationId());
      if (retry && a != null) {
        // The new AM re-requests what is left in an order we cannot replay: serve it from its asks.
        a.goOnline("AM attempt " + attemptId.getAttemptId());
      }
      if (!recovering) {
        rmContext.getDispatcher().getEventHandler().handle(new RMAppAttemptEvent(attemptId,
            RMAppAttemptEventType.ATTEMPT_ADDED));
      }
    } finally {
      holds.exit("addApplicationAttempt");
    }
  }

  private synchronized void doneApplication(ApplicationId id, RMAppState state) {
    holds.enter();
    try {
      SchedulerApplication<DatalocAppAttempt> app = applications.get(id);
      AppState a = apps.remove(id);
      strictAsks.remove(id);
      otherWork.remove(id);
      if (a != null) {
        a.dropJob();
        byJob.remove(a.jobId);
      }
      if (app == null) {
        return;
      }
      users.deactivateApplication(app.getUser(), id);
      app.stop(state);
      applications.remove(id);
    } finally {
      holds.exit("doneApplication");
    }
  }

  private synchronized void doneApplicationAttempt(ApplicationAttemptId attemptId, RMAppAttemptState state,
      boolean keep) {
    holds.enter();
    try {
      DatalocAppAttempt attempt = getApplicationAttempt(attemptId);
      if (attempt == null) {
        LOG.info("Unknown application attempt {} finished", attemptId);
        return;
      }
      for (RMContainer c : attempt.getLiveContainers()) {
        if (keep && c.getState().equals(RMContainerState.RUNNING)) {
          continue;
        }
        super.completedContainer(c, SchedulerUtils.createAbnormalContainerStatus(c.getContainerId(),
            SchedulerUtils.COMPLETED_APPLICATION), RMContainerEventType.KILL);
      }
      attempt.stop(state);
    } finally {
      holds.exit("doneApplicationAttempt");
    }
  }

  // ------------------------------------------------------------------ placement and plans

  /**
   * Reads the job's block placement and plans it, all off the dispatcher thread: the read on one
   * of {@code placement.threads} threads, interrupted at {@code placement.read-timeout-ms}; then the
   * plan, one job at a time. A job that finds the read or plan queue full ({@code
   * placement.max-waiting}) is served from its asks at once.
   */
  private void startPlacement(AppState a) {
    RMApp rmApp = rmContext.getRMApps().get(a.id);
    if (degraded) {
      a.goOnline("submitted while Dataloc was degraded after an error");
      return;
    }
    if (rmApp == null || rmApp.getApplicationSubmissionContext() == null) {
      a.goOnline("no submission context");
      return;
    }
    a.phase = Phase.READING;
    a.since = System.nanoTime();
    // A copy, made before the AM launcher exists: it reads the same protobuf-backed record later.
    var submitted = rmApp.getApplicationSubmissionContext();
    var ctx = submitted instanceof org.apache.hadoop.yarn.api.records.impl.pb.ApplicationSubmissionContextPBImpl pb
        ? new org.apache.hadoop.yarn.api.records.impl.pb.ApplicationSubmissionContextPBImpl(pb.getProto())
        : submitted;
    String type = rmApp.getApplicationType();
    PlacementReader r = reader;
    DatalocConfiguration.Settings s = settings;
    try {
      Future<?> read = readers.submit(() -> read(a, r, ctx, type, s));
      // The timeout counts from submission: a read still queued behind others when it strikes never
      // runs, so the job is served from its asks here (a running read is interrupted and does so).
      watchdog.schedule(() -> {
        if (read.cancel(true)) {
          readFailed(a, timeoutNote(s));
        }
      }, s.readTimeoutMs(), TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      dmetrics.placementFailures.incr();
      a.goOnline("placement queue full (" + DatalocConfiguration.PLACEMENT_MAX_WAITING.fullName() + " = "
          + s.bounds().maxWaiting() + " jobs waiting)");
    }
  }

  private static String timeoutNote(DatalocConfiguration.Settings s) {
    return "placement read took longer than " + DatalocConfiguration.READ_TIMEOUT.fullName() + " = "
        + s.readTimeoutMs() + " ms";
  }

  /**
   * A job whose placement cannot be read is served from its asks, counted once: by the watchdog
   * or by the read itself, whichever comes first.
   */
  private synchronized void readFailed(AppState a, String why) {
    holds.enter();
    try {
      if (a.phase == Phase.READING && apps.containsKey(a.id)) {
        dmetrics.placementFailures.incr();
        LOG.warn("Dataloc: cannot read the block placement of {} ({}); serving it online from its asks", a.id, why);
        a.goOnline(why);
      }
    } finally {
      holds.exit("read: failed");
    }
  }

  private void read(AppState a, PlacementReader r,
      org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext ctx, String type, DatalocConfiguration.Settings s) {
    PlacementReader.Placement placement;
    try {
      faults.at(FaultInjector.READ, a.id);
      placement = r.read(ctx, type, a.user);
      if (Thread.interrupted()) {
        throw new java.io.InterruptedIOException("interrupted");
      }
    } catch (Throwable t) {
      rethrowIfFatal(t);
      boolean interrupted = t instanceof InterruptedException || t instanceof java.io.InterruptedIOException
          || t instanceof java.nio.channels.ClosedByInterruptException;
      readFailed(a, interrupted ? timeoutNote(s) : "placement read failed: " + t.getMessage());
      return;
    }
    try {
      plans.execute(() -> plan(a, placement, s.planBudgetMs(), s.fallbackAssigner()));
    } catch (java.util.concurrent.RejectedExecutionException e) {
      dmetrics.placementFailures.incr();
      synchronized (this) {
        holds.enter();
        try {
          if (a.phase == Phase.READING && apps.containsKey(a.id)) {
            a.goOnline("plan queue full (" + DatalocConfiguration.PLACEMENT_MAX_WAITING.fullName() + ")");
          }
        } finally {
          holds.exit("read: plan queue full");
        }
      }
    }
  }

  /** Plans one job (on the plans thread); any error costs that job its plan, nothing else. */
  private void plan(AppState a, PlacementReader.Placement placement, long budgetMs, String fallback) {
    try {
      planOrThrow(a, placement, budgetMs, fallback);
    } catch (Throwable t) {
      rethrowIfFatal(t);
      dmetrics.plansFailed.incr();
      LOG.warn("Dataloc: planning {} failed; serving it from its asks", a.id, t);
      synchronized (this) {
        holds.enter();
        try {
          if (apps.containsKey(a.id)) {
            a.goOnline("planning failed: " + t);
          }
        } finally {
          holds.exit("plan: failed");
        }
      }
    }
  }

  private void planOrThrow(AppState a, PlacementReader.Placement placement, long budgetMs, String fallback)
      throws InterruptedException {
    io.dataloc.core.engine.PlanHosts hosts;
    int[] taskRoom;
    // The nodes' sizes come from the node tracker (thread-safe), before the lock is taken.
    java.util.function.IntUnaryOperator slotsForJob = jobSlots(placement == null ? null : placement.map());
    synchronized (this) {
      holds.enter();
      try {
        if (a.phase != Phase.READING || !apps.containsKey(a.id)) {
          return;
        }
        if (placement == null || placement.hostsPerTask().isEmpty()) {
          a.goOnline("no placement source for this application");
          return;
        }
        if (placement.hostsPerTask().size() > settings.planMaxTasks()) {
          a.goOnline("job has " + placement.hostsPerTask().size() + " maps, above plan.max-tasks");
          return;
        }
        hosts = engine.planHosts(slotsForJob);
        taskRoom = new int[] {engine.state().taskCount(), engine.state().liveTasks(), engine.state().capacity()};
        if (hosts == null) {
          a.goOnline("no live node to plan on");
          return;
        }
        a.phase = Phase.PLANNING;
        a.source = placement.source();
      } finally {
        holds.exit("plan: problem");
      }
    }
    // The problem is built from the hosts' snapshot, outside the lock (linear in the job).
    io.dataloc.core.engine.PlanInput input = hosts.input(placement.hostsPerTask());
    io.dataloc.core.engine.BudgetedPlanner.Result planned =
        budgeted.plan(input.problem(), settings.assigner(), fallback, settings.seed(), budgetMs);
    if (planned.overBudget()) {
      dmetrics.plansOverBudget.incr();
      LOG.warn("Dataloc: planning {} with {} exceeded {} ms; {}", a.id, settings.assigner(), budgetMs,
          planned.plan() == null ? planned.failure() : "using " + planned.planner());
    } else if (planned.plan() == null) {
      LOG.warn("Dataloc: planning {} failed: {}", a.id, planned.failure());
    }
    Assignment plan = planned.plan();
    String used = planned.planner();
    double millis = planned.millis();
    AmReplay am = null;
    if (plan != null && placement.amOrder()) {
      // Racks from the hosts' snapshot (node names; with yarn.scheduler.include-port-in-node-name
      // the split's host names match no node anyway).
      Map<String, String> racks = hosts.rackByHost(org.apache.hadoop.net.NetworkTopology.DEFAULT_RACK);
      am = new AmReplay(placement.hostsPerTask(),
          h -> racks.getOrDefault(h, org.apache.hadoop.net.NetworkTopology.DEFAULT_RACK));
    }
    io.dataloc.core.engine.PlanApplication prepared = plan == null ? null
        : io.dataloc.core.engine.PlanApplication.prepare(a.jobId, a.user, input, plan);
    if (prepared != null) {
      prepared.reserve(taskRoom[0], taskRoom[1], taskRoom[2]); // the engine's arrays grow here, not under the lock
    }
    // The plan enters the engine a chunk at a time, the lock released in between, so a job of any
    // size holds the lock for at most one chunk; its maps are served once all are in.
    boolean first = true;
    while (true) {
      synchronized (this) {
        holds.enter();
        try {
          if (a.phase != Phase.PLANNING || !apps.containsKey(a.id)) {
            return;
          }
          if (prepared == null) {
            dmetrics.plansFailed.incr();
            a.goOnline("planning failed or exceeded its budget");
            return;
          }
          if (first) {
            a.jobCreated = true;
            first = false;
          }
          boolean allIn = engine.applySome(prepared, APPLY_CHUNK);
          engine.setPriority(a.jobId, applicationPriority(a.id)); // the first chunk creates the job
          if (!allIn) {
            engine.setParked(a.jobId, true); // until it is all in and its asks are looked at
          }
          if (allIn) {
            DecisionEngine.Admission adm = prepared.admission();
            a.plan = adm.plan();
            shape(a, input.problem(), plan);
            a.planner = used;
            a.planMillis = millis;
            a.tasks = placement.hostsPerTask().size();
            a.am = am;
            a.phase = Phase.PLANNED;
            replayEarly(a);
            dirty.add(a.id); // its asks decide whether it runs now
            dmetrics.plansMade.incr();
            dmetrics.lastPlanMillis.set(Math.round(millis));
            dmetrics.lastPlanMakespan.set(adm.plan().makespan());
            dmetrics.lastPlanLowerBound.set(adm.plan().lowerBound());
            LOG.info("Dataloc planned {} ({} maps from {}) with {} in {} ms: makespan {} (lower bound {}), {} local",
                a.id, a.tasks, a.source, used, String.format("%.1f", millis), adm.plan().makespan() / 1000.0,
                adm.plan().lowerBound() / 1000.0, adm.plan().local());
            return;
          }
        } finally {
          holds.exit("plan: apply");
        }
      }
    }
  }

  /**
   * The plan has just entered the engine (under the lock): the maps served from the job's asks
   * while it was read and planned are tied to their tasks by replaying them, in the order they
   * were handed out, through the AM's rule. Each such task leaves its queue and runs where its
   * container is (or is done, if its container has ended); a task whose host the engine does not
   * know is dropped from the plan. Without the AM's order (another application type) or past the
   * bound, nothing is tied: the engine then holds tasks the AM has already run, and drops them
   * once the AM stops asking for maps.
   */
  private void replayEarly(AppState a) {
    if (a.early.isEmpty() && !a.earlyOverflow) {
      return;
    }
    int served = a.early.size();
    int tied = 0;
    if (a.am != null && !a.earlyOverflow) {
      DatalocAppAttempt attempt = currentAttempt(a.id);
      for (EarlyMap e : a.early) {
        int index = a.am.take(e.host(), e.rack());
        if (index < 0) {
          continue;
        }
        int task = engine.task(a.jobId, index);
        if (!engine.startedOutside(task, engine.state().hostIndex(e.host()))) {
          engine.dropPending(task);
          continue;
        }
        RMContainer c = attempt == null ? null : attempt.getRMContainer(e.container());
        if (c != null && c.getState() != RMContainerState.COMPLETED) {
          containerTask.put(e.container(), task);
        } else {
          engine.taskFinished(task);
        }
        tied++;
      }
    }
    dmetrics.mapsTiedToPlan.incr(tied);
    LOG.info("Dataloc: {} map containers of {} were served from its asks before its plan; {} tied to their tasks",
        a.earlyOverflow ? "more than " + served : served, a.id, tied);
    a.early.clear();
    a.earlyOverflow = false;
  }

  /**
   * How many of a job's maps each engine host runs at once: as many of its (normalized) map
   * containers as the node holds; the engine's slots when the map size is unknown. Built without
   * the scheduler's lock; applied under it (it reads the engine's host names and slots).
   */
  private java.util.function.IntUnaryOperator jobSlots(Resource map) {
    if (map == null) {
      return h -> engine.state().slots(h);
    }
    Resource ask = getNormalizedResource(map, getMaximumResourceCapability());
    Map<String, Resource> totals = new HashMap<>();
    for (FiCaSchedulerNode n : nodeTracker.getAllNodes()) {
      totals.put(n.getNodeName(), n.getTotalResource());
    }
    return h -> {
      Resource total = totals.get(engine.state().hostName(h));
      return total == null ? engine.state().slots(h)
          : (int) Math.min(Integer.MAX_VALUE, calculator.computeAvailableContainers(total, ask));
    };
  }

  /** Records the plan's waves and per-host concurrency (see {@link #declinePlanBreaking}). */
  private static void shape(AppState a, io.dataloc.core.model.Problem p, Assignment plan) {
    int[] perHost = new int[p.cluster().hostCount()];
    for (int t = 0; t < p.tasks(); t++) {
      perHost[p.hostOf(plan.server(t))]++;
    }
    for (int h = 0; h < perHost.length; h++) {
      int slots = Math.max(1, p.cluster().slots(h));
      a.planSlots.put(p.cluster().hostName(h), slots);
      a.planWaves = Math.max(a.planWaves, (perHost[h] + slots - 1) / slots);
      a.planConcurrency = Math.max(a.planConcurrency, Math.min(perHost[h], slots));
    }
  }

  // ------------------------------------------------------------------ allocate

  @Override
  public Allocation allocate(ApplicationAttemptId attemptId, List<ResourceRequest> ask,
      List<SchedulingRequest> schedulingRequests, List<ContainerId> release, List<String> blacklistAdditions,
      List<String> blacklistRemovals, ContainerUpdates updateRequests) {
    DatalocAppAttempt attempt = getApplicationAttempt(attemptId);
    if (attempt == null || !attempt.getApplicationAttemptId().equals(attemptId)) {
      LOG.error("allocate for a removed or unknown attempt {}", attemptId);
      return EMPTY_ALLOCATION;
    }
    List<ResourceRequest> asks = ask == null ? Collections.emptyList() : ask;
    normalizeResourceRequests(asks);
    releaseContainers(release == null ? Collections.emptyList() : release, attempt);
    synchronized (attempt) {
      if (attempt.isStopped()) {
        return EMPTY_ALLOCATION;
      }
      if (!asks.isEmpty()) {
        if (forbidsRelaxing(asks)) {
          strictAsks.add(attemptId.getApplicationId());
        }
        correctStaleMapAsks(asks, attempt);
        attempt.updateResourceRequests(asks);
        dirty.add(attemptId.getApplicationId());
      }
      attempt.updateBlacklist(blacklistAdditions == null ? Collections.emptyList() : blacklistAdditions,
          blacklistRemovals == null ? Collections.emptyList() : blacklistRemovals);
      if (attempt.refuseUpdates(updateRequests, UPDATES_REFUSED) > 0) {
        LOG.warn("Dataloc: refused container updates of {}: {}", attemptId, UPDATES_REFUSED);
      }
      // Headroom: what the cluster has free now, not when this application last got a container.
      Resource headroom = Resources.clone(free);
      attempt.setHeadroom(headroom);
      attempt.setApplicationHeadroomForMetrics(headroom);
      return new Allocation(attempt.pullNewlyAllocatedContainers(), headroom, null, null, null,
          attempt.pullUpdatedNMTokens(), null, null, null, null, null, rejected(attemptId, schedulingRequests));
    }
  }

  /**
   * SchedulingRequests (placement constraints) are refused: each comes back to the AM as rejected.
   * (With the RM's default placement handler, {@code disabled}, and with {@code scheduler}, the RM
   * refuses them before they get here; {@code placement-processor} asks {@code
   * attemptAllocationOnNode}, which refuses.)
   */
  private static List<org.apache.hadoop.yarn.api.records.RejectedSchedulingRequest> rejected(
      ApplicationAttemptId attemptId, List<SchedulingRequest> requests) {
    if (requests == null || requests.isEmpty()) {
      return null;
    }
    LOG.warn("Dataloc: rejected {} SchedulingRequests of {}: placement constraints are not supported", requests.size(),
        attemptId);
    List<org.apache.hadoop.yarn.api.records.RejectedSchedulingRequest> out = new ArrayList<>(requests.size());
    for (SchedulingRequest r : requests) {
      out.add(org.apache.hadoop.yarn.api.records.RejectedSchedulingRequest.newInstance(
          org.apache.hadoop.yarn.api.records.RejectionReason.COULD_NOT_SCHEDULE_ON_NODE, r));
    }
    return out;
  }

  /**
   * Whether a map ask restricts locality: a rack-level or {@code *} ask for some containers with
   * relaxLocality false (a node-level one restricts nothing: YARN reads the flag of the level
   * relaxed to).
   */
  private boolean forbidsRelaxing(List<ResourceRequest> asks) {
    int mapPriority = settings.mapPriority();
    for (ResourceRequest r : asks) {
      if (!r.getRelaxLocality() && r.getNumContainers() > 0 && r.getPriority() != null
          && r.getPriority().getPriority() == mapPriority && !isNodeLevel(r.getResourceName())) {
        return true;
      }
    }
    return false;
  }

  /** Node-level asks name a host; rack-level ones a path (/rack); {@code *} is neither. */
  private static boolean isNodeLevel(String resourceName) {
    return !ResourceRequest.isAnyLocation(resourceName) && !resourceName.startsWith("/");
  }

  /**
   * The AM computed these absolute asks before seeing the containers we handed out since its last
   * pull: take those out of its map ANY count, or it would be over-served (and release the extra).
   */
  private void correctStaleMapAsks(List<ResourceRequest> asks, DatalocAppAttempt attempt) {
    int mapPriority = settings.mapPriority();
    for (ResourceRequest r : asks) {
      if (r.getPriority().getPriority() == mapPriority && ResourceRequest.isAnyLocation(r.getResourceName())) {
        int unpulled = attempt.unpulled(SchedulerRequestKey.create(r));
        if (unpulled > 0) {
          r.setNumContainers(Math.max(0, r.getNumContainers() - unpulled));
        }
      }
    }
  }

  // ------------------------------------------------------------------ heartbeats

  @Override
  protected synchronized void nodeUpdate(RMNode rmNode) {
    holds.enter();
    try {
      try {
        super.nodeUpdate(rmNode);
      } catch (Throwable t) {
        fail("processing container updates of " + rmNode.getNodeID(), t, null);
      }
      holds.mark("hb: container updates");
      if (rmContext.isWorkPreservingRecoveryEnabled() && !rmContext.isSchedulerReadyForAllocatingContainers()) {
        return;
      }
      FiCaSchedulerNode node = (FiCaSchedulerNode) getNode(rmNode.getNodeID());
      if (node == null) {
        return;
      }
      try {
        working = null;
        recoverIfQuiet();
        faults.at(FaultInjector.HEARTBEAT, null);
        engine.advanceTo((System.nanoTime() - startNanos) / 1_000_000_000L);
        drainIfDecommissioning(node);
        mapSlots(node);
        holds.mark("hb: node state");
        if (!degraded) {
          reconcileDirty();
          holds.mark("hb: reconcile asks");
          sweepOtherWork();
        }
        // AMs (within the AM limit) and the work of applications not waiting for maps first; then
        // the maps; then what is left (reduces, retried maps) of applications still waiting for
        // maps, so a reduce never takes the container one of its job's maps could have had.
        // A node being decommissioned gracefully takes no new container at all. (YARN also shrinks it
        // to what it runs, by an event sent from the heartbeat: no room should show, but nothing here
        // counts on the event having arrived.)
        boolean draining = decommissioning(node);
        for (int guard = 0; guard < 10_000 && !draining && !labelled(node) && fits(node, minimumAllocation); guard++) {
          working = null;
          boolean served = assignOther(node, !degraded, true);
          holds.mark("hb: AMs and other work");
          if (served) {
            continue;
          }
          working = null;
          if (!degraded && assignMapFromEngine(node)) {
            continue;
          }
          working = null;
          served = assignOther(node, !degraded, false);
          holds.mark("hb: work after maps");
          if (!served) {
            break;
          }
        }
        working = null;
      } catch (Throwable t) {
        ApplicationId blamed = working;
        working = null;
        fail("scheduling node " + rmNode.getNodeID() + (blamed == null ? "" : " for " + blamed), t, blamed);
      }
      refreshFree();
      metrics.setAvailableResourcesToQueue(free);
    } finally {
      holds.exit("nodeUpdate");
    }
  }

  /**
   * A node being decommissioned gracefully takes no new maps and is planned on no more; the maps
   * queued for it go elsewhere; its running maps finish. (YARN also shrinks it to what it runs.)
   * A node taken back into service is a host again.
   */
  private void drainIfDecommissioning(FiCaSchedulerNode node) {
    int h = engine.state().hostIndex(node.getNodeName());
    if (h < 0) {
      return;
    }
    boolean decommissioning = decommissioning(node);
    if (decommissioning && engine.state().alive(h)) {
      int moved = engine.drainHost(h);
      dmetrics.replans.incr();
      LOG.info("Node {} is decommissioning: no new maps there; {} queued maps re-routed", node.getNodeName(), moved);
    } else if (!decommissioning && engine.state().draining(h)) {
      engine.addHost(node.getNodeName(), node.getRackName(), mapSlotsAtMost(node));
      LOG.info("Node {} is back in service", node.getNodeName());
    }
  }

  private static boolean decommissioning(FiCaSchedulerNode node) {
    return node.getRMNode().getState() == org.apache.hadoop.yarn.api.records.NodeState.DECOMMISSIONING;
  }

  /**
   * How many maps the node could run at once now: its free room plus the engine's maps running
   * there. Containers that are not the engine's maps (AMs, reduces, other applications' work) may
   * hold a node for as long as they like; a node full of them gets no slots, so no plan counts on
   * it and the policies route and steal its queued maps away.
   */
  private void mapSlots(FiCaSchedulerNode node) {
    int h = engine.state().hostIndex(node.getNodeName());
    if (h < 0 || !engine.state().alive(h)) {
      return;
    }
    long free = labelled(node) ? 0 : minimumContainers(node.getUnallocatedResource());
    int now = (int) Math.min(slots(node), free + engine.state().running(h));
    if (now != engine.state().slots(h)) {
      engine.setSlots(h, now);
    }
  }

  /**
   * Whether an ApplicationMaster container of this size may start: ApplicationMasters may hold
   * {@code maximum-am-resource-percent} of the cluster's resources (memory; with the dominant
   * calculator, the dominant share), and one always may (as in the CapacityScheduler, so a small
   * cluster is never left with none).
   */
  private boolean amFits(Resource am) {
    if (amUsed.getMemorySize() <= 0 && amUsed.getVirtualCores() <= 0) {
      return true;
    }
    Resource served = served();
    Resource limit = Resource.newInstance(served.getMemorySize() * settings.amResourcePermille() / 1000,
        (int) (served.getVirtualCores() * (long) settings.amResourcePermille() / 1000));
    return Resources.lessThanOrEqual(calculator, served, Resources.add(amUsed, am), limit);
  }

  /** The request of an attempt that waits for its ApplicationMaster's container. */
  private static boolean isAmRequest(DatalocAppAttempt attempt) {
    return attempt.isWaitingForAMContainer() && attempt.getLiveContainers().isEmpty();
  }

  private boolean fits(FiCaSchedulerNode node, Resource r) {
    return Resources.fitsIn(calculator, r, node.getUnallocatedResource());
  }

  private boolean isMapKey(SchedulerRequestKey key) {
    return key.getPriority().getPriority() == settings.mapPriority();
  }

  /**
   * Serves one container of a request the engine does not manage (or of any request when
   * {@code exceptMaps} is false, while degraded): applications in submission order, priorities in
   * order, node-local, then rack-local, then off-switch. ApplicationMaster containers only within
   * the AM limit. With {@code first}, only AM containers and the requests of applications that ask
   * for no maps now.
   *
   * <p>Only applications that may have such requests are walked ({@link #otherWork}), so a
   * heartbeat's cost does not grow with applications that wait for nothing (AMs with every
   * container they asked for, jobs whose only asks are the engine's maps). One found to have none
   * leaves the set; a change of its asks, its leaving the engine, and a sweep every second put it
   * back.
   */
  private boolean assignOther(FiCaSchedulerNode node, boolean exceptMaps, boolean first) {
    if (!exceptMaps) {
      for (SchedulerApplication<DatalocAppAttempt> app : applications.values()) {
        if (serveOther(app.getCurrentAppAttempt(), node, false, first) == Served.CONTAINER) {
          return true;
        }
      }
      return false;
    }
    for (java.util.Iterator<ApplicationId> it = otherWork.iterator(); it.hasNext();) {
      Served s = serveOther(currentAttempt(it.next()), node, true, first);
      if (s == Served.CONTAINER) {
        return true;
      }
      if (s == Served.NO_WORK) {
        it.remove();
      }
    }
    return false;
  }

  /** What {@link #serveOther} did for one application on one node. */
  private enum Served { CONTAINER, NOT_HERE, NO_WORK }

  /** Puts every application back in {@link #otherWork} once a second: no missed change starves one. */
  private void sweepOtherWork() {
    long now = System.nanoTime();
    if (now - lastOtherSweep < TimeUnit.SECONDS.toNanos(1)) {
      return;
    }
    lastOtherSweep = now;
    otherWork.addAll(applications.keySet());
  }

  private Served serveOther(DatalocAppAttempt attempt, FiCaSchedulerNode node, boolean exceptMaps, boolean first) {
    if (attempt == null || attempt.isStopped()) {
      return Served.NO_WORK;
    }
    AppState a = apps.get(attempt.getApplicationId());
    if (a != null && a.killed) {
      return Served.NO_WORK;
    }
    if (SchedulerAppUtils.isPlaceBlacklisted(attempt, node, LOG)) {
      return Served.NOT_HERE;
    }
    // The maps of an application out of the engine (after an error, or with strict locality) are
    // served here, from its asks, like everything else of it.
    // So are the maps of a job whose placement is being read and planned: they start at once, and
    // the plan takes over from what they ran (replayEarly).
    boolean inEngine = a != null && !a.servedFromAsks() && !a.waiting();
    boolean am = isAmRequest(attempt);
    // A job the engine plans (or will once its plan comes) waits in the first pass while it asks
    // for maps: its maps, early ones included, come after every AM, and its reduces after its maps.
    if (!am && first && exceptMaps && (inEngine || a != null && a.waiting()) && asksForMaps(attempt)) {
      return Served.NOT_HERE;
    }
    boolean work = false;
    for (SchedulerRequestKey key : attempt.getSchedulerKeys()) {
      if (exceptMaps && isMapKey(key) && inEngine && !am) {
        continue;
      }
      if (attempt.getOutstandingAsksCount(key, ResourceRequest.ANY) <= 0) {
        continue;
      }
      work = true;
      if (am && !amFits(attempt.getPendingAsk(key, ResourceRequest.ANY).getPerAllocationResource())) {
        dmetrics.amLimited.incr();
        break;
      }
      NodeType type = attempt.levelFor(key, node);
      if (type == null) {
        continue;
      }
      boolean early = a != null && a.waiting() && isMapKey(key) && !am;
      if (early && type != NodeType.NODE_LOCAL) {
        continue; // before its plan, a job's maps start only where their data is; the plan places the rest
      }
      working = attempt.getApplicationId();
      faults.at(FaultInjector.ASSIGN_OTHER, working);
      RMContainer c = allocateOne(attempt, key, node, type);
      if (c != null) {
        if (isMapKey(key)) {
          countMap(type, a, node.getNodeName());
          if (early) {
            a.early(c.getContainerId(), node.getNodeName(), node.getRackName(), settings.bounds().onlineMaxPending());
            dmetrics.mapsBeforePlan.incr();
          }
        } else {
          dmetrics.otherContainers.incr();
        }
        return Served.CONTAINER;
      }
    }
    return work ? Served.NOT_HERE : Served.NO_WORK;
  }

  private boolean asksForMaps(DatalocAppAttempt attempt) {
    SchedulerRequestKey key = mapKey(attempt);
    return key != null && attempt.getOutstandingAsksCount(key, ResourceRequest.ANY) > 0;
  }

  private RMContainer allocateOne(DatalocAppAttempt attempt, SchedulerRequestKey key, FiCaSchedulerNode node,
      NodeType type) {
    var pending = attempt.getPendingAsk(key, ResourceRequest.ANY);
    Resource capability = pending.getPerAllocationResource();
    if (pending.getCount() <= 0 || !fits(node, capability)) {
      return null;
    }
    ContainerId id = BuilderUtils.newContainerId(attempt.getApplicationAttemptId(), attempt.getNewContainerId());
    Container container = BuilderUtils.newContainer(id, node.getNodeID(), node.getRMNode().getHttpAddress(),
        capability, key.getPriority(), null, key.getAllocationRequestId());
    // Lock order as in allocate(): the attempt's monitor before its write lock (addToNewlyAllocated-
    // Containers synchronizes on the attempt). Taking the write lock first deadlocked against an AM
    // heartbeat; the randomized sequences found it.
    boolean am = isAmRequest(attempt);
    RMContainer rmc;
    synchronized (attempt) {
      rmc = attempt.allocate(type, node, key, container);
    }
    if (rmc != null && am) {
      amContainers.put(id, capability);
      Resources.addTo(amUsed, capability);
    }
    if (rmc != null) {
      node.allocateContainer(rmc);
      Resources.addTo(used, capability);
      refreshFree();
      attempt.setHeadroom(free);
    }
    return rmc;
  }

  private void countMap(NodeType type, AppState a, String host) {
    switch (type) {
      case NODE_LOCAL -> dmetrics.mapsNodeLocal.incr();
      case RACK_LOCAL -> dmetrics.mapsRackLocal.incr();
      default -> dmetrics.mapsOffSwitch.incr();
    }
    if (a != null) {
      a.count(type);
      a.mapsOn.merge(host, 1, Integer::sum);
    }
  }

  /** Asks the engine what this node should run and carries it out; false if nothing. */
  private boolean assignMapFromEngine(FiCaSchedulerNode node) {
    int host = engine.state().hostIndex(node.getNodeName());
    if (host < 0) {
      return false;
    }
    Set<Long> excluded = new java.util.HashSet<>();
    // Each try excludes the job it found unable to run here, so a job with work for this node is
    // reached within as many tries as there are jobs ahead of it (bounded, for the lock's sake).
    int maxTries = Math.min(MAX_TRIES, engine.activeJobs() + 1);
    for (int tries = 0; tries < maxTries; tries++) {
      working = null;
      Decision d = engine.onSlotFree(host, excluded);
      holds.mark("map: engine decides");
      if (d == null) {
        return false;
      }
      AppState a = byJob.get(d.jobId());
      working = a == null ? null : a.id;
      DatalocAppAttempt attempt = a == null ? null : currentAttempt(a.id);
      SchedulerRequestKey key = attempt == null ? null : mapKey(attempt);
      if (key == null || attempt.isStopped() || attempt.getOutstandingAsksCount(key, ResourceRequest.ANY) <= 0
          || a.phase == Phase.PLANNING) {
        // The application does not ask for maps right now (not yet, or all asked for are
        // allocated): its plan stays as it is and it sits out this heartbeat.
        engine.unpick(d);
        excluded.add(d.jobId());
        if (a != null) {
          reconcile(a, attempt, key, true);
        }
        holds.mark("map: job not asking");
        continue;
      }
      if (SchedulerAppUtils.isPlaceBlacklisted(attempt, node, LOG)) {
        engine.taskRefused(d.task(), host);
        if (a != null) {
          reconcile(a, attempt, key, true);
        }
        continue;
      }
      if (!fits(node, attempt.getPendingAsk(key, ResourceRequest.ANY).getPerAllocationResource())) {
        // This job's maps are larger than what the node has left (the engine counts slots of the
        // minimum allocation): the task stays where the plan put it, and the node may still serve
        // another job's smaller maps.
        engine.unpick(d);
        excluded.add(d.jobId());
        continue;
      }
      faults.at(FaultInjector.ASSIGN_MAP, a.id);
      // The plan's declines wait for a better node; a job the starvation guard serves has waited enough.
      if (a.am != null && !d.starving() && declineNonLocal(a, node, d)) {
        holds.mark("map: decline non-local");
        excluded.add(a.jobId);
        continue;
      }
      holds.mark("map: decline non-local");
      if (a.am != null && !d.starving() && declinePlanBreaking(a, node, d)) {
        holds.mark("map: decline plan-breaking");
        excluded.add(a.jobId);
        continue;
      }
      holds.mark("map: decline plan-breaking"); // with the chain search of replaceKeepsLocality
      NodeType type = attempt.levelFor(key, node);
      if (type == null) {
        // The asks do not allow this node (they may have changed since the plan): the task goes
        // elsewhere and the job sits out this heartbeat here.
        engine.taskRefused(d.task(), host);
        excluded.add(d.jobId());
        reconcile(a, attempt, key, true);
        continue;
      }
      RMContainer c = allocateOne(attempt, key, node, type);
      holds.mark("map: container");
      if (c == null) {
        engine.unpick(d);
        return false;
      }
      a.declines.remove(node.getNodeName());
      if (a.am != null) {
        int amTask = a.am.take(node.getNodeName(), node.getRackName());
        d = engine.replaceStarted(d, engine.task(a.jobId, amTask));
        holds.mark("map: AM replay");
      }
      containerTask.put(c.getContainerId(), d.task());
      countMap(type, a, node.getNodeName());
      if (a.phase == Phase.ONLINE) {
        dirty.add(a.id); // its pending tasks may need topping up (online.max-pending-per-job)
      }
      a.lastReason = d.reason();
      return true;
    }
    return false;
  }

  /**
   * For a job whose AM we replay: if the AM would run a non-local task in a container on this
   * node while some of its pending tasks can still run data-local on other live nodes, decline
   * (the decision is taken back, the job's tasks queued for this node go to nodes that can run
   * them locally) — at most {@code delay.node} times in a row per node, then accept, so no job
   * waits for ever.
   */
  private boolean declineNonLocal(AppState a, FiCaSchedulerNode node, Decision d) {
    int kind = a.am.peekKind(node.getNodeName(), node.getRackName());
    if (kind == 0 || kind < 0) {
      return false;
    }
    if (!a.am.localElsewhere(node.getNodeName(), h -> engine.state().hostIndex(h) >= 0
        && engine.state().alive(engine.state().hostIndex(h))) || !decline(a, node, d)) {
      return false;
    }
    int moved = engine.releaseQueued(a.jobId, engine.state().hostIndex(node.getNodeName()));
    if (moved > 0) {
      dmetrics.replans.incr();
    }
    return true;
  }

  /**
   * For a job whose AM we replay: the AM will run, in a container here, the first pending task of
   * this host's list. If that task was planned for another host, the plan is re-matched along a
   * chain of hosts where each queued task stays data-local, ending at that host (every host keeps
   * its count) or at one with less work than this one (see
   * {@link io.dataloc.core.engine.DecisionEngine#replaceKeepsLocality}). If no chain exists, taking
   * the container moves one task of the plan from that host to this one; that is accepted when this
   * host then stays within the plan's shape (no more waves than the plan's busiest host, no more
   * tasks at once than the plan puts on any host), and otherwise declined for this heartbeat: the
   * node asks again on its next one, when other hosts have taken their tasks. At most
   * {@code delay.node} declines in a row per node, then accept, so no job waits for ever.
   */
  private boolean declinePlanBreaking(AppState a, FiCaSchedulerNode node, Decision d) {
    int amTask = a.am.peekLocal(node.getNodeName());
    if (amTask < 0 || engine.replaceKeepsLocality(d, engine.task(a.jobId, amTask))) {
      return false;
    }
    int slots = a.planSlots.getOrDefault(node.getNodeName(), Math.max(1, engine.state().slots(d.host())));
    // This host's share of the job if it takes the container: the maps it ran or runs, the
    // container, and its queued tasks (the decided one back among them).
    int here = a.mapsOn.getOrDefault(node.getNodeName(), 0) + 1 + engine.queuedOn(a.jobId, d.host()) + 1;
    if ((here + slots - 1) / slots <= a.planWaves && Math.min(here, slots) <= a.planConcurrency) {
      return false;
    }
    return decline(a, node, d);
  }

  /**
   * Takes the decision back for this heartbeat unless the node has already declined this job
   * {@code delay.node} times in a row (the count resets when the node gets one of its maps).
   */
  private boolean decline(AppState a, FiCaSchedulerNode node, Decision d) {
    int declined = a.declines.getOrDefault(node.getNodeName(), 0);
    if (declined >= settings.nodeDelay()) {
      return false;
    }
    a.declines.put(node.getNodeName(), declined + 1);
    engine.unpick(d);
    dmetrics.declines.incr();
    return true;
  }

  private DatalocAppAttempt currentAttempt(ApplicationId id) {
    SchedulerApplication<DatalocAppAttempt> app = applications.get(id);
    return app == null ? null : app.getCurrentAppAttempt();
  }

  private SchedulerRequestKey mapKey(DatalocAppAttempt attempt) {
    for (SchedulerRequestKey key : attempt.getSchedulerKeys()) {
      if (isMapKey(key)) {
        return key;
      }
    }
    return null;
  }

  private void reconcileDirty() {
    if (dirty.isEmpty()) {
      return;
    }
    for (ApplicationId id : new ArrayList<>(dirty)) {
      dirty.remove(id);
      AppState a = apps.get(id);
      DatalocAppAttempt attempt = currentAttempt(id);
      if (attempt != null) {
        otherWork.add(id); // its asks changed: it may want something the engine does not serve
      }
      if (a == null) {
        strictAsks.remove(id); // an ask that came in as the application ended
      } else if (!a.strict && strictAsks.contains(id)) {
        a.strict = true;
        a.goOnline("its map asks forbid relaxing locality (relaxLocality false): served from them, not planned");
        dirty.remove(id);
        dmetrics.appsStrictLocality.incr();
        LOG.info("Dataloc: {} asks for maps with relaxLocality false; it is served from its asks as the stock "
            + "schedulers would serve it, not planned", id);
      }
      if (a != null && !a.servedFromAsks() && attempt != null) {
        working = id;
        faults.at(FaultInjector.RECONCILE, id);
        reconcile(a, attempt, mapKey(attempt), false);
        working = null;
      }
    }
  }

  /**
   * Keeps the engine's pending maps of a job true to the application's live asks: parks the job
   * while it asks for none, and applies the delta {@link AskReconciler} computes from the asks and
   * the job's pending tasks (the rule, planned and online, is stated and tested there).
   */
  private void reconcile(AppState a, DatalocAppAttempt attempt, SchedulerRequestKey key, boolean afterMiss) {
    if (a.phase == Phase.PLANNING && a.jobCreated) {
      return; // its plan is entering the engine
    }
    if (a.phase == Phase.READING || a.phase == Phase.PLANNING) {
      long waited = (System.nanoTime() - a.since) / 1_000_000;
      if (waited <= settings.readTimeoutMs() + settings.planBudgetMs()) {
        return;
      }
      dmetrics.placementFailures.incr();
      a.goOnline("placement or plan took longer than " + waited + " ms");
    }
    int wanted = key == null ? 0 : attempt.getOutstandingAsksCount(key, ResourceRequest.ANY);
    if (a.jobCreated) {
      // Not asking now: its tasks wait where they are until the application asks again.
      engine.setParked(a.jobId, wanted <= 0 || attempt == null || attempt.isStopped());
    }
    if (key != null) {
      a.sawMaps = true;
    }
    if (!a.sawMaps) {
      return;
    }
    // The count is kept by the engine; the list (a walk over the job's tasks) only when needed.
    JobState job = a.jobCreated ? engine.job(a.jobId) : null;
    int pendingCount = job == null ? 0 : job.pending();
    int bound = settings.bounds().onlineMaxPending();
    AskReconciler.Delta delta = a.phase == Phase.PLANNED
        ? AskReconciler.planned(key != null, wanted, pendingCount, a.tasks, bound)
        : AskReconciler.online(key != null, wanted, pendingCount, bound);
    if (delta.isNone()) {
      return;
    }
    if (delta.dropAll()) {
      engine.pendingTasks(a.jobId).forEach(engine::dropPending);
    } else if (delta.dropNewest() > 0) {
      List<Integer> drop = new ArrayList<>(engine.pendingTasks(a.jobId));
      Collections.reverse(drop);
      for (int i = 0; i < delta.dropNewest(); i++) {
        engine.dropPending(drop.get(i));
      }
    } else {
      List<Integer> pending = job == null ? List.of() : engine.pendingTasks(a.jobId);
      engine.addTasks(a.jobId, a.user, pseudoTasks(attempt, key, pending, delta.add()));
      if (a.phase != Phase.PLANNED) {
        a.jobCreated = true;
        engine.setPriority(a.jobId, applicationPriority(a.id));
        return; // an online job's tasks following its asks is no re-plan
      }
    }
    dmetrics.replans.incr();
  }

  /**
   * Tasks built from the attempt's host-level map asks (hosts the engine knows) and the job's
   * pending tasks, by {@link AskReconciler#tasksFromAsks}; callers bound {@code count}.
   */
  private List<List<String>> pseudoTasks(DatalocAppAttempt attempt, SchedulerRequestKey key, List<Integer> pending,
      int count) {
    Map<String, Integer> demand = new HashMap<>();
    var allocator = attempt.getAppSchedulingInfo().getAppPlacementAllocator(key);
    if (allocator != null) {
      for (Map.Entry<String, ResourceRequest> e : allocator.getResourceRequests().entrySet()) {
        int c = e.getValue().getNumContainers();
        if (c > 0 && engine.state().hostIndex(e.getKey()) >= 0) {
          demand.put(e.getKey(), c);
        }
      }
    }
    List<List<String>> pendingHosts = new ArrayList<>(pending.size());
    for (int t : pending) {
      int[] replicas = engine.state().replicas(t);
      List<String> hosts = new ArrayList<>(replicas.length);
      for (int h : replicas) {
        hosts.add(engine.state().hostName(h));
      }
      pendingHosts.add(hosts);
    }
    return AskReconciler.tasksFromAsks(demand, pendingHosts, count);
  }

  // ------------------------------------------------------------------ containers

  @Override
  protected synchronized void completedContainerInternal(RMContainer rmContainer, ContainerStatus status,
      RMContainerEventType event) {
    holds.enter();
    try {
      Container container = rmContainer.getContainer();
      DatalocAppAttempt attempt = getCurrentAttemptForContainer(container.getId());
      FiCaSchedulerNode node = (FiCaSchedulerNode) getNode(container.getNodeId());
      boolean launched = rmContainer.getState() == RMContainerState.RUNNING
          || rmContainer.getState() == RMContainerState.COMPLETED;
      Resource am = amContainers.remove(container.getId());
      if (am != null) {
        Resources.subtractFrom(amUsed, am);
      }
      Integer task = containerTask.remove(container.getId());
      if (task != null) {
        try {
          AppState a = attempt == null ? null : apps.get(attempt.getApplicationId());
          if (a != null) {
            faults.at(FaultInjector.COMPLETED, a.id);
          }
          if (!launched && (event == RMContainerEventType.RELEASED || event == RMContainerEventType.EXPIRE)) {
            // Never ran: the AM had no task for it; the task is still pending.
            engine.taskFailed(task);
            if (a != null && a.am != null) {
              a.am.markPending(engine.state().indexInJob(task));
            }
          } else if (status.getExitStatus() == ContainerExitStatus.SUCCESS) {
            engine.taskFinished(task);
          } else {
            // A failed map is retried by the AM under another priority; free the slot.
            engine.taskFinished(task);
          }
        } catch (RuntimeException e) {
          fail("completing " + container.getId(), e, attempt == null ? null : attempt.getApplicationId());
        }
      }
      if (attempt == null) {
        LOG.info("Container {} of an unknown application completed ({})", container.getId(), event);
        return;
      }
      // False for a container that already ended (its node kept its room until the NodeManager
      // says it is gone, and the node is now lost): counted out once, when it ended.
      boolean removed = attempt.containerCompleted(rmContainer, status, event,
          org.apache.hadoop.yarn.server.resourcemanager.nodelabels.RMNodeLabelsManager.NO_LABEL);
      if (node != null) {
        node.releaseContainer(rmContainer.getContainerId(), false);
      }
      if (removed) {
        Resources.subtractFrom(used, container.getResource()); // guaranteed only: YARN completes no other here
      }
      refreshFree();
      dirty.add(attempt.getApplicationId());
    } finally {
      holds.exit("completedContainerInternal");
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
   * A container recovered after a restart (called by the queue, under the lock): a guaranteed one
   * counts in {@code used}; an opportunistic one runs in a node's spare room and never does (Dataloc
   * allocates none; only a scheduler before the restart can have).
   */
  private void recovered(RMContainer c) {
    if (c.getExecutionType() != org.apache.hadoop.yarn.api.records.ExecutionType.OPPORTUNISTIC) {
      Resources.addTo(used, c.getAllocatedResource());
    }
  }

  /**
   * Containers a node reports as it registers with a restarted RM. The RM marks an attempt's AM
   * container only once it is recovered: it then counts against the AM limit, as one allocated here.
   */
  @Override
  public synchronized void recoverContainersOnNode(
      List<org.apache.hadoop.yarn.server.api.protocolrecords.NMContainerStatus> reports, RMNode nm) {
    holds.enter();
    try {
      super.recoverContainersOnNode(reports, nm);
      if (reports == null) {
        return;
      }
      for (var report : reports) {
        RMContainer c = getRMContainer(report.getContainerId());
        if (c != null && c.isAMContainer() && c.getState() != RMContainerState.COMPLETED
            && !amContainers.containsKey(c.getContainerId())) {
          amContainers.put(c.getContainerId(), c.getAllocatedResource());
          Resources.addTo(amUsed, c.getAllocatedResource());
        }
      }
      refreshFree();
    } finally {
      holds.exit("recoverContainersOnNode");
    }
  }

  @Override
  public void recover(RMState state) {
    // Applications and containers come back through APP_ADDED and NODE_ADDED; nothing else to do.
  }

  // ------------------------------------------------------------------ application priority

  /** An application's priority as YARN holds it (0 when unknown). */
  private int applicationPriority(ApplicationId id) {
    SchedulerApplication<DatalocAppAttempt> app = applications.get(id);
    return app == null || app.getPriority() == null ? 0 : app.getPriority().getPriority();
  }

  /**
   * As the CapacityScheduler: an application without a priority gets its user's default priority
   * from {@code acl.application-max-priority}, else 0 (Dataloc's one queue has no default priority
   * of its own); none gets more than {@code yarn.cluster.max-application-priority} (default 0, so by
   * default every application has priority 0, as under the stock schedulers); with
   * {@code yarn.acl.enable}, a priority above the user's maximum is refused with an
   * {@code AccessControlException}, at submission and on a change.
   */
  @Override
  public org.apache.hadoop.yarn.api.records.Priority checkAndGetApplicationPriority(
      org.apache.hadoop.yarn.api.records.Priority requested, UserGroupInformation user, String queuePath,
      ApplicationId applicationId) throws org.apache.hadoop.yarn.exceptions.YarnException {
    var acls = priorityAcls;
    org.apache.hadoop.yarn.api.records.Priority p = requested;
    if (p == null) {
      p = user == null ? null : acls.getDefaultPriority(DatalocQueue.NAME, user);
      if (p == null) {
        p = org.apache.hadoop.yarn.api.records.Priority.newInstance(0);
      }
    }
    int max = getMaxClusterLevelAppPriority().getPriority();
    if (p.getPriority() > max) {
      p = org.apache.hadoop.yarn.api.records.Priority.newInstance(max);
    }
    if (user != null && !acls.checkAccess(user, DatalocQueue.NAME, p)) {
      throw new org.apache.hadoop.yarn.exceptions.YarnException(new org.apache.hadoop.security.AccessControlException(
          "User " + user.getShortUserName() + " does not have permission to submit/update " + applicationId + " for "
              + p + " (" + DatalocConfiguration.ACL_MAX_PRIORITY.fullName() + ")"));
    }
    return org.apache.hadoop.yarn.api.records.Priority.newInstance(p.getPriority());
  }

  /** The priority ACLs of {@code acl.application-max-priority}, for Dataloc's one queue. */
  private org.apache.hadoop.yarn.server.resourcemanager.security.AppPriorityACLsManager priorityAcls(
      Configuration conf, DatalocConfiguration.Settings s) {
    var m = new org.apache.hadoop.yarn.server.resourcemanager.security.AppPriorityACLsManager(conf);
    int max = conf.getInt(YarnConfiguration.MAX_CLUSTER_LEVEL_APPLICATION_PRIORITY,
        YarnConfiguration.DEFAULT_CLUSTER_LEVEL_APPLICATION_PRIORITY);
    m.addPrioirityACLs(DatalocConfiguration.priorityAclGroups(s.aclMaxPriority(), max), DatalocQueue.NAME);
    return m;
  }

  /**
   * Changes a running application's priority as the CapacityScheduler does: capped, saved in the
   * state store, then used at once — its maps are served before those of lower priority in every
   * queue of the engine, and its other requests (AM, reduces) before theirs.
   */
  @Override
  public org.apache.hadoop.yarn.api.records.Priority updateApplicationPriority(
      org.apache.hadoop.yarn.api.records.Priority newPriority, ApplicationId applicationId,
      org.apache.hadoop.thirdparty.com.google.common.util.concurrent.SettableFuture<Object> future,
      UserGroupInformation user)
      throws org.apache.hadoop.yarn.exceptions.YarnException {
    SchedulerApplication<DatalocAppAttempt> app = applications.get(applicationId);
    var rmApp = rmContext.getRMApps().get(applicationId);
    if (app == null || rmApp == null) {
      throw new org.apache.hadoop.yarn.exceptions.YarnException(
          "Application '" + applicationId + "' is not present, hence could not change priority.");
    }
    // One change at a time, from the store write to the scheduler's state: two clients' changes
    // must land in the same order in both. The store write is not made under the scheduler's lock.
    synchronized (priorityChanges) {
      org.apache.hadoop.yarn.api.records.Priority p =
          checkAndGetApplicationPriority(newPriority, user, DatalocQueue.NAME, applicationId);
      if (p.equals(app.getPriority())) {
        future.set(null);
        return p;
      }
      rmApp.getApplicationSubmissionContext().setPriority(p);
      var stored = org.apache.hadoop.yarn.server.resourcemanager.recovery.records.ApplicationStateData.newInstance(
          rmApp.getSubmitTime(), rmApp.getStartTime(), rmApp.getApplicationSubmissionContext(), rmApp.getUser(),
          rmApp.getRealUser(), rmApp.getCallerContext());
      stored.setApplicationTimeouts(rmApp.getApplicationTimeouts());
      stored.setLaunchTime(rmApp.getLaunchTime());
      rmContext.getStateStore().updateApplicationStateSynchronously(stored, false, future);
      synchronized (this) {
        holds.enter();
        try {
          boolean walked = otherWork.remove(applicationId); // its place in the walk depends on the priority
          app.setPriority(p);
          if (app.getCurrentAppAttempt() != null) {
            app.getCurrentAppAttempt().setPriority(p); // what its pages show
          }
          if (walked) {
            otherWork.add(applicationId);
          }
          AppState a = apps.get(applicationId);
          if (a != null) {
            engine.setPriority(a.jobId, p.getPriority());
          }
        } finally {
          holds.exit("updateApplicationPriority");
        }
      }
      LOG.info("Dataloc: priority of {} is now {}", applicationId, p.getPriority());
      return p;
    }
  }

  // ------------------------------------------------------------------ queues and info

  /** The one queue's names: {@code default} and its full path {@code root.default}. */
  private static boolean isOurQueue(String name) {
    return DatalocQueue.NAME.equals(name) || ("root." + DatalocQueue.NAME).equals(name);
  }

  /** The root of the queue tree, as clients ({@code yarn queue -list}, {@code getAllQueues}) ask for it. */
  private static boolean isRoot(String name) {
    return "root".equals(name);
  }

  /** The one queue's information; any other name is an unknown queue, as under the CapacityScheduler. */
  @Override
  public QueueInfo getQueueInfo(String queueName, boolean includeChildQueues, boolean recursive) throws IOException {
    if (isRoot(queueName)) {
      return queue.getRootQueueInfo();
    }
    if (!isOurQueue(queueName)) {
      throw new IOException("Unknown queue: " + queueName + " (Dataloc has one queue, " + DatalocQueue.NAME + ")");
    }
    return queue.getQueueInfo(false, false);
  }

  @Override
  public List<QueueUserACLInfo> getQueueUserAclInfo() {
    try {
      return queue.getQueueUserAclInfo(UserGroupInformation.getCurrentUser());
    } catch (IOException e) {
      return queue.getQueueUserAclInfo(null);
    }
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
    return metrics;
  }

  @Override
  public boolean checkAccess(UserGroupInformation callerUGI, QueueACL acl, String queueName) {
    return queue.hasAccess(acl, callerUGI);
  }

  @Override
  public synchronized List<ApplicationAttemptId> getAppsInQueue(String queueName) {
    holds.enter();
    try {
      if (!isOurQueue(queueName) && !isRoot(queueName)) {
        return null;
      }
      List<ApplicationAttemptId> out = new ArrayList<>();
      for (SchedulerApplication<DatalocAppAttempt> app : applications.values()) {
        if (app.getCurrentAppAttempt() != null) {
          out.add(app.getCurrentAppAttempt().getApplicationAttemptId());
        }
      }
      return out;
    } finally {
      holds.exit("getAppsInQueue");
    }
  }

  /** The longest hold of the scheduler's lock so far, and where (benchmarks, the scheduler page). */
  public synchronized String lockHoldReport() {
    LockHolds.Report r = holds.report();
    return String.format(java.util.Locale.ROOT,
        "longest %.3f ms wall (%s), %.3f ms CPU (%s: %s) over %,d holds, %.1f ms in all [%s]", r.maxNanos() / 1e6,
        r.maxWhere(), r.maxCpuNanos() / 1e6, r.maxCpuWhere(), r.maxCpuSegments(), r.count(), r.totalNanos() / 1e6,
        holds.bySite());
  }

  /** The longest hold of the scheduler's lock so far, in nanoseconds: {wall, CPU of the holder}. */
  public synchronized long[] maxLockHoldNanos() {
    LockHolds.Report r = holds.report();
    return new long[] {r.maxNanos(), r.maxCpuNanos()};
  }

  /** Forgets the lock holds measured so far (a benchmark's warm-up). */
  public synchronized void resetLockHolds() {
    holds.reset();
  }

  /**
   * What the engine holds now (tests, soak runs): active jobs, live tasks, task numbers in use,
   * running tasks, containers tied to a task.
   */
  public synchronized int[] engineCounts() {
    holds.enter();
    try {
      int running = 0;
      for (JobState j : engine.state().activeJobs()) {
        running += j.running();
      }
      return new int[] {engine.activeJobs(), engine.state().liveTasks(), engine.state().taskCount(), running,
          containerTask.size()};
    } finally {
      holds.exit("engineCounts");
    }
  }

  /**
   * Where an application's pending engine tasks wait (host name, or "shared" for a queue of no
   * host), whether its job is parked, and those hosts' states (diagnostics for tests).
   */
  public synchronized String describePending(ApplicationId id) {
    AppState a = apps.get(id);
    if (a == null || !a.jobCreated || engine.job(a.jobId) == null) {
      return "no engine job";
    }
    Map<String, Integer> where = new java.util.TreeMap<>();
    for (int t : engine.pendingTasks(a.jobId)) {
      int h = engine.policy().queueHostOf(t);
      String name = h < 0 ? "shared" : engine.state().hostName(h) + (engine.state().alive(h) ? "" : "(dead)")
          + (engine.state().draining(h) ? "(draining)" : "") + "[slots " + engine.state().slots(h) + ", running "
          + engine.state().running(h) + "]";
      where.merge(name, 1, Integer::sum);
    }
    return "parked " + engine.parked(a.jobId) + ", phase " + a.phase + ", pending at " + where;
  }

  /** Memory held by ApplicationMaster containers this scheduler allocated and still counts. */
  public synchronized long amMemoryUsed() {
    holds.enter();
    try {
      return amUsed.getMemorySize();
    } finally {
      holds.exit("amMemoryUsed");
    }
  }

  public Resource getUsedResource() {
    return used;
  }

  /** A snapshot of every job for the scheduler page and tests. */
  public synchronized List<JobReport> jobReports() {
    holds.enter();
    try {
      List<JobReport> out = new ArrayList<>();
      for (AppState a : apps.values()) {
        JobState j = a.jobCreated ? engine.job(a.jobId) : null;
        String phase = a.killed ? "killed" : a.contained ? "contained" : a.strict ? "strict locality"
            : a.phase.name().toLowerCase();
        out.add(new JobReport(a.id.toString(), a.user, phase, a.source, a.planner, a.tasks,
            a.plan, a.planMillis, a.nodeLocal, a.rackLocal, a.offSwitch, j == null ? 0 : j.pending(),
            j == null ? 0 : j.running(), a.note, a.lastReason));
      }
      return out;
    } finally {
      holds.exit("jobReports");
    }
  }

  /** One job as the scheduler page shows it. */
  public record JobReport(String application, String user, String phase, String source, String planner, int tasks,
      Evaluation plan, double planMillis, int nodeLocal, int rackLocal, int offSwitch, int pending, int running,
      String note, String lastReason) {}

  // ------------------------------------------------------------------ per-application state

  enum Phase { READING, PLANNING, PLANNED, ONLINE }

  /** A map container served from a job's asks before its plan came. */
  record EarlyMap(ContainerId container, String host, String rack) {}

  /** What the adapter knows of one application (guarded by the scheduler lock). */
  private final class AppState {
    final ApplicationId id;
    final long jobId;
    final String user;
    Phase phase = Phase.ONLINE;
    long since = System.nanoTime();
    AmReplay am;
    boolean jobCreated;
    boolean sawMaps;
    /** Out of the engine after an error in its work: served from its asks (see contain). */
    boolean contained;
    /** Killed after a second error: nothing more is allocated to it. */
    boolean killed;
    /** Its map asks forbid relaxing locality: served from them, never planned (for good). */
    boolean strict;
    String source = "asks";
    String planner = "none";
    String note = "";
    String lastReason = "";
    Evaluation plan;
    double planMillis;
    /** The plan's shape: waves on its busiest host, and most tasks at once on one host. */
    int planWaves;
    int planConcurrency;
    /** How many of this job's maps each host runs at once, as planned (by node name). */
    final Map<String, Integer> planSlots = new HashMap<>();
    int tasks;
    int nodeLocal;
    int rackLocal;
    int offSwitch;
    /** Consecutive declined containers per node (AM would have run a non-local task there). */
    final Map<String, Integer> declines = new HashMap<>();
    /** Map containers allocated on each host over the job's life. */
    final Map<String, Integer> mapsOn = new HashMap<>();
    /** Map containers served from its asks while it waited for its plan, in order (bounded). */
    final List<EarlyMap> early = new ArrayList<>();
    /** More were served than {@code early} holds: they cannot be tied to tasks. */
    boolean earlyOverflow;

    AppState(ApplicationId id, long jobId, String user) {
      this.id = id;
      this.jobId = jobId;
      this.user = user;
    }

    /** Out of the engine: its maps are served from its asks as everything else of it is. */
    boolean servedFromAsks() {
      return contained || strict;
    }

    /** Its placement is being read or planned: its maps are served from its asks meanwhile. */
    boolean waiting() {
      return phase == Phase.READING || phase == Phase.PLANNING;
    }

    void early(ContainerId container, String host, String rack, int bound) {
      if (early.size() < bound) {
        early.add(new EarlyMap(container, host, rack));
      } else {
        earlyOverflow = true;
      }
    }

    void goOnline(String why) {
      otherWork.add(id);
      if (phase == Phase.PLANNED || jobCreated) {
        dropJob();
      }
      phase = Phase.ONLINE;
      am = null;
      early.clear();
      source = "asks";
      note = why;
      dirty.add(id);
    }

    void dropJob() {
      if (jobCreated) {
        // Before the engine frees the job's task numbers (they are reused).
        containerTask.values().removeIf(t -> engine.state().job(t) != null && engine.state().job(t).id() == jobId);
        engine.removeJob(jobId);
        jobCreated = false;
      }
    }

    void count(NodeType type) {
      switch (type) {
        case NODE_LOCAL -> nodeLocal++;
        case RACK_LOCAL -> rackLocal++;
        default -> offSwitch++;
      }
    }
  }
}
