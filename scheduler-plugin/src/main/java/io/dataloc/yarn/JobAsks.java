package io.dataloc.yarn;

import io.dataloc.core.am.AskDeltas;
import io.dataloc.core.am.AskReconciler;
import io.dataloc.core.engine.DecisionEngine;
import io.dataloc.core.engine.JobState;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Keeps a job's pending maps in the engine true to what its ApplicationMaster asks for now, for
 * both front ends: parked while it asks for none, and the delta {@link AskReconciler} computes from
 * its map asks and its pending tasks applied (the rule, planned and online, is stated and tested
 * there). The front end reads the asks from YARN; this class never does. Under the plan lock.
 */
final class JobAsks {
  /** A planned job is topped up from its asks at most this often. */
  static final long TOP_UP_EVERY_MS = 1000;

  private final SchedulerContext ctx;

  JobAsks(SchedulerContext ctx) {
    this.ctx = ctx;
  }

  /**
   * @param asking whether the AM has a map ask at all
   * @param wanted the maps it asks for (its {@code *} count)
   * @param stopped the attempt is gone or stopping
   * @param demand its maps asked for on each host the engine knows (read only when tasks are added)
   */
  void reconcile(DatalocApp a, boolean asking, int wanted, boolean stopped, Supplier<Map<String, Integer>> demand) {
    if (a.waiting()) {
      return; // its plan, or the pipeline's timeout (PlacementPipeline.overdue), decides what comes next
    }
    Settings settings = ctx.settings();
    DecisionEngine engine = ctx.engine();
    if (a.jobCreated) {
      // Not asking now: its tasks wait where they are until the application asks again.
      engine.setParked(a.jobId, wanted <= 0 || stopped);
    }
    if (asking) {
      a.sawMaps = true;
    }
    if (!a.sawMaps) {
      return;
    }
    // The count is kept by the engine; the list (a walk over the job's tasks) only when needed.
    JobState job = a.jobCreated ? engine.job(a.jobId) : null;
    int pendingCount = job == null ? 0 : job.pending();
    int bound = settings.bounds().onlineMaxPending();
    boolean planned = a.phase() == DatalocApp.Phase.PLANNED;
    AskReconciler.Delta delta = planned
        ? AskReconciler.planned(asking, wanted, pendingCount, a.tasks, bound)
        : AskReconciler.online(asking, wanted, pendingCount, bound);
    if (delta.isNone()) {
      return;
    }
    if (planned && delta.add() > 0) {
      // A top-up reads every pending task's hosts: at most once a second per job, so an AM that
      // asks for more maps than its plan holds does not cost that at every map it is served.
      long now = ctx.nowMillis();
      if (a.lastTopUpMillis != Long.MIN_VALUE && now - a.lastTopUpMillis < TOP_UP_EVERY_MS) {
        ctx.apps().markDirty(a.id); // looked at again at its next turn
        return;
      }
      a.lastTopUpMillis = now;
    }
    if (AskDeltas.apply(engine, a.jobId, a.user, delta, demand)) {
      ctx.apps().markDirty(a.id); // more to drop: at its next turn, a bounded part per hold
      return; // counted once, when done
    }
    if (delta.add() > 0 && !planned) {
      a.jobCreated = true;
      engine.setPriority(a.jobId, ctx.applicationPriority(a.id));
      return; // an online job's tasks following its asks is no re-plan
    }
    ctx.metrics().replans.incr();
  }
}
