package io.dataloc.yarn;

import io.dataloc.core.engine.DecisionEngine;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptImpl;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ClusterNodeTracker;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.apache.hadoop.yarn.server.scheduler.SchedulerRequestKey;
import org.apache.hadoop.yarn.util.Clock;
import org.apache.hadoop.yarn.util.resource.ResourceCalculator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The plan service as the CapacityScheduler's placement component sees it ({@code
 * io.dataloc.yarn.cs}): YARN's facts in — applications, attempts, nodes, heartbeats, asks,
 * refreshes — and, for each request key, what its allocator does ({@link #attach}). The answers
 * to the CapacityScheduler's questions are {@link #answers()}; the map containers it commits are
 * {@link #commits()}.
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

  /** What an allocator does for its request key ({@link #attach}). */
  public enum Role {
    /** Stock answers only. */
    STOCK,
    /** The map key of a job Dataloc plans: the answers follow the plan. */
    MAPS,
    /** The AM key of a job Dataloc plans: while the AM waits for its container, {@link CapacityAnswers#amTakes}. */
    AM
  }

  private final PlanService plans;
  private final DatalocState state;
  private final NodeSizes sizes;
  private final CapacityAnswers answers;
  private final CapacityCommits commits;

  /**
   * @param conf the ResourceManager's configuration (Dataloc's keys; standalone-only keys refused)
   * @param nodes the CapacityScheduler's node tracker (thread-safe; read before the plan lock)
   * @param clock where Dataloc reads the time (YARN's {@code SystemClock}; tests control it)
   */
  public CapacityPlans(Configuration conf, RMContext rmContext, ClusterNodeTracker<? extends SchedulerNode> nodes,
      ResourceCalculator calculator, Supplier<Resource> minimumAllocation, UnaryOperator<Resource> normalize,
      Clock clock) {
    Settings settings = DatalocConfiguration.insideCapacityScheduler(conf);
    this.sizes = new NodeSizes(nodes, calculator, minimumAllocation);
    this.plans = new PlanService(new Object(), settings, new Configuration(conf), rmContext, sizes, normalize,
        id -> null, id -> 0, clock::getTime, true, this::rebuildEngine);
    this.state = plans.state;
    this.answers = new CapacityAnswers(plans, new AmRoom(nodes, sizes), clock);
    this.commits = new CapacityCommits(state);
    state.wire(plans.containment, id -> {});
    LOG.info("Dataloc plans map placement inside the CapacityScheduler: assigner {}, online policy {}, queues {}, "
        + "cs.max-wait-ms {}", settings.assigner(), settings.policy(),
        settings.csQueues().isEmpty() ? "all" : settings.csQueues(), settings.csMaxWaitMs());
  }

  /** Whether a planned job's key takes a node, and where its AM goes. */
  public CapacityAnswers answers() {
    return answers;
  }

  /** The map containers the CapacityScheduler commits for planned jobs. */
  public CapacityCommits commits() {
    return commits;
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
   * An allocator attached to a request key: what it does for it. The map key (priority {@code
   * map-priority}) of a job Dataloc knows follows the plan; its AM key (priority 0, as the
   * ResourceManager asks for every AM container) sites the AM ({@link CapacityAnswers#amTakes}). Counts every
   * attach.
   */
  public Role attach(ApplicationAttemptId attempt, SchedulerRequestKey key) {
    state.metrics().csAttaches.incr();
    boolean maps = state.settings().isMapKey(key);
    if (!maps && !isAmKey(key)) {
      return Role.STOCK;
    }
    synchronized (state.lock()) {
      if (!state.apps().contains(attempt.getApplicationId())) {
        return Role.STOCK;
      }
    }
    return maps ? Role.MAPS : Role.AM;
  }

  /** The key at which the ResourceManager asks for every AM container. */
  static boolean isAmKey(SchedulerRequestKey key) {
    return key.getPriority() != null
        && key.getPriority().getPriority() == RMAppAttemptImpl.AM_CONTAINER_PRIORITY.getPriority();
  }

  /**
   * An application the CapacityScheduler accepted into {@code leaf} (path {@code path}): Dataloc
   * plans it if its queue is one of {@code cs.queues}; its placement read starts now.
   */
  public void appAdded(ApplicationId id, String user, String leaf, String path, boolean recovering) {
    if (!state.settings().plansQueue(leaf, path)) {
      return;
    }
    state.locked("cs: app added", () -> {
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
    state.locked("cs: attempt added", () -> {
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
    state.locked("cs: app removed", () -> state.apps().remove(id));
  }

  public void nodeAdded(SchedulerNode node) {
    EngineNodes.Facts f = EngineNodes.Facts.of(node, sizes);
    state.locked("cs: node added", () -> plans.nodes.added(f));
  }

  public void nodeRemoved(String name) {
    state.locked("cs: node removed", () -> plans.nodes.removed(name));
  }

  /** A node's resource or partition changed. */
  public void nodeChanged(SchedulerNode node) {
    EngineNodes.Facts f = EngineNodes.Facts.of(node, sizes);
    state.locked("cs: node changed", () -> {
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
    state.locked("cs: node heartbeat", () -> {
      plans.containment.recoverIfQuiet();
      state.advanceEngineClock();
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
    state.locked("cs: asks", () -> {
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
}
