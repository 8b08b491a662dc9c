package io.dataloc.yarn;

import io.dataloc.core.am.MapService;
import io.dataloc.core.am.WaitLog;
import io.dataloc.core.engine.Decision;
import io.dataloc.core.engine.DecisionEngine;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.apache.hadoop.yarn.util.Clock;

/**
 * The plan's answers to the questions the CapacityScheduler asks of a planned job's keys
 * ({@code io.dataloc.yarn.cs}). The CapacityScheduler's queues choose which job a node serves;
 * these answers say whether that job should take the node:
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
 *   <li>{@link #amTakes}: where the job's ApplicationMaster goes ({@link AmSites}).
 * </ul>
 *
 * <p>Each takes only the plan lock, after any snapshot of YARN's objects, and is bounded.
 * Errors go to the caller, which falls back to the stock answer and reports them with
 * {@link CapacityPlans#failed}.
 */
public final class CapacityAnswers {
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
  private final Clock clock;
  private final AmRoom amRoom;
  private final AmSites sites;

  CapacityAnswers(PlanService plans, AmRoom amRoom, Clock clock) {
    this.plans = plans;
    this.state = plans.state;
    this.clock = clock;
    this.amRoom = amRoom;
    this.sites = new AmSites(state);
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
        state.advanceEngineClock(); // asynchronous scheduling asks between node heartbeats
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
        state.advanceEngineClock();
        DecisionEngine engine = state.engine();
        int h = engine.state().hostIndex(name);
        return h < 0 || engine.proposeFor(a.jobId, h) != null;
      } finally {
        state.holds().exit("cs: still wants");
      }
    }
  }

  /** Whether AMs are sited at all ({@code am.placement-wait-ms} above 0): one read, no lock. */
  public boolean sitesAms() {
    return state.settings().amPlacementWaitMs() > 0;
  }

  /**
   * Whether an application's AM, which waits for its container, takes room on {@code node} now
   * ({@link AmSites}; off with {@code am.placement-wait-ms} 0). The view of the nodes with room for
   * it is read from the node tracker first, then the plan lock is taken. A decline skips the
   * application on this node, as a map key's veto does. True for an application Dataloc serves
   * from its asks, and while Dataloc is degraded.
   */
  public boolean amTakes(ApplicationId id, SchedulerNode node, Resource am) {
    if (!sitesAms() || am == null) {
      return true;
    }
    AmRoom.View room = amRoom.view(am, clock.getTime());
    synchronized (state.lock()) {
      state.holds().enter();
      try {
        DatalocApp a = state.apps().get(id);
        if (a == null || a.servedFromAsks() || plans.containment.degraded()) {
          return true;
        }
        state.working(id);
        state.faults().at(FaultInjector.AM_SITING, id);
        return sites.take(a, node.getNodeName(), () -> room);
      } finally {
        state.working(null);
        state.holds().exit("cs: AM siting");
      }
    }
  }
}
