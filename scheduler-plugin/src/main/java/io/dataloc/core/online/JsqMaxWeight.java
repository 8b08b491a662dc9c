package io.dataloc.core.online;

import io.dataloc.core.engine.EngineState;
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
 * <p>With {@code steal}, a host whose local queue and the common queue are both empty takes the
 * oldest task of the longest local queue (as remote work) instead of idling — an extension beyond
 * the paper, for the hot-spot case where tasks are tied to a few busy queues at arrival.
 */
public final class JsqMaxWeight implements OnlinePolicy {
  private static final int COMMON = Integer.MAX_VALUE;
  private final boolean steal;
  private EngineState s;
  private ServiceRates rates;
  private final List<TaskQueue> local = new ArrayList<>();
  private final TaskQueue common = new TaskQueue(COMMON);
  private final Owners owners = new Owners();

  public JsqMaxWeight(boolean steal) {
    this.steal = steal;
  }

  @Override
  public String name() {
    return steal ? "jsq-maxweight-steal" : "jsq-maxweight";
  }

  @Override
  public void attach(EngineState state, ServiceRates r) {
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
    TaskQueue best = common;
    int ties = 1;
    for (int h : s.replicas(task)) {
      if (!s.alive(h)) {
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
  }

  @Override
  public void enqueuePlanned(int task, int host, Level level) {
    TaskQueue q = level == Level.LOCAL && s.alive(host) ? localQueue(host) : common;
    q.add(s, task, owners.array(task));
  }

  @Override
  public void removed(int task) {
    int o = owners.get(task);
    if (o >= 0) {
      owners.clear(task);
      (o == COMMON ? common : local.get(o)).forget(s, task);
    }
  }

  @Override
  public Pick pick(int host) {
    TaskQueue mine = localQueue(host);
    long qm = mine.size();
    long qc = common.size();
    int[] owner = owners.array(s.taskCount());
    if (qm > 0 && rates.alpha() * qm >= rates.gamma() * qc) {
      int t = mine.poll(s, owner);
      return new Pick(t, s.level(t, host), "local queue (α·Q=" + rates.alpha() * qm / 1000.0 + " ≥ γ·Q̄="
          + rates.gamma() * qc / 1000.0 + ")");
    }
    if (qc > 0) {
      int t = common.poll(s, owner);
      return new Pick(t, s.level(t, host), "common queue (α·Q=" + rates.alpha() * qm / 1000.0 + " < γ·Q̄="
          + rates.gamma() * qc / 1000.0 + ")");
    }
    if (steal) {
      TaskQueue longest = null;
      for (TaskQueue q : local) {
        if (q.size() > 1 && (longest == null || q.size() > longest.size())) {
          longest = q;
        }
      }
      if (longest != null) {
        int t = longest.poll(s, owner);
        return new Pick(t, s.level(t, host), "stolen from the longest local queue (host "
            + s.hostName(longest.id()) + ", " + (longest.size() + 1) + " waiting)");
      }
    }
    return null;
  }

  @Override
  public int[] hostLost(int host) {
    return host < local.size() ? local.get(host).drain(s, owners.array(s.taskCount())) : new int[0];
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
