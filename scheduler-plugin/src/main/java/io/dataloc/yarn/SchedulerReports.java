package io.dataloc.yarn;

import io.dataloc.core.engine.DecisionEngine;
import io.dataloc.core.engine.JobState;
import java.util.ArrayList;
import java.util.List;

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
        out.add(JobReport.of(a, a.jobCreated ? engine.job(a.jobId) : null));
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
