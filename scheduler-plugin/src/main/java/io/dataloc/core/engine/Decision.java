package io.dataloc.core.engine;

import io.dataloc.core.model.Level;

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
public record Decision(long jobId, int taskIndex, int task, int host, Level level, String reason, int queue) {
  /** The reason of a decision the starvation guard made (see DecisionEngine#onSlotFree). */
  static final String STARVING = "starvation guard: ";

  /** True if the starvation guard made this decision: the job has waited too long to be refused again. */
  public boolean starving() {
    return reason.startsWith(STARVING);
  }
}
