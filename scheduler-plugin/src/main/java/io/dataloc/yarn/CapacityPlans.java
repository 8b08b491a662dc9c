package io.dataloc.yarn;

import io.dataloc.core.am.MapService;
import io.dataloc.core.am.WaitLog;
import io.dataloc.core.engine.Decision;
import io.dataloc.core.engine.DecisionEngine;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerEventType;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ClusterNodeTracker;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.NodeType;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.apache.hadoop.yarn.server.scheduler.SchedulerRequestKey;
import org.apache.hadoop.yarn.util.Clock;
import org.apache.hadoop.yarn.util.resource.ResourceCalculator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The plan service as the CapacityScheduler's placement component sees it ({@code
 * io.dataloc.yarn.cs}): YARN's facts in, one answer out per question the CapacityScheduler asks of
 * a planned job's map key. The CapacityScheduler's queues choose which job a node serves; the plan
 * says whether that job should take the node:
 *
 * <ul>
 *   <li>{@link #precheck}: a node is let through when the engine holds a task of the job for it
 *       ({@link DecisionEngine#proposeFor}, pure and amortised {@code O(1)}) and the plan's two
 *       declines ({@link MapService#declines}) pass; while its placement is read and planned, only
 *       nodes its AM asks for (its early maps are node-local); a job that has gone {@code
 *       cs.max-wait-ms} without a map container since its first veto takes whatever the
 *       CapacityScheduler offers until its next container. A veto counts no scheduling opportunity
 *       and skips the application, not the node.
 *   <li>{@link #following}: while a job follows its plan the veto is its delay, so the
 *       CapacityScheduler's own off-switch delay is waived (one unique location).
 *   <li>{@link #stillWants}: at commit, only the race of two proposals for one queued task is vetoed.
 *   <li>{@link #allocated} and {@link #containerAllocated}: the engine commits the task the AM will
 *       run in the container ({@link MapService#carryOut}), and the container is tied to it once
 *       the commit names it; {@link #containerDone} ends the task ({@link TaskEnd}).
 * </ul>
 *
 * <p>Every method takes only the plan lock (a leaf: see {@link PlanService}), after any snapshot
 * of YARN's objects; each is bounded (no walk over jobs, nodes or asks under the lock but the
 * reconciliation of at most {@value #RECONCILE_PER_HEARTBEAT} applications per node heartbeat).
 * Errors go to the caller, which falls back to the stock answer and reports them with
 * {@link #failed}.
 */
public final class CapacityPlans {
  private static final Logger LOG = LoggerFactory.getLogger(CapacityPlans.class);
  /** Applications reconciled per node heartbeat at most. */
  static final int RECONCILE_PER_HEARTBEAT = 256;
  /** Host-level asks copied per snapshot at most (a hostile AM may name any number of hosts). */
  static final int MAX_DEMAND_HOSTS = 100_000;

  /** What {@link #precheck} says of a node for a job. */
  public enum Answer {
    /** Dataloc has no opinion: the stock answer stands (reservations allowed). */
    STOCK,
    /** The plan wants it: let it through if the map fits now (a planned key never reserves). */
    ADMIT,
    /**
     * The job waits for its plan: let the node through if the AM asks for maps on it and the map
     * fits now (an early map, on its data); else it is a veto. The caller reads its asks, with no
     * plan lock held.
     */
    ADMIT_IF_ASKED,
    /** The plan does not want it now. */
    VETO
  }

  private final PlanService plans;
  private final DatalocState state;
  private final NodeSizes sizes;
  private final Clock clock;

  /**
   * @param conf the ResourceManager's configuration (Dataloc's keys; standalone-only keys refused)
   * @param nodes the CapacityScheduler's node tracker (thread-safe; read before the plan lock)
   * @param clock where Dataloc reads the time (YARN's {@code SystemClock}; tests control it)
   */
  public CapacityPlans(Configuration conf, RMContext rmContext, ClusterNodeTracker<? extends SchedulerNode> nodes,
      ResourceCalculator calculator, Supplier<Resource> minimumAllocation, UnaryOperator<Resource> normalize,
      Clock clock) {
    Settings settings = DatalocConfiguration.insideCapacityScheduler(conf);
    this.clock = clock;
    this.sizes = new NodeSizes(nodes, calculator, minimumAllocation);
    this.plans = new PlanService(new Object(), settings, new Configuration(conf), rmContext, sizes, normalize,
        id -> null, id -> 0, clock::getTime, true, this::rebuildEngine);
    this.state = plans.state;
    state.wire(plans.containment, id -> {});
    LOG.info("Dataloc plans map placement inside the CapacityScheduler: assigner {}, online policy {}, queues {}, "
        + "cs.max-wait-ms {}", settings.assigner(), settings.policy(),
        settings.csQueues().isEmpty() ? "all" : settings.csQueues(), settings.csMaxWaitMs());
  }

  public void stop() {
    plans.stop();
    DatalocMetrics.unregister();
  }

  /** Why each application waits. */
  public WaitReports waits() {
    return plans.waits;
  }

  public DatalocMetrics metrics() {
    return state.metrics();
  }

  public Settings settings() {
    return state.settings();
  }

  /** For tests: where Dataloc works for one application, {@code f} may throw. */
  public void setFaultInjector(FaultInjector f) {
    state.faults(f);
  }

  /**
   * The plan lock itself, for the tests' lock-order checker only: nothing outside this package
   * may take it.
   */
  public Object lockForTesting() {
    return state.lock();
  }

  /** The longest hold of the plan lock since the last reset: wall and CPU nanoseconds (benchmarks). */
  public long[] maxHoldNanos() {
    synchronized (state.lock()) {
      LockHolds.Report r = state.holds().report();
      return new long[] {r.maxNanos(), r.maxCpuNanos()};
    }
  }

  /** Every hold of the plan lock by site since the last reset (benchmarks). */
  public String holds() {
    synchronized (state.lock()) {
      return state.holds().describe();
    }
  }

  public void resetHolds() {
    synchronized (state.lock()) {
      state.holds().reset();
    }
  }

  /** The application's state as the scheduler page names it (reading, planned, online, ...), or null. */
  public String phaseOf(ApplicationId id) {
    synchronized (state.lock()) {
      DatalocApp a = state.apps().get(id);
      return a == null ? null : a.phaseName();
    }
  }

  /**
   * {@code -refreshQueues}, first step: Dataloc's keys checked; an invalid or start-only value is
   * refused ("refused: ..." naming the key) and nothing changes. Then {@link #apply}: changed
   * engine settings rebuild the engine (running jobs continue from their asks).
   */
  public Settings validate(Configuration conf) throws java.io.IOException {
    for (DatalocKeys.Key k : DatalocKeys.STANDALONE_ONLY) {
      String v = conf.getTrimmed(k.fullName());
      if (v != null && !v.isEmpty() && !v.equals(k.defaultValue())) {
        throw new java.io.IOException("refused: " + k.fullName() + " is a setting of the standalone scheduler only");
      }
    }
    return DatalocConfiguration.onRefresh(conf, state.settings());
  }

  /** Applies settings {@link #validate} accepted (after the CapacityScheduler accepted its own refresh). */
  public void apply(Settings next) {
    synchronized (state.lock()) {
      state.holds().enter();
      try {
        if (!next.engineConfig().equals(state.settings().engineConfig()) || plans.containment.degraded()) {
          rebuildEngine(next);
          plans.containment.endDegraded();
        }
        state.settings(next);
        plans.pipeline.reconfigure(next);
      } finally {
        state.holds().exit("cs: refresh");
      }
    }
  }

  /** A new, empty engine on the old one's live hosts; every application goes online. Under the plan lock. */
  private void rebuildEngine(Settings next) {
    DecisionEngine old = state.engine();
    DecisionEngine fresh = new DecisionEngine(next.engineConfig());
    var s = old.state();
    for (int h = 0; h < s.hostCount(); h++) {
      if (s.alive(h)) {
        fresh.addHost(s.hostName(h), s.rackName(s.rackOf(h)), s.slots(h));
      }
    }
    state.engine(fresh);
    state.apps().forgetTies();
    for (DatalocApp a : state.apps().all()) {
      state.apps().goOnline(a, "reconfigured");
    }
  }

  /** Runs {@code body} under the plan lock, its hold measured as {@code site}. */
  private void locked(String site, Runnable body) {
    synchronized (state.lock()) {
      state.holds().enter();
      try {
        body.run();
      } finally {
        state.holds().exit(site);
      }
    }
  }

  /**
   * An error met in Dataloc's code for an application (null: none): it costs that application
   * (served as stock from now on, killed after a second), else Dataloc degrades to stock answers
   * for a while ({@link Containment}). Never throws but a virtual machine error, which the
   * ResourceManager is told of as a critical thread's crash; call with no lock of ours held.
   */
  public void failed(String what, Throwable t, ApplicationId app) {
    if (t instanceof VirtualMachineError) {
      throw Containment.escalate(state, what, (VirtualMachineError) t);
    }
    try {
      plans.containment.fail(what, t, app);
    } catch (RuntimeException again) {
      LOG.error("Dataloc: error while containing an error ({})", what, again);
    }
  }

  /** Whether Dataloc answers stock for everything after an error no application was blamed for. */
  public boolean degraded() {
    return plans.containment.degraded();
  }

  /**
   * An allocator attached to a request key: whether it follows this key's plan (the map key —
   * priority {@code map-priority} — of a job Dataloc knows). Counts every attach.
   */
  public boolean attach(ApplicationAttemptId attempt, SchedulerRequestKey key) {
    state.metrics().csAttaches.incr();
    if (!state.settings().isMapKey(key)) {
      return false;
    }
    synchronized (state.lock()) {
      return state.apps().contains(attempt.getApplicationId());
    }
  }

  /**
   * An application the CapacityScheduler accepted into {@code leaf} (path {@code path}): Dataloc
   * plans it if its queue is one of {@code cs.queues}; its placement read starts now.
   */
  public void appAdded(ApplicationId id, String user, String leaf, String path, boolean recovering) {
    if (!state.settings().plansQueue(leaf, path)) {
      return;
    }
    locked("cs: app added", () -> {
      if (state.apps().contains(id)) {
        return;
      }
      DatalocApp a = state.apps().add(id, user);
      if (recovering) {
        state.apps().goOnline(a, "recovered after a ResourceManager restart: served from its re-sent asks");
      } else {
        plans.pipeline.start(a);
      }
    });
  }

  /** A new attempt: a second one re-requests what is left in an order no replay knows (served as stock). */
  public void attemptAdded(ApplicationAttemptId attempt) {
    if (attempt.getAttemptId() <= 1) {
      return;
    }
    locked("cs: attempt added", () -> {
      DatalocApp a = state.apps().get(attempt.getApplicationId());
      if (a != null) {
        // The new AM asks afresh: nothing the old one asked for stands.
        a.askingMaps = false;
        a.wantedMaps = 0;
        a.declinesSince = 0;
        state.apps().goOnline(a, "AM attempt " + attempt.getAttemptId());
      }
    });
  }

  /** The application ended: its job and ties are released (idempotent). */
  public void appRemoved(ApplicationId id) {
    locked("cs: app removed", () -> state.apps().remove(id));
  }

  public void nodeAdded(SchedulerNode node) {
    EngineNodes.Facts f = EngineNodes.Facts.of(node, sizes);
    locked("cs: node added", () -> plans.nodes.added(f));
  }

  public void nodeRemoved(String name) {
    locked("cs: node removed", () -> plans.nodes.removed(name));
  }

  /** A node's resource or partition changed. */
  public void nodeChanged(SchedulerNode node) {
    EngineNodes.Facts f = EngineNodes.Facts.of(node, sizes);
    locked("cs: node changed", () -> {
      plans.nodes.resized(f);
      plans.nodes.mapSlots(f);
    });
  }

  /**
   * A node heartbeat (after the CapacityScheduler's): the engine's clock, the node's map slots and
   * decommissioning, a degraded spell's end, and the applications whose asks changed.
   */
  public void nodeHeartbeat(SchedulerNode node) {
    EngineNodes.Facts f = EngineNodes.Facts.of(node, sizes);
    long now = clock.getTime();
    locked("cs: node heartbeat", () -> {
      plans.containment.recoverIfQuiet();
      state.engine().advanceTo(TimeUnit.MILLISECONDS.toSeconds(now));
      plans.nodes.drainIfDecommissioning(f);
      plans.nodes.mapSlots(f);
      if (!plans.containment.degraded()) {
        reconcileChanged();
      }
    });
  }

  /** Applications whose asks or plan changed, oldest first, at most {@value #RECONCILE_PER_HEARTBEAT}. */
  private void reconcileChanged() {
    for (ApplicationId id : state.apps().takeDirty(RECONCILE_PER_HEARTBEAT)) {
      DatalocApp a = state.apps().get(id);
      if (a != null && !a.servedFromAsks()) {
        reconcile(a, Map.of());
      }
    }
  }

  /** Reconciles with the asks last seen; their host-level demand only if given (it is not kept). */
  private void reconcile(DatalocApp a, Map<String, Integer> demand) {
    plans.asks.reconcile(a, a.askingMaps, a.wantedMaps, false, () -> demand);
  }

  /**
   * The map asks of an application changed (its allocator's table, read by the caller's thread
   * under YARN's locks for that table, before the plan lock): the engine follows them; an ask that
   * forbids relaxing locality takes the job off its plan for good.
   */
  public void asksChanged(ApplicationId id, Map<String, ResourceRequest> table, Collection<ResourceRequest> changed) {
    ResourceRequest any = table.get(ResourceRequest.ANY);
    boolean asking = any != null;
    int wanted = any == null ? 0 : Math.max(0, any.getNumContainers());
    boolean strict = AskSync.forbidsRelaxing(changed, state.settings().mapPriority());
    Map<String, Integer> demand = new HashMap<>();
    for (Map.Entry<String, ResourceRequest> e : table.entrySet()) {
      if (demand.size() >= MAX_DEMAND_HOSTS) {
        break;
      }
      String name = e.getKey();
      if (!ResourceRequest.isAnyLocation(name) && !name.startsWith("/") && e.getValue().getNumContainers() > 0) {
        demand.put(name, e.getValue().getNumContainers());
      }
    }
    locked("cs: asks", () -> {
      DatalocApp a = state.apps().get(id);
      if (a == null || a.servedFromAsks()) {
        return;
      }
      if (strict) {
        a.strict = true;
        state.apps().goOnline(a, "its map asks forbid relaxing locality (relaxLocality false): served from them");
        state.metrics().appsStrictLocality.incr();
        return;
      }
      if (!a.askingMaps || a.wantedMaps <= 0) {
        a.declinesSince = 0; // asking again: its wait starts now
      }
      a.askingMaps = asking;
      a.wantedMaps = wanted;
      state.working(id);
      state.faults().at(FaultInjector.RECONCILE, id);
      reconcile(a, demand);
      state.working(null);
    });
  }

  /**
   * Whether a node should go to this attempt's map key now (see the class comment). Pure but for
   * the plan's declines' bookkeeping and the start of the job's wait.
   */
  public Answer precheck(ApplicationAttemptId attempt, SchedulerNode node) {
    String name = node.getNodeName();
    long now = clock.getTime();
    synchronized (state.lock()) {
      state.holds().enter();
      try {
        DatalocApp a = state.apps().get(attempt.getApplicationId());
        if (a == null || a.servedFromAsks() || a.phase() == DatalocApp.Phase.ONLINE || plans.containment.degraded()) {
          return Answer.STOCK;
        }
        state.working(a.id);
        state.faults().at(FaultInjector.PRECHECK, a.id);
        if (wanted(a, name)) {
          return Answer.ADMIT;
        }
        long maxWait = state.settings().csMaxWaitMs();
        if (a.declinesSince == 0) {
          a.declinesSince = now;
        }
        if (now - a.declinesSince >= maxWait) {
          if (!a.fallingBack) {
            a.fallingBack = true;
            state.metrics().csFallbacks.incr();
          }
          return Answer.STOCK;
        }
        if (a.waiting()) {
          return Answer.ADMIT_IF_ASKED; // an early map, on its data
        }
        state.metrics().declines.incr();
        a.waits.refused(now, name, WaitLog.Cause.NOT_PLANNED_HERE, -1, null);
        return Answer.VETO;
      } finally {
        state.working(null);
        state.holds().exit("cs: precheck");
      }
    }
  }

  /** The engine holds a task of the planned job for this host and the plan's declines pass. Under the lock. */
  private boolean wanted(DatalocApp a, String host) {
    if (a.phase() != DatalocApp.Phase.PLANNED) {
      return false;
    }
    DecisionEngine engine = state.engine();
    int h = engine.state().hostIndex(host);
    Decision d = h < 0 ? null : engine.proposeFor(a.jobId, h);
    if (d == null) {
      return false;
    }
    return a.am == null || !MapService.declines(engine, a, d, host, step -> {}).verdict().declines();
  }

  /** Whether the job's vetoes have ended for now (past {@code cs.max-wait-ms}: served as stock until its next map). */
  private static boolean fallingBack(DatalocApp a) {
    return a.fallingBack;
  }

  /**
   * While a job follows its plan the plan's veto is its delay: the CapacityScheduler's off-switch
   * delay is waived (it would count only the visits the plan admits, so the two would multiply).
   */
  public boolean following(ApplicationId id) {
    synchronized (state.lock()) {
      state.holds().enter();
      try {
        DatalocApp a = state.apps().get(id);
        return a != null && a.phase() == DatalocApp.Phase.PLANNED && !a.servedFromAsks() && !fallingBack(a)
            && !plans.containment.degraded();
      } finally {
        state.holds().exit("cs: following");
      }
    }
  }

  /**
   * At commit: false only when a planned job, still following its plan, has no task left for the
   * node (another proposal took it first). Never asked of a reserved allocation.
   */
  public boolean stillWants(ApplicationId id, SchedulerNode node) {
    String name = node.getNodeName();
    synchronized (state.lock()) {
      state.holds().enter();
      try {
        DatalocApp a = state.apps().get(id);
        if (a == null || a.phase() != DatalocApp.Phase.PLANNED || a.servedFromAsks() || fallingBack(a)
            || plans.containment.degraded()) {
          return true;
        }
        DecisionEngine engine = state.engine();
        int h = engine.state().hostIndex(name);
        return h < 0 || engine.proposeFor(a.jobId, h) != null;
      } finally {
        state.holds().exit("cs: still wants");
      }
    }
  }

  /**
   * A map container of the job is being allocated on {@code node} (the commit, under the
   * CapacityScheduler's write lock): the engine commits the task the AM will run in it, which
   * waits for the container's id ({@link #containerAllocated}); the job's wait ends.
   */
  public void allocated(ApplicationId id, SchedulerNode node, NodeType type) {
    String host = node.getNodeName();
    String rack = node.getRackName();
    locked("cs: allocated", () -> {
      DatalocApp a = state.apps().get(id);
      if (a == null || a.servedFromAsks()) {
        return;
      }
      state.working(id);
      state.faults().at(FaultInjector.COMMIT, id);
      a.declinesSince = 0;
      a.fallingBack = false;
      a.waits.served(state.nowMillis());
      a.count(type, host);
      state.locality().count(type, state.nowMillis());
      int task = -1;
      if (a.waiting()) {
        state.metrics().mapsBeforePlan.incr();
      } else if (a.phase() == DatalocApp.Phase.PLANNED || a.jobCreated) {
        task = commitTask(a, host, rack);
      }
      a.awaitingContainers.computeIfAbsent(host, k -> new ArrayDeque<>()).add(task);
      state.working(null);
    });
  }

  /** The engine task the container on {@code host} runs, committed; -1 if none. Under the lock. */
  private int commitTask(DatalocApp a, String host, String rack) {
    DecisionEngine engine = state.engine();
    int h = engine.state().hostIndex(host);
    if (h < 0 || !engine.state().alive(h)) {
      return -1;
    }
    Decision d = engine.proposeFor(a.jobId, h);
    if (d != null) {
      return MapService.carryOut(engine, a.am == null ? null : a, d, MapService.Admit.TAKE_AS_DECIDED).task();
    }
    if (a.am == null) {
      return -1; // no replay: a queued task of the job goes when the asks say so
    }
    // Off its plan (a fallback container): the task the AM runs here leaves its queue.
    int index = a.am.take(h, engine.state().rackOf(h));
    int task = index < 0 ? -1 : engine.task(a.jobId, index);
    if (task >= 0 && engine.startedOutside(task, h)) {
      return task;
    }
    if (task >= 0) {
      engine.dropPending(task);
    }
    return -1;
  }

  /**
   * The commit named the container allocated on {@code host}: the oldest task awaiting a container
   * there is tied to it (or, for a job waiting for its plan, it is kept as an early map).
   */
  public void containerAllocated(ApplicationId id, ContainerId container, String host, String rack) {
    locked("cs: tie", () -> {
      DatalocApp a = state.apps().get(id);
      ArrayDeque<Integer> awaiting = a == null ? null : a.awaitingContainers.get(host);
      if (awaiting == null || awaiting.isEmpty()) {
        return;
      }
      int task = awaiting.poll();
      if (awaiting.isEmpty()) {
        a.awaitingContainers.remove(host);
      }
      if (task >= 0) {
        state.apps().tie(container, task);
      } else if (a.waiting()) {
        a.early(container, host, rack, state.settings().bounds().onlineMaxPending());
      } else if (a.phase() == DatalocApp.Phase.PLANNED && a.am != null) {
        lateEarlyMap(a, container, host);
      }
    });
  }

  /**
   * An early map whose container the commit named only after the job's plan came in (the plan
   * landed between the allocation and the commit's hook): the AM runs in it the task its rule
   * picks, so the replay takes it and the engine starts it there, as for the other early maps.
   */
  private void lateEarlyMap(DatalocApp a, ContainerId container, String host) {
    DecisionEngine engine = state.engine();
    int h = engine.state().hostIndex(host);
    if (h < 0) {
      return;
    }
    int index = a.am.take(h, engine.state().rackOf(h));
    int task = index < 0 ? -1 : engine.task(a.jobId, index);
    if (task >= 0 && engine.startedOutside(task, h)) {
      state.apps().tie(container, task);
    } else if (task >= 0) {
      engine.dropPending(task);
    }
  }

  /** A container ended: its task, if it ran one of the engine's, ends ({@link TaskEnd}). */
  public void containerDone(ApplicationId id, ContainerId container, boolean launched, RMContainerEventType event) {
    locked("cs: container done", () -> {
      DatalocApp a = state.apps().get(id);
      Integer task = state.apps().untie(container);
      if (task != null) {
        TaskEnd.apply(state.engine(), a, task, launched, event);
      } else if (a != null && a.waiting()) {
        a.earlyEnded.add(container);
      }
    });
  }
}
