package io.dataloc.core.online;

import io.dataloc.core.jobs.JobView;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Pending tasks by replica host, by replica rack and overall, each in arrival order, with lazy
 * deletion (an entry counts while its task is still queued). The greedy baselines use one for the
 * whole cluster or one per job; each task sits in every list it belongs to and is dropped from a
 * list when it surfaces there after leaving the pending set, so every entry is touched once.
 * Entries are (task, generation) pairs: a task number reused by a later task is not taken for the
 * stale entry's.
 */
final class PendingIndex {
  /** Entries one look past excluded jobs may visit. */
  static final int EXCLUDED_SCAN = 1_024;
  private final Map<Integer, IntDeque> byHost = new HashMap<>();
  private final Map<Integer, IntDeque> byRack = new HashMap<>();
  private final IntDeque all = new IntDeque();
  private int pending;

  void add(PolicyState s, int task) {
    for (int h : s.replicas(task)) {
      push(byHost.computeIfAbsent(h, k -> new IntDeque()), s, task);
    }
    int seenRack = Integer.MIN_VALUE;
    for (int h : s.replicas(task)) {
      int r = s.rackOf(h);
      if (r != PolicyState.NO_RACK && r != seenRack) {
        push(byRack.computeIfAbsent(r, k -> new IntDeque()), s, task);
        seenRack = r;
      }
    }
    push(all, s, task);
    pending++;
  }

  /** Call when a task of this index leaves the pending set. */
  void left() {
    pending--;
  }

  int pending() {
    return pending;
  }

  int firstOnHost(PolicyState s, int host, Set<JobView> excluded) {
    return first(s, byHost.get(host), excluded);
  }

  int firstInRack(PolicyState s, int rack, Set<JobView> excluded) {
    return rack == PolicyState.NO_RACK ? -1 : first(s, byRack.get(rack), excluded);
  }

  int firstAny(PolicyState s, Set<JobView> excluded) {
    return first(s, all, excluded);
  }

  void forgetHost(int host) {
    byHost.remove(host);
  }

  private static void push(IntDeque q, PolicyState s, int task) {
    q.add(task);
    q.add(s.generation(task));
  }

  /**
   * The earliest live entry not of an excluded job, or -1; stale entries in front go. Past the
   * excluded jobs' entries it looks at no more than {@value #EXCLUDED_SCAN} entries (a bound on one
   * free slot's work; beyond it the list counts as having none for this slot).
   */
  private static int first(PolicyState s, IntDeque q, Set<JobView> excluded) {
    if (q == null) {
      return -1;
    }
    while (!q.isEmpty() && !live(s, q, 0)) {
      q.poll();
      q.poll();
    }
    for (int i = 0; i < q.size() && i < 2 * EXCLUDED_SCAN; i += 2) {
      if (live(s, q, i) && (excluded.isEmpty() || !excluded.contains(s.job(q.get(i))))) {
        return q.get(i);
      }
      if (excluded.isEmpty()) {
        break;
      }
    }
    return -1;
  }

  private static boolean live(PolicyState s, IntDeque q, int i) {
    return s.queued(q.get(i)) && s.generation(q.get(i)) == q.get(i + 1);
  }
}
