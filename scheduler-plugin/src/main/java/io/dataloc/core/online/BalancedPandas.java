package io.dataloc.core.online;

import io.dataloc.core.model.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Balanced-PANDAS — Xie, Yekkehkhany and Lu (2016), Yekkehkhany et al. (2018): the three-level
 * (local / rack / remote) successor of JSQ-MaxWeight, throughput optimal and heavy-traffic delay
 * optimal.
 *
 * <p>Every host {@code m} keeps three queues, {@code Q^l_m, Q^k_m, Q^r_m}, and a workload
 * {@code W_m = Q^l_m/α + Q^k_m/β + Q^r_m/γ} (the expected time to drain them). <b>Routing</b>: an
 * arriving task joins host {@code m* = argmin_m W_m / rate(task, m)}, in the queue of its locality
 * there; only three kinds of host can win — a replica host, the least-loaded host of a replica's
 * rack, the least-loaded host overall — so routing is {@code O(replicas · log n)}. <b>Service</b>:
 * a free slot serves its local queue, then its rack queue, then its remote queue. Workloads are
 * compared exactly: {@code W·αβγ} is an integer.
 *
 * <p>Plans: a planned task joins its planned host's queue of the planned level.
 */
public final class BalancedPandas implements OnlinePolicy {
  private static final String[] WHY = {"local queue first", "rack queue: local queue empty",
      "remote queue: local and rack queues empty"};
  private PolicyState s;
  private ServiceRates rates;
  private final List<TaskQueue[]> queues = new ArrayList<>();
  private long[] work = new long[16];
  private final Owners owners = new Owners();
  private long alpha;
  private long beta;
  private long gamma;
  private TreeSet<Integer> byWork;
  private final List<TreeSet<Integer>> rackByWork = new ArrayList<>();

  @Override
  public String name() {
    return "balanced-pandas";
  }

  @Override
  public void attach(PolicyState state, ServiceRates r) {
    this.s = state;
    this.rates = r;
    byWork = new TreeSet<>(this::compareWork);
    snapshotRates();
  }

  private int compareWork(Integer a, Integer b) {
    int c = Long.compare(work[a], work[b]);
    return c != 0 ? c : Integer.compare(a, b);
  }

  private void snapshotRates() {
    alpha = rates.alpha();
    beta = rates.beta();
    gamma = rates.gamma();
  }

  /** Re-keys every host if learned rates changed since the last call. */
  private void refreshRates() {
    if (alpha == rates.alpha() && beta == rates.beta() && gamma == rates.gamma()) {
      return;
    }
    snapshotRates();
    List<Integer> hosts = new ArrayList<>(byWork);
    byWork.clear();
    rackByWork.forEach(TreeSet::clear);
    for (int h : hosts) {
      work[h] = computeWork(h);
      index(h);
    }
  }

  private TaskQueue[] queuesOf(int h) {
    while (queues.size() <= h) {
      int id = queues.size();
      queues.add(new TaskQueue[] {new TaskQueue(3 * id), new TaskQueue(3 * id + 1), new TaskQueue(3 * id + 2)});
    }
    if (work.length <= h) {
      work = java.util.Arrays.copyOf(work, Math.max(h + 1, work.length * 2));
    }
    return queues.get(h);
  }

  private long computeWork(int h) {
    TaskQueue[] q = queuesOf(h);
    return q[0].size() * beta * gamma + q[1].size() * alpha * gamma + q[2].size() * alpha * beta;
  }

  private TreeSet<Integer> rackSet(int rack) {
    while (rackByWork.size() <= rack) {
      rackByWork.add(new TreeSet<>(this::compareWork));
    }
    return rackByWork.get(rack);
  }

  private void index(int h) {
    if (!s.alive(h)) {
      return;
    }
    byWork.add(h);
    if (s.rackOf(h) != PolicyState.NO_RACK) {
      rackSet(s.rackOf(h)).add(h);
    }
  }

  private void unindex(int h) {
    byWork.remove(h);
    if (s.rackOf(h) != PolicyState.NO_RACK) {
      rackSet(s.rackOf(h)).remove(h);
    }
  }

  /** Makes sure every live host is indexed (hosts join the engine at any time). */
  private void ensureHosts() {
    for (int h = queues.size(); h < s.hostCount(); h++) {
      queuesOf(h);
      work[h] = 0;
      index(h);
    }
  }

  private void enqueue(int task, int h, Level level) {
    TaskQueue[] q = queuesOf(h);
    unindex(h);
    q[level.ordinal()].add(s, task, owners.array(task));
    work[h] = computeWork(h);
    index(h);
  }

  @Override
  public void hostAdded(int host) {
    ensureHosts();
    unindex(host);
    work[host] = computeWork(host);
    index(host);
  }

  @Override
  public void route(int task) {
    route(task, -1);
  }

  /**
   * As {@link #route}, never to {@code avoid} while another live host can take the task (a host
   * that refused it; in a one-host cluster it is the only one).
   */
  @Override
  public void routeAvoiding(int task, int avoid) {
    route(task, avoid);
  }

  private void route(int task, int avoid) {
    ensureHosts();
    refreshRates();
    int best = -1;
    Level bestLevel = null;
    for (int h : s.replicas(task)) {
      if (s.alive(h) && h != avoid) {
        if (best < 0 || better(h, Level.LOCAL, best, bestLevel)) {
          best = h;
          bestLevel = Level.LOCAL;
        }
      }
    }
    for (int h : s.replicas(task)) {
      int rack = s.rackOf(h);
      if (rack != PolicyState.NO_RACK && rack < rackByWork.size()) {
        int c = firstBut(rackSet(rack), avoid);
        if (c >= 0) {
          Level l = s.level(task, c);
          if (best < 0 || better(c, l, best, bestLevel)) {
            best = c;
            bestLevel = l;
          }
        }
      }
    }
    int c = firstBut(byWork, avoid);
    if (c >= 0) {
      Level l = s.level(task, c);
      if (best < 0 || better(c, l, best, bestLevel)) {
        best = c;
        bestLevel = l;
      }
    }
    if (best < 0 && avoid >= 0) {
      route(task, -1); // no other live host
      return;
    }
    if (best < 0) {
      throw new IllegalStateException("no live host to route a task to");
    }
    enqueue(task, best, bestLevel);
  }

  /** The least loaded host of the set but {@code avoid} (at most two looked at), or -1. */
  private static int firstBut(TreeSet<Integer> set, int avoid) {
    for (int h : set) {
      if (h != avoid) {
        return h;
      }
    }
    return -1;
  }

  /** W_a / rate(la) < W_b / rate(lb), exactly; ties keep the earlier candidate. */
  private boolean better(int a, Level la, int b, Level lb) {
    long lhs = work[a] * rates.rate(lb.ordinal());
    long rhs = work[b] * rates.rate(la.ordinal());
    return lhs < rhs;
  }

  @Override
  public void enqueuePlanned(int task, int host, Level level) {
    ensureHosts();
    if (!s.alive(host)) {
      route(task);
      return;
    }
    enqueue(task, host, level);
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
      int h = o / 3;
      unindex(h);
      TaskQueue q = queues.get(h)[o % 3];
      if (picked) {
        q.take(s, task);
      } else {
        q.forget(s, task);
      }
      work[h] = computeWork(h);
      index(h);
    }
  }

  @Override
  public Pick pick(int host) {
    return pick(host, java.util.Set.of());
  }

  @Override
  public Pick pick(int host, java.util.Set<io.dataloc.core.jobs.JobView> excluded) {
    ensureHosts();
    TaskQueue[] q = queuesOf(host);
    for (int level = 0; level < 3; level++) {
      int t = q[level].isEmpty() ? -1 : q[level].peek(s, owners.array(s.taskCount()), excluded);
      if (t >= 0) {
        return new Pick(t, s.level(t, host), WHY[level], level == 0 ? host : -1);
      }
    }
    return null;
  }

  /** One job's task for {@code host}: its head in the host's local, rack, then remote queue. Amortised {@code O(1)}. */
  @Override
  public Pick pickFor(int host, io.dataloc.core.jobs.JobView job) {
    ensureHosts();
    TaskQueue[] q = queuesOf(host);
    for (int level = 0; level < 3; level++) {
      int t = q[level].peekJob(s, owners.array(s.taskCount()), job);
      if (t >= 0) {
        return new Pick(t, s.level(t, host), WHY[level], level == 0 ? host : -1);
      }
    }
    return null;
  }

  @Override
  public int queueHostOf(int task) {
    int o = owners.get(task);
    return o < 0 ? -1 : o / 3;
  }

  @Override
  public int[] hostLost(int host) {
    if (host >= queues.size()) {
      return new int[0];
    }
    unindex(host);
    int[] owner = owners.array(s.taskCount());
    TaskQueue[] q = queues.get(host);
    int[] a = q[0].drain(s, owner);
    int[] b = q[1].drain(s, owner);
    int[] c = q[2].drain(s, owner);
    work[host] = 0;
    int[] all = new int[a.length + b.length + c.length];
    System.arraycopy(a, 0, all, 0, a.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    System.arraycopy(c, 0, all, a.length + b.length, c.length);
    return all;
  }

  @Override
  public int queuedFor(int host) {
    if (host >= queues.size()) {
      return 0;
    }
    TaskQueue[] q = queues.get(host);
    return q[0].size() + q[1].size() + q[2].size();
  }
}
