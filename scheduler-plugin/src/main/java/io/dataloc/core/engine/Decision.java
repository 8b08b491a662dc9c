package io.dataloc.core.engine;

import io.dataloc.core.model.Level;
import java.util.Objects;

/**
 * Run one task of a job on a host.
 *
 * @param jobId the caller's job id
 * @param taskIndex the task's index within its job (submission order)
 * @param task the engine's task number
 * @param host the engine's host index
 * @param level the locality of the task on that host
 * @param reason why, for logs and the scheduler page (e.g. "local queue (α·Q=4.0 ≥ γ·Q̄=1.2)")
 * @param queue the host whose local queue the task came from, or -1 (a shared queue)
 */
public final class Decision {
  private final long jobId;
  private final int taskIndex;
  private final int task;
  private final int host;
  private final Level level;
  private final String reason;
  private final int queue;

  public Decision(long jobId, int taskIndex, int task, int host, Level level, String reason, int queue) {
    this.jobId = jobId;
    this.taskIndex = taskIndex;
    this.task = task;
    this.host = host;
    this.level = level;
    this.reason = reason;
    this.queue = queue;
  }

  public long jobId() {
    return jobId;
  }

  public int taskIndex() {
    return taskIndex;
  }

  public int task() {
    return task;
  }

  public int host() {
    return host;
  }

  public Level level() {
    return level;
  }

  public String reason() {
    return reason;
  }

  public int queue() {
    return queue;
  }

  /** The reason of a decision the starvation guard made (see DecisionEngine#onSlotFree). */
  static final String STARVING = "starvation guard: ";

  /** True if the starvation guard made this decision: the job has waited too long to be refused again. */
  public boolean starving() {
    return reason.startsWith(STARVING);
  }

  @Override
  public boolean equals(Object o) {
    if (o == this) {
      return true;
    }
    if (!(o instanceof Decision)) {
      return false;
    }
    Decision that = (Decision) o;
    return jobId == that.jobId
        && taskIndex == that.taskIndex
        && task == that.task
        && host == that.host
        && Objects.equals(level, that.level)
        && Objects.equals(reason, that.reason)
        && queue == that.queue;
  }

  @Override
  public int hashCode() {
    return Objects.hash(jobId, taskIndex, task, host, level, reason, queue);
  }

  @Override
  public String toString() {
    return "Decision[jobId=" + jobId
        + ", taskIndex=" + taskIndex
        + ", task=" + task
        + ", host=" + host
        + ", level=" + level
        + ", reason=" + reason
        + ", queue=" + queue + "]";
  }
}
