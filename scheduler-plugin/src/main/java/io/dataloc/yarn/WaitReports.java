package io.dataloc.yarn;

import io.dataloc.core.engine.DecisionEngine;
import io.dataloc.core.engine.EngineState;
import io.dataloc.core.engine.JobState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiPredicate;
import org.apache.hadoop.yarn.api.records.ApplicationId;

/**
 * Why an application waits ({@link WaitReport}), read on demand under the plan lock: the work is
 * one pass over the job's pending tasks (bounded by {@code max-tasks-per-job}) and a copy of its
 * bounded wait log. Shared by both front ends: the standalone scheduler and the CapacityScheduler's.
 */
public final class WaitReports {
  /** The name of the queue of no node (tasks any node may run). */
  static final String SHARED = "shared";

  private final SchedulerContext ctx;

  WaitReports(SchedulerContext ctx) {
    this.ctx = ctx;
  }

  /** The application's report, or null if the plan service does not know it (ended, or never seen). */
  public WaitReport of(ApplicationId id) {
    synchronized (ctx.lock()) {
      ctx.holds().enter();
      try {
        DatalocApp a = ctx.apps().get(id);
        return a == null ? null : report(a);
      } finally {
        ctx.holds().exit("report: waits");
      }
    }
  }

  /** The user who submitted the application, or null if the plan service does not know it. */
  public String userOf(ApplicationId id) {
    synchronized (ctx.lock()) {
      ctx.holds().enter();
      try {
        DatalocApp a = ctx.apps().get(id);
        return a == null ? null : a.user;
      } finally {
        ctx.holds().exit("report: waits");
      }
    }
  }

  /** Every application's report, in submission order ({@link #all(BiPredicate)}). */
  public List<WaitReport> all() {
    return all((user, application) -> true);
  }

  /**
   * The reports of the applications {@code wanted} lets through (by their user and id: a caller's
   * view rule, asked before a report is made), in submission order, one application per hold of
   * the lock (a report reads its job's pending tasks): a page or REST listing of many large jobs
   * never holds it for all of them at once. An application that ends meanwhile is left out.
   */
  public List<WaitReport> all(BiPredicate<String, String> wanted) {
    List<ApplicationId> ids = new ArrayList<>();
    List<String> users = new ArrayList<>();
    synchronized (ctx.lock()) {
      ctx.holds().enter();
      try {
        for (DatalocApp a : ctx.apps().all()) {
          ids.add(a.id);
          users.add(a.user);
        }
      } finally {
        ctx.holds().exit("report: waits");
      }
    }
    List<WaitReport> out = new ArrayList<>(ids.size());
    for (int i = 0; i < ids.size(); i++) {
      if (!wanted.test(users.get(i), ids.get(i).toString())) {
        continue;
      }
      WaitReport r = of(ids.get(i));
      if (r != null) {
        out.add(r);
      }
    }
    return out;
  }

  private WaitReport report(DatalocApp a) {
    DecisionEngine engine = ctx.engine();
    JobState j = a.jobCreated ? engine.job(a.jobId) : null;
    List<WaitReport.Queue> queues = new ArrayList<>();
    if (j != null) {
      EngineState s = engine.state();
      Map<Integer, Integer> byHost = new TreeMap<>();
      for (int t : engine.pendingTasks(a.jobId)) {
        byHost.merge(engine.policy().queueHostOf(t), 1, Integer::sum);
      }
      for (Map.Entry<Integer, Integer> e : byHost.entrySet()) {
        int h = e.getKey();
        queues.add(h < 0 ? new WaitReport.Queue(SHARED, e.getValue(), 0, 0, true, false)
            : new WaitReport.Queue(s.hostName(h), e.getValue(), s.slots(h), s.running(h), s.alive(h), s.draining(h)));
      }
      queues.sort((x, y) -> Integer.compare(y.maps, x.maps));
    }
    return new WaitReport(a, JobReport.of(a, j), ctx.nowMillis(), j != null && engine.parked(a.jobId), queues);
  }
}
