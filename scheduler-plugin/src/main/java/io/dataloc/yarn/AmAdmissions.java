package io.dataloc.yarn;

import io.dataloc.core.am.AmAdmission;
import io.dataloc.core.jobs.JobOrderings;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplication;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerNode;
import org.apache.hadoop.yarn.server.scheduler.SchedulerRequestKey;

/**
 * Carries out {@link AmAdmission}: which waiting ApplicationMaster goes next. The next one is found
 * by one walk over the applications at most every {@value #VIEW_MILLIS} ms (and again once it is
 * admitted or gone), so a heartbeat does not walk them; an AM that is not next may still take a
 * node the next one cannot use (too small, blacklisted, outside its asks, or the next one over
 * the AM limit), so no AM blocks another for good. Sizes are the jobs' maps from their split files
 * (unknown: the median, {@link AmAdmission#withKnownSizes}); a user's usage is the AMs it runs now
 * ({@link AmAdmission#currentShare}). Under the scheduler's monitor.
 */
final class AmAdmissions {
  static final long VIEW_MILLIS = 100;

  private final SchedulerContext ctx;
  private final ClusterRoom room;
  private final Supplier<Map<ApplicationId, SchedulerApplication<DatalocAppAttempt>>> applications;
  private ApplicationId next;
  private long nextAt;
  /** The next AM was admitted: find the next one at the next call, not after the view's age. */
  private boolean stale = true;

  AmAdmissions(SchedulerContext ctx, ClusterRoom room,
      Supplier<Map<ApplicationId, SchedulerApplication<DatalocAppAttempt>>> applications) {
    this.ctx = ctx;
    this.room = room;
    this.applications = applications;
  }

  /** Whether the application's AM may take room on the node now. */
  boolean mayAdmit(ApplicationId id, FiCaSchedulerNode node) {
    long now = ctx.nowMillis();
    if (stale || now - nextAt >= VIEW_MILLIS) {
      next = findNext(now);
      nextAt = now;
      stale = false;
    }
    return next == null || next.equals(id) || !canTake(next, node);
  }

  /** The application's AM was allocated, or it left: the next one is found again. Idempotent. */
  void admitted(ApplicationId id) {
    if (id.equals(next)) {
      next = null;
      stale = true;
    }
  }

  private ApplicationId findNext(long now) {
    List<AmAdmission.Waiting> waiting = new ArrayList<>();
    List<ApplicationId> ids = new ArrayList<>();
    Map<String, Integer> runningAms = new HashMap<>();
    for (SchedulerApplication<DatalocAppAttempt> app : applications.get().values()) {
      DatalocAppAttempt attempt = app.getCurrentAppAttempt();
      DatalocApp a = attempt == null ? null : ctx.apps().get(attempt.getApplicationId());
      if (a == null || a.killed || attempt.isStopped()) {
        continue;
      }
      if (!Containers.isAmRequest(attempt)) {
        runningAms.merge(a.user, 1, Integer::sum);
        continue;
      }
      waiting.add(new AmAdmission.Waiting(a.id.getId(), a.user, a.submittedMillis,
          a.tasks, ctx.applicationPriority(a.id)));
      ids.add(a.id);
    }
    List<AmAdmission.Waiting> sized = AmAdmission.withKnownSizes(waiting);
    AmAdmission.Waiting best = AmAdmission.next(sized, JobOrderings.create(ctx.settings().amAdmission()),
        now, AmAdmission.currentShare(runningAms));
    for (int i = 0; i < sized.size(); i++) {
      if (sized.get(i) == best) {
        return ids.get(i);
      }
    }
    return null;
  }

  /** Whether the next application's AM could take room on the node now. */
  private boolean canTake(ApplicationId id, FiCaSchedulerNode node) {
    DatalocAppAttempt attempt = ctx.currentAttempt(id);
    SchedulerRequestKey key = AmAsks.key(attempt);
    return key != null && AmAsks.fit(attempt, key, node, room) == AmAsks.Fit.TAKES;
  }
}
