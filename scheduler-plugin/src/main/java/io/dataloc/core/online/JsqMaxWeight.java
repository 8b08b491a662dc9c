package io.dataloc.core.online;

import io.dataloc.core.model.Level;
import java.util.ArrayList;
import java.util.List;

/**
 * JSQ routing with MaxWeight service — Wang, Zhu, Ying, Tan, Zhang (INFOCOM 2013).
 *
 * <p>One local queue {@code Q_m} per host and one common remote queue {@code Q̄}. <b>Routing</b>:
 * an arriving task joins the shortest of its replica hosts' local queues and {@code Q̄}, ties
 * broken by the engine's seeded random source. <b>Service</b>: a host with a free slot serves its
 * local queue if {@code α·Q_m ≥ γ·Q̄}, else the common queue (non-preemptive). Inside each queue,
 * per-job sub-queues are served in the engine's job order ({@code fair}: fewest running first).
 * Throughput optimal and heavy-traffic delay optimal for two-level locality (their Thms 1–4).
 *
 * <p>Plans: a planned local task joins its planned host's local queue, a planned non-local task
 * the common queue ("plans route, queues serve").
 *
 * <p>With {@code steal}, a host whose local queue and the common queue are both empty takes a
 * task of the longest local queue (as remote work) instead of idling, when running it remotely
 * now beats its wait there ({@code γ·Q > k·α} for a host of {@code k} slots) — an extension
 * beyond the paper, for loads where
 * tasks are tied to a few busy queues at arrival while data-less machines idle.
 */
public final class JsqMaxWeight implements OnlinePolicy {
  private static final int COMMON = Integer.MAX_VALUE;
  private static final String LOCAL_REASON = "local queue: α·Q_m ≥ γ·Q̄";
  private static final String COMMON_REASON = "common queue: α·Q_m < γ·Q̄";
  private static final String COMMON_REASON_EMPTY = "common queue: local queue empty";
  private static final String LOCAL_REASON_JOB = "the job's task in this host's local queue";
  private static final String COMMON_REASON_JOB = "the job's task in the common queue";
  private static final String STEAL_REASON = "stolen from the longest local queue: γ·Q > k·α";
  private final boolean steal;
  private PolicyState s;
  private ServiceRates rates;
  private final List<TaskQueue> local = new ArrayList<>();
  private final TaskQueue common = new TaskQueue(COMMON);
  private final Owners owners = new Owners();
  /** The local queues' lengths, for stealing from the longest (kept only with {@code steal}). */
  private final LongestQueue longest = new LongestQueue();

  public JsqMaxWeight(boolean steal) {
    this.steal = steal;
  }

  @Override
  public String name() {
    return steal ? "jsq-maxweight-steal" : "jsq-maxweight";
  }

  @Override
  public void attach(PolicyState state, ServiceRates r) {
    this.s = state;
    this.rates = r;
  }

  private TaskQueue localQueue(int host) {
    while (local.size() <= host) {
      local.add(new TaskQueue(local.size()));
    }
    return local.get(host);
  }

  @Override
  public void route(int task) {
    routeAvoiding(task, -1);
  }

  @Override
  public void routeAvoiding(int task, int avoid) {
    TaskQueue best = common;
    int ties = 1;
    for (int h : s.replicas(task)) {
      if (!s.alive(h) || h == avoid) {
        continue;
      }
      TaskQueue q = localQueue(h);
      if (q.size() < best.size()) {
        best = q;
        ties = 1;
      } else if (q.size() == best.size() && s.random().nextInt(++ties) == 0) {
        best = q;
      }
    }
    best.add(s, task, owners.array(task));
    changed(best);
  }

  @Override
  public void enqueuePlanned(int task, int host, Level level) {
    TaskQueue q = level == Level.LOCAL && s.alive(host) ? localQueue(host) : common;
    q.add(s, task, owners.array(task));
    changed(q);
  }

  @Override
  public void removed(int task) {
    leave(task, false);
  }

  @Override
  public void taken(int host, Pick pick) {
    leave(pick.task(), true);
  }

  /** The task leaves its queue; {@code picked}: it was the head {@link TaskQueue#peek} named. */
  private void leave(int task, boolean picked) {
    int o = owners.get(task);
    if (o >= 0) {
      owners.clear(task);
      TaskQueue q = o == COMMON ? common : local.get(o);
      if (picked) {
        q.take(s, task);
      } else {
        q.forget(s, task);
      }
      changed(q);
    }
  }

  @Override
  public Pick pick(int host) {
    return pick(host, java.util.Set.of());
  }

  @Override
  public boolean forEachQueued(int host, io.dataloc.core.jobs.JobView job, java.util.function.IntPredicate visit) {
    if (host >= 0 && host < local.size()) {
      local.get(host).forEachQueued(s, job, owners.array(s.taskCount()), visit);
    }
    return true;
  }

  @Override
  public int queueHostOf(int task) {
    int o = owners.get(task);
    return o == COMMON ? -1 : o;
  }

  @Override
  public Pick pick(int host, java.util.Set<io.dataloc.core.jobs.JobView> excluded) {
    TaskQueue mine = localQueue(host);
    long qm = mine.size();
    long qc = common.size();
    int[] owner = owners.array(s.taskCount());
    if (qm > 0 && rates.alpha() * qm >= rates.gamma() * qc) {
      int t = mine.peek(s, owner, excluded);
      if (t >= 0) {
        return new Pick(t, s.level(t, host), LOCAL_REASON, host);
      }
    }
    if (qc > 0) {
      int t = common.peek(s, owner, excluded);
      if (t >= 0) {
        return new Pick(t, s.level(t, host), qm == 0 ? COMMON_REASON_EMPTY : COMMON_REASON);
      }
    }
    if (qm > 0) {
      int t = mine.peek(s, owner, excluded);
      if (t >= 0) {
        return new Pick(t, s.level(t, host), LOCAL_REASON, host);
      }
    }
    if (steal) {
      TaskQueue victim = longestLocalQueue();
      // Steal only when running remotely now beats waiting: the last of Q tasks, served by the
      // victim's k slots at rate α each, waits Q/(k·α); a remote run takes 1/γ; steal iff γ·Q > k·α.
      if (victim != null
          && rates.gamma() * victim.size() > rates.alpha() * Math.max(1, s.slots(victim.id()))) {
        int t = victim.peek(s, owner, excluded);
        if (t >= 0) {
          return new Pick(t, s.level(t, host), STEAL_REASON, victim.id());
        }
      }
    }
    return null;
  }

  /**
   * One job's task for {@code host}: the head of its sub-queue in the host's local queue (the plan
   * put it here), else in the common queue (the plan runs it remotely anywhere), else, with {@code
   * steal}, in the longest local queue when stealing pays ({@code γ·Q > k·α}, as {@link #pick}).
   * MaxWeight's choice between the local and the common queue weighs every job's work; for one
   * job the local task always comes first. Amortised {@code O(1)}.
   */
  @Override
  public Pick pickFor(int host, io.dataloc.core.jobs.JobView job) {
    int[] owner = owners.array(s.taskCount());
    if (host >= 0 && host < local.size()) {
      int t = local.get(host).peekJob(s, owner, job);
      if (t >= 0) {
        return new Pick(t, s.level(t, host), LOCAL_REASON_JOB, host);
      }
    }
    int t = common.peekJob(s, owner, job);
    if (t >= 0) {
      return new Pick(t, s.level(t, host), COMMON_REASON_JOB);
    }
    if (steal) {
      TaskQueue victim = longestLocalQueue();
      if (victim != null && victim.id() != host
          && rates.gamma() * victim.size() > rates.alpha() * Math.max(1, s.slots(victim.id()))) {
        t = victim.peekJob(s, owner, job);
        if (t >= 0) {
          return new Pick(t, s.level(t, host), STEAL_REASON, victim.id());
        }
      }
    }
    return null;
  }

  /** The longest local queue (highest host among equals), or null if every local queue is empty. */
  private TaskQueue longestLocalQueue() {
    int host = longest.top();
    return host < 0 ? null : local.get(host);
  }

  /** Keeps {@link #longest} true to a queue whose length may have changed. */
  private void changed(TaskQueue q) {
    if (steal && q != common) {
      longest.set(q.id(), q.size());
    }
  }

  @Override
  public int[] hostLost(int host) {
    if (host >= local.size()) {
      return new int[0];
    }
    int[] drained = local.get(host).drain(s, owners.array(s.taskCount()));
    changed(local.get(host));
    return drained;
  }

  @Override
  public int queuedFor(int host) {
    return host < local.size() ? local.get(host).size() : 0;
  }

  /** The common queue's length (for tests and the scheduler page). */
  public int commonQueueLength() {
    return common.size();
  }
}
