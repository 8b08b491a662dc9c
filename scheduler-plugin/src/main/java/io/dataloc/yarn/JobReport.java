package io.dataloc.yarn;

import io.dataloc.core.engine.JobState;
import io.dataloc.core.model.Evaluation;
import java.util.Objects;

/**
 * One job as the scheduler page shows it: its state, its plan, where its maps ran, and why the last
 * one did. The one copy of an application's facts for reports ({@link #of}); a {@link WaitReport}
 * holds one.
 */
public final class JobReport {
  private final String application;
  private final String user;
  private final String phase;
  private final String source;
  private final String planner;
  private final int tasks;
  private final Evaluation plan;
  private final double planMillis;
  private final int nodeLocal;
  private final int rackLocal;
  private final int offSwitch;
  private final int pending;
  private final int running;
  private final String note;
  private final String lastReason;

  public JobReport(String application, String user, String phase, String source, String planner, int tasks,
      Evaluation plan, double planMillis, int nodeLocal, int rackLocal, int offSwitch, int pending, int running,
      String note, String lastReason) {
    this.application = application;
    this.user = user;
    this.phase = phase;
    this.source = source;
    this.planner = planner;
    this.tasks = tasks;
    this.plan = plan;
    this.planMillis = planMillis;
    this.nodeLocal = nodeLocal;
    this.rackLocal = rackLocal;
    this.offSwitch = offSwitch;
    this.pending = pending;
    this.running = running;
    this.note = note;
    this.lastReason = lastReason;
  }

  /** The application's facts as they stand; {@code job} is its engine job, or null before it has one. */
  static JobReport of(DatalocApp a, JobState job) {
    return new JobReport(a.id.toString(), a.user, a.phaseName(), a.source, a.planner, a.tasks, a.plan, a.planMillis,
        a.nodeLocal, a.rackLocal, a.offSwitch, job == null ? 0 : job.pending(), job == null ? 0 : job.running(),
        a.note, a.lastReason);
  }

  public String application() {
    return application;
  }

  public String user() {
    return user;
  }

  public String phase() {
    return phase;
  }

  public String source() {
    return source;
  }

  public String planner() {
    return planner;
  }

  public int tasks() {
    return tasks;
  }

  public Evaluation plan() {
    return plan;
  }

  public double planMillis() {
    return planMillis;
  }

  public int nodeLocal() {
    return nodeLocal;
  }

  public int rackLocal() {
    return rackLocal;
  }

  public int offSwitch() {
    return offSwitch;
  }

  public int pending() {
    return pending;
  }

  public int running() {
    return running;
  }

  public String note() {
    return note;
  }

  public String lastReason() {
    return lastReason;
  }

  @Override
  public boolean equals(Object o) {
    if (o == this) {
      return true;
    }
    if (!(o instanceof JobReport)) {
      return false;
    }
    JobReport that = (JobReport) o;
    return Objects.equals(application, that.application)
        && Objects.equals(user, that.user)
        && Objects.equals(phase, that.phase)
        && Objects.equals(source, that.source)
        && Objects.equals(planner, that.planner)
        && tasks == that.tasks
        && Objects.equals(plan, that.plan)
        && Double.compare(planMillis, that.planMillis) == 0
        && nodeLocal == that.nodeLocal
        && rackLocal == that.rackLocal
        && offSwitch == that.offSwitch
        && pending == that.pending
        && running == that.running
        && Objects.equals(note, that.note)
        && Objects.equals(lastReason, that.lastReason);
  }

  @Override
  public int hashCode() {
    return Objects.hash(application, user, phase, source, planner, tasks, plan, planMillis, nodeLocal, rackLocal, offSwitch, pending, running, note, lastReason);
  }

  @Override
  public String toString() {
    return "JobReport[application=" + application
        + ", user=" + user
        + ", phase=" + phase
        + ", source=" + source
        + ", planner=" + planner
        + ", tasks=" + tasks
        + ", plan=" + plan
        + ", planMillis=" + planMillis
        + ", nodeLocal=" + nodeLocal
        + ", rackLocal=" + rackLocal
        + ", offSwitch=" + offSwitch
        + ", pending=" + pending
        + ", running=" + running
        + ", note=" + note
        + ", lastReason=" + lastReason + "]";
  }
}
