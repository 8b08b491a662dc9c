package io.dataloc.core.engine;

import io.dataloc.core.online.OnlinePolicy;
import java.util.function.IntPredicate;

/**
 * The engine's hosts coming and going: a host added (or revived) with its slots, drained when it
 * is decommissioned (no new tasks, its queue re-routed, its running tasks run on), removed when
 * lost (its running tasks pending again and routed). A host's index never changes, so task
 * replicas and queues keep naming it across its absences.
 */
final class EngineHosts {
  private final EngineState state;
  private final OnlinePolicy policy;
  private final StarvationGuard guard;

  EngineHosts(EngineState state, OnlinePolicy policy, StarvationGuard guard) {
    this.state = state;
    this.policy = policy;
    this.guard = guard;
  }

  int add(String name, String rack, int slots) {
    if (slots < 0) {
      throw new IllegalArgumentException("host " + name + ": slots must be >= 0");
    }
    int h = state.addHost(name, rack, slots);
    guard.hostsChanged();
    policy.hostAdded(h);
    return h;
  }

  int drain(int host) {
    if (host < 0 || host >= state.hostCount() || !state.alive(host)) {
      return 0;
    }
    state.setAlive(host, false);
    state.setDraining(host, true);
    guard.hostsChanged();
    int moved = 0;
    for (int t : policy.hostLost(host)) {
      policy.route(t);
      moved++;
    }
    return moved;
  }

  void setSlots(int host, int slots) {
    guard.hostsChanged();
    state.setSlots(host, Math.max(0, slots));
  }

  /** {@code backToPending}: makes a running task pending again; false if it was not running. */
  int remove(int host, IntPredicate backToPending) {
    if (host < 0 || host >= state.hostCount() || !state.alive(host) && !state.draining(host)) {
      return 0;
    }
    int moved = drain(host);
    state.setDraining(host, false);
    for (int t = 0; t < state.taskCount(); t++) {
      if (state.state(t) == TaskState.RUNNING && state.hostOf(t) == host && backToPending.test(t)) {
        policy.route(t);
        moved++;
      }
    }
    return moved;
  }
}
