package io.dataloc.core.engine;

import io.dataloc.core.jobs.JobView;
import io.dataloc.core.online.OnlinePolicy;
import java.util.Set;

/**
 * A free slot served: the starvation guard's pick or the policy's, proposed without changing
 * anything and carried out only when the caller commits it. The slot's bracket ({@link #beginSlot},
 * {@link #endSlot}) lets the guard and the policy look at each job once per slot.
 */
final class Proposals {
  private final EngineState state;
  private final OnlinePolicy policy;
  private final StarvationGuard guard;
  private final EngineJobs jobs;
  private final TaskOutcomes outcomes;

  Proposals(EngineState state, OnlinePolicy policy, StarvationGuard guard, EngineJobs jobs, TaskOutcomes outcomes) {
    this.state = state;
    this.policy = policy;
    this.guard = guard;
    this.jobs = jobs;
    this.outcomes = outcomes;
  }

  void beginSlot() {
    guard.beginSlot();
    if (guard.remembers()) {
      policy.beginSlot();
    }
  }

  void endSlot() {
    guard.endSlot();
    policy.endSlot();
  }

  Decision propose(int host, Set<Long> excludedJobs) {
    if (!live(host)) {
      return null;
    }
    Set<JobView> excluded = jobs.excluded(excludedJobs);
    guard.tick();
    StarvationGuard.Pick starving = guard.pick(host, excluded, jobs::tasksOf);
    if (starving != null) {
      int t = starving.task();
      return new Decision(state.job(t).id(), state.indexInJob(t), t, host, state.level(t, host),
          Decision.STARVING + "no container for " + starving.waited() + " decisions", policy.queueHostOf(t));
    }
    OnlinePolicy.Pick pick = excluded.isEmpty() ? policy.pick(host) : policy.pick(host, excluded);
    if (pick == null) {
      policy.passed(host);
      return null;
    }
    int t = pick.task();
    if (!state.queued(t)) {
      throw new IllegalStateException(policy.name() + " picked task " + t + " in state " + state.state(t));
    }
    JobState j = state.job(t);
    return new Decision(j.id(), state.indexInJob(t), t, host, pick.level(), pick.reason(), pick.queue());
  }

  Decision proposeFor(long jobId, int host) {
    if (!live(host)) {
      return null;
    }
    JobState j = jobs.get(jobId);
    if (j == null || jobs.parked(jobId)) {
      return null;
    }
    OnlinePolicy.Pick pick = policy.pickFor(host, j);
    if (pick == null) {
      return null;
    }
    int t = pick.task();
    if (!state.queued(t) || state.job(t) != j) {
      throw new IllegalStateException(policy.name() + " picked task " + t + " in state " + state.state(t)
          + " for job " + jobId);
    }
    return new Decision(jobId, state.indexInJob(t), t, host, pick.level(), pick.reason(), pick.queue());
  }

  Decision commit(Decision d) {
    int t = d.task();
    if (t < 0 || t >= state.taskCount() || !state.queued(t) || state.job(t).id() != d.jobId() || !live(d.host())) {
      throw new IllegalStateException("stale proposal: " + d);
    }
    if (d.starving()) {
      policy.removed(t);
    } else {
      policy.taken(d.host(), new OnlinePolicy.Pick(t, d.level(), d.reason(), d.queue()));
    }
    outcomes.start(t, d.host());
    return d;
  }

  private boolean live(int host) {
    return host >= 0 && host < state.hostCount() && state.alive(host);
  }
}
