package io.dataloc.core.engine;

import io.dataloc.core.online.OnlinePolicy;

/**
 * What happens to a task once it is out of the engine's hands: it starts on a host (by a
 * committed decision or outside one), finishes (its time charged to its user and fed to the
 * learned rates), fails or loses its host (pending again and routed), is refused by a host (routed
 * anywhere else) or is no longer needed (dropped). Each leaves alone a task not in the state it
 * expects, so a late or repeated event changes nothing.
 */
final class TaskOutcomes {
  private final EngineState state;
  private final OnlinePolicy policy;
  private final StarvationGuard guard;
  private final EngineJobs jobs;
  private final EngineLearning learning;

  TaskOutcomes(EngineState state, OnlinePolicy policy, StarvationGuard guard, EngineJobs jobs,
      EngineLearning learning) {
    this.state = state;
    this.policy = policy;
    this.guard = guard;
    this.jobs = jobs;
    this.learning = learning;
  }

  /** The task, taken out of its queue by the caller, runs on {@code host} from now on. */
  void start(int t, int host) {
    JobState j = state.job(t);
    j.pending--;
    j.running++;
    guard.served(j);
    state.startOn(t, host);
    started(t);
  }

  /** The task runs from now on, for the learned durations (also a task swapped in by re-homing). */
  void started(int task) {
    learning.started(task, state.now);
  }

  boolean startedOutside(int task, int host) {
    if (task < 0 || task >= state.taskCount() || !state.queued(task) || host < 0 || host >= state.hostCount()
        || !state.alive(host)) {
      return false;
    }
    policy.removed(task);
    start(task, host);
    return true;
  }

  boolean dropPending(int task) {
    if (task < 0 || task >= state.taskCount() || !state.queued(task)) {
      return false;
    }
    JobState j = state.job(task);
    state.setState(task, TaskState.CANCELLED);
    j.pending--;
    j.total--;
    policy.removed(task);
    jobs.release(task);
    return true;
  }

  void finished(int task) {
    if (state.state(task) != TaskState.RUNNING) {
      return;
    }
    JobState j = state.job(task);
    int host = state.hostOf(task);
    long ticks = learning.finished(task, state.level(task, host), state.now);
    state.chargeUser(j.user(), ticks);
    j.meanTaskTicks = Math.max(1, (j.meanTaskTicks * j.done + ticks) / (j.done + 1));
    j.running--;
    j.done++;
    state.stopOn(task);
    state.setState(task, TaskState.DONE);
    jobs.release(task);
  }

  void refuse(Decision d) {
    int t = d.task();
    if (t >= 0 && t < state.taskCount() && state.queued(t) && state.job(t).id() == d.jobId()) {
      policy.removed(t);
      policy.routeAvoiding(t, d.host());
    }
  }

  void failed(int task) {
    if (backToPending(task)) {
      policy.route(task);
    }
  }

  /** A running task becomes pending (not yet queued anywhere); false if it was not running. */
  boolean backToPending(int task) {
    if (state.state(task) != TaskState.RUNNING) {
      return false;
    }
    JobState j = state.job(task);
    j.running--;
    j.pending++;
    state.stopOn(task);
    state.requeue(task);
    return true;
  }
}
