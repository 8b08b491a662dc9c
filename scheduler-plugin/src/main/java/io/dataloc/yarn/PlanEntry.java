package io.dataloc.yarn;

import io.dataloc.core.am.AmReplay;
import io.dataloc.core.am.PlanGuard;
import io.dataloc.core.engine.Admission;
import io.dataloc.core.engine.BudgetedPlanner;
import io.dataloc.core.engine.DecisionEngine;
import io.dataloc.core.engine.PlanApplication;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A job's plan entering the engine, {@value #APPLY_CHUNK} tasks per call, each call under the
 * scheduler's monitor (the pipeline releases it in between, so a job of any size holds the lock
 * for one chunk at most); once all is in, the job is planned and the maps it ran from its asks
 * before its plan are tied to their tasks ({@link #replayEarly}).
 */
final class PlanEntry {
  private static final Logger LOG = LoggerFactory.getLogger(PlanService.class);
  /** Tasks of a plan entered into the engine per hold of the lock. */
  static final int APPLY_CHUNK = 1_000;

  private final SchedulerContext ctx;
  private final DatalocApp a;
  private final PlacementReader.Placement placement;
  private final PlanGuard guard;
  private final BudgetedPlanner.Result planned;
  private final AmReplay am;
  private final PlanApplication prepared;
  private boolean done;

  /** {@code guard}: the plan's, made off the lock (it reads every task and host of the plan). */
  PlanEntry(SchedulerContext ctx, DatalocApp a, PlacementReader.Placement placement, BudgetedPlanner.Result planned,
      AmReplay am, PlanApplication prepared, PlanGuard guard) {
    this.ctx = ctx;
    this.a = a;
    this.placement = placement;
    this.guard = guard;
    this.planned = planned;
    this.am = am;
    this.prepared = prepared;
  }

  boolean more() {
    return !done;
  }

  void chunk() {
    DecisionEngine engine = ctx.engine();
    if (prepared == null) {
      done = true;
      ctx.metrics().plansFailed.incr();
      ctx.apps().goOnline(a, "planning failed or exceeded its budget");
      return;
    }
    a.jobCreated = true;
    ctx.advanceEngineClock(); // its tasks wait from now, not from the last node heartbeat
    boolean allIn = engine.applySome(prepared, APPLY_CHUNK);
    engine.setPriority(a.jobId, ctx.applicationPriority(a.id)); // the first chunk creates the job
    if (!allIn) {
      engine.setParked(a.jobId, true); // until it is all in and its asks are looked at
      return;
    }
    done = true;
    Admission adm = prepared.admission();
    a.plan = adm.plan();
    a.guard = guard;
    a.planner = planned.planner();
    a.planMillis = planned.millis();
    a.tasks = placement.hosts().tasks();
    a.am = am;
    a.planned();
    replayEarly(a);
    ctx.apps().markDirty(a.id); // its asks decide whether it runs now
    ctx.metrics().plansMade.incr();
    ctx.metrics().lastPlanMillis.set(Math.round(planned.millis()));
    ctx.metrics().planTime.add(Math.round(planned.millis()));
    ctx.metrics().lastPlanMakespan.set(adm.plan().makespan());
    ctx.metrics().lastPlanLowerBound.set(adm.plan().lowerBound());
    LOG.info("Dataloc planned {} ({} maps from {}) with {} in {} ms: makespan {} (lower bound {}), {} local",
        a.id, a.tasks, a.source, planned.planner(), String.format("%.1f", planned.millis()),
        adm.plan().makespan() / 1000.0, adm.plan().lowerBound() / 1000.0, adm.plan().local());
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
  private void replayEarly(DatalocApp a) {
    if (a.early.isEmpty() && !a.earlyOverflow) {
      return;
    }
    DecisionEngine engine = ctx.engine();
    int served = a.early.size();
    int tied = 0;
    if (a.am != null && !a.earlyOverflow) {
      for (DatalocApp.EarlyMap e : a.early) {
        int host = engine.state().hostIndex(e.host());
        int index = a.am.take(host, host < 0 ? rackId(engine, e.rack()) : engine.state().rackOf(host));
        if (index < 0) {
          continue;
        }
        int task = engine.task(a.jobId, index);
        if (!engine.startedOutside(task, engine.state().hostIndex(e.host()))) {
          engine.dropPending(task);
          continue;
        }
        if (!a.earlyEnded.contains(e.container())) {
          ctx.apps().tie(e.container(), task);
        } else {
          engine.taskFinished(task);
        }
        tied++;
      }
    }
    ctx.metrics().mapsTiedToPlan.incr(tied);
    LOG.info("Dataloc: {} map containers of {} were served from its asks before its plan; {} tied to their tasks",
        a.earlyOverflow ? "more than " + served : served, a.id, tied);
    a.early.clear();
    a.earlyEnded.clear();
    a.earlyOverflow = false;
  }

  /** The engine's id of the rack named {@code name}, or -1 if no node is on it. {@code O(racks)}. */
  static int rackId(DecisionEngine engine, String name) {
    for (int r = 0; r < engine.state().rackCount(); r++) {
      if (engine.state().rackName(r).equals(name)) {
        return r;
      }
    }
    return -1;
  }
}
