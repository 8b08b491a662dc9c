package io.dataloc.yarn;

import io.dataloc.core.engine.DecisionEngine;
import io.dataloc.core.engine.JobState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.yarn.api.records.ApplicationId;

/**
 * Read-only views of the scheduler's state for its web page, benchmarks, soak runs and tests; each
 * takes the scheduler's monitor for a consistent snapshot.
 */
public final class SchedulerReports {
  private final SchedulerContext ctx;
  private final ClusterRoom room;

  SchedulerReports(SchedulerContext ctx, ClusterRoom room) {
    this.ctx = ctx;
    this.room = room;
  }

  /** Every job, in submission order. */
  public List<JobReport> jobs() {
    synchronized (ctx.lock()) {
      DecisionEngine engine = ctx.engine();
      List<JobReport> out = new ArrayList<>();
      for (DatalocApp a : ctx.apps().all()) {
        JobState j = a.jobCreated ? engine.job(a.jobId) : null;
        out.add(new JobReport(a.id.toString(), a.user, a.phaseName(), a.source, a.planner, a.tasks, a.plan,
            a.planMillis, a.nodeLocal, a.rackLocal, a.offSwitch, j == null ? 0 : j.pending(),
            j == null ? 0 : j.running(), a.note, a.lastReason));
      }
      return out;
    }
  }

  /** Map containers per minute by locality over the last hour, oldest first ({@link LocalityHistory#lastHour}). */
  public long[][] localityLastHour() {
    return ctx.locality().lastHour(ctx.nowMillis());
  }

  /** Active jobs, live tasks, task numbers in use, running tasks, containers tied to a task. */
  public int[] engineCounts() {
    synchronized (ctx.lock()) {
      DecisionEngine engine = ctx.engine();
      int running = 0;
      for (JobState j : engine.state().activeJobs()) {
        running += j.running();
      }
      return new int[] {engine.activeJobs(), engine.state().liveTasks(), engine.state().taskCount(), running,
          ctx.apps().ties()};
    }
  }

  /**
   * Where an application's pending engine tasks wait (host name, or "shared" for a queue of no
   * host), whether its job is parked, and those hosts' states.
   */
  public String describePending(ApplicationId id) {
    synchronized (ctx.lock()) {
      DecisionEngine engine = ctx.engine();
      DatalocApp a = ctx.apps().get(id);
      if (a == null || !a.jobCreated || engine.job(a.jobId) == null) {
        return "no engine job";
      }
      Map<String, Integer> where = new TreeMap<>();
      for (int t : engine.pendingTasks(a.jobId)) {
        int h = engine.policy().queueHostOf(t);
        String name = h < 0 ? "shared" : engine.state().hostName(h) + (engine.state().alive(h) ? "" : "(dead)")
            + (engine.state().draining(h) ? "(draining)" : "") + "[slots " + engine.state().slots(h) + ", running "
            + engine.state().running(h) + "]";
        where.merge(name, 1, Integer::sum);
      }
      return "parked " + engine.parked(a.jobId) + ", phase " + a.phase() + ", pending at " + where;
    }
  }

  /** Memory held by ApplicationMaster containers the scheduler allocated (or recovered) and still counts. */
  public long amMemoryUsed() {
    synchronized (ctx.lock()) {
      return room.amMemoryUsed();
    }
  }

  /** The longest hold of the scheduler's monitor so far, and where; per site. */
  public String lockHolds() {
    synchronized (ctx.lock()) {
      return ctx.holds().describe();
    }
  }

  /** The longest hold of the scheduler's monitor so far, in nanoseconds: {wall, CPU of the holder}. */
  public long[] maxLockHoldNanos() {
    synchronized (ctx.lock()) {
      LockHolds.Report r = ctx.holds().report();
      return new long[] {r.maxNanos(), r.maxCpuNanos()};
    }
  }

  /** Forgets the lock holds measured so far (a benchmark's warm-up). */
  public void resetLockHolds() {
    synchronized (ctx.lock()) {
      ctx.holds().reset();
    }
  }
}
