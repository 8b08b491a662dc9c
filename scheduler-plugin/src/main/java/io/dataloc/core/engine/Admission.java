package io.dataloc.core.engine;

import io.dataloc.core.model.Evaluation;
import java.util.Objects;

/** What happened when a job was admitted: how many tasks, whether planned, by which assigner, the plan's evaluation, a note. */
public final class Admission {
  private final long jobId;
  private final int tasks;
  private final boolean planned;
  private final String planner;
  private final Evaluation plan;
  private final String note;

  public Admission(long jobId, int tasks, boolean planned, String planner, Evaluation plan, String note) {
    this.jobId = jobId;
    this.tasks = tasks;
    this.planned = planned;
    this.planner = planner;
    this.plan = plan;
    this.note = note;
  }

  public long jobId() {
    return jobId;
  }

  public int tasks() {
    return tasks;
  }

  public boolean planned() {
    return planned;
  }

  public String planner() {
    return planner;
  }

  public Evaluation plan() {
    return plan;
  }

  public String note() {
    return note;
  }

  @Override
  public boolean equals(Object o) {
    if (o == this) {
      return true;
    }
    if (!(o instanceof Admission)) {
      return false;
    }
    Admission that = (Admission) o;
    return jobId == that.jobId
        && tasks == that.tasks
        && planned == that.planned
        && Objects.equals(planner, that.planner)
        && Objects.equals(plan, that.plan)
        && Objects.equals(note, that.note);
  }

  @Override
  public int hashCode() {
    return Objects.hash(jobId, tasks, planned, planner, plan, note);
  }

  @Override
  public String toString() {
    return "Admission[jobId=" + jobId
        + ", tasks=" + tasks
        + ", planned=" + planned
        + ", planner=" + planner
        + ", plan=" + plan
        + ", note=" + note + "]";
  }
}
