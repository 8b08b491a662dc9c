package io.dataloc.core.online;

import java.util.HashMap;
import java.util.Map;

/**
 * Pending tasks by replica host, by replica rack and overall, each in arrival order, with lazy
 * deletion (an entry counts while its task is still queued). The greedy baselines use one for the
 * whole cluster or one per job; each task sits in every list it belongs to and is dropped from a
 * list when it surfaces there after leaving the pending set, so every entry is touched once.
 * Entries are (task, generation) pairs: a task number reused by a later task is not taken for the
 * stale entry's.
 */
final class PendingIndex {
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

  int firstOnHost(PolicyState s, int host) {
    return first(s, byHost.get(host));
  }

  int firstInRack(PolicyState s, int rack) {
    return rack == PolicyState.NO_RACK ? -1 : first(s, byRack.get(rack));
  }

  int firstAny(PolicyState s) {
    return first(s, all);
  }

  void forgetHost(int host) {
    byHost.remove(host);
  }

  private static void push(IntDeque q, PolicyState s, int task) {
    q.add(task);
    q.add(s.generation(task));
  }

  private static int first(PolicyState s, IntDeque q) {
    if (q == null) {
      return -1;
    }
    while (!q.isEmpty() && !(s.queued(q.get(0)) && s.generation(q.get(0)) == q.get(1))) {
      q.poll();
      q.poll();
    }
    return q.isEmpty() ? -1 : q.peek();
  }
}
