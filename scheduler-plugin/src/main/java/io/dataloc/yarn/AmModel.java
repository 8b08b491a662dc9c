package io.dataloc.yarn;

import io.dataloc.core.online.IntDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A replay of the MapReduce AM's container matching (RMContainerAllocator): per host and per rack
 * a list of map tasks in request (task) order; a container on host h goes to the first pending
 * task of h's list, else of h's rack's list, else the first pending task. Knowing this, the
 * scheduler knows which task a container it hands out will really run, and keeps its plan and
 * queues true to it. (The AM matches a whole batch host-pass first; replaying one container at a
 * time differs only for containers with no local task, and only in which non-local task runs.)
 */
final class AmModel {
  private final Map<String, TaskList> byHost = new HashMap<>();
  private final Map<String, TaskList> byRack = new HashMap<>();
  private final TaskList all;
  private final boolean[] assigned;
  /** Bumped when a task becomes pending again: every list rewinds its cursor. */
  private int epoch;

  AmModel(List<List<String>> hostsPerTask, Function<String, String> rackOf) {
    assigned = new boolean[hostsPerTask.size()];
    Map<String, IntDeque> hosts = new HashMap<>();
    Map<String, IntDeque> racks = new HashMap<>();
    Map<String, Integer> lastInRack = new HashMap<>();
    IntDeque every = new IntDeque();
    for (int t = 0; t < hostsPerTask.size(); t++) {
      for (String h : hostsPerTask.get(t)) {
        hosts.computeIfAbsent(h, k -> new IntDeque()).add(t);
        String rack = rackOf.apply(h);
        if (!Integer.valueOf(t).equals(lastInRack.put(rack, t))) {
          racks.computeIfAbsent(rack, k -> new IntDeque()).add(t);
        }
      }
      every.add(t);
    }
    hosts.forEach((h, q) -> byHost.put(h, new TaskList(q.toArray())));
    racks.forEach((r, q) -> byRack.put(r, new TaskList(q.toArray())));
    all = new TaskList(every.toArray());
  }

  /** A task list in AM order with a cursor past the leading taken tasks. */
  private static final class TaskList {
    final int[] tasks;
    int cursor;
    int epoch;

    TaskList(int[] tasks) {
      this.tasks = tasks;
    }
  }

  int tasks() {
    return assigned.length;
  }

  /** The task the AM gives a container on {@code host} (in {@code rack}), or -1; marks it taken. */
  int take(String host, String rack) {
    int t = first(byHost.get(host));
    if (t < 0) {
      t = first(byRack.get(rack));
    }
    if (t < 0) {
      t = first(all);
    }
    if (t >= 0) {
      assigned[t] = true;
    }
    return t;
  }

  /** The first pending task of {@code host}'s own list (the AM's data-local pick there), or -1. */
  int peekLocal(String host) {
    return first(byHost.get(host));
  }

  /**
   * Where the AM's next container on {@code host} would find its task: 0 in the host's own list
   * (data-local), 1 in the rack's, 2 anywhere else, -1 nothing pending.
   */
  int peekKind(String host, String rack) {
    if (first(byHost.get(host)) >= 0) {
      return 0;
    }
    if (first(byRack.get(rack)) >= 0) {
      return 1;
    }
    return first(all) >= 0 ? 2 : -1;
  }

  /** True if some pending task could still run data-local on a host other than {@code host}. */
  boolean localElsewhere(String host, java.util.function.Predicate<String> alive) {
    for (Map.Entry<String, TaskList> e : byHost.entrySet()) {
      if (!e.getKey().equals(host) && alive.test(e.getKey()) && first(e.getValue()) >= 0) {
        return true;
      }
    }
    return false;
  }

  /** The task is no longer pending at the AM (it ran, or the AM dropped it). */
  void markTaken(int task) {
    if (task >= 0 && task < assigned.length) {
      assigned[task] = true;
    }
  }

  /** The task is pending at the AM again (its container failed before it ran). */
  void markPending(int task) {
    if (task >= 0 && task < assigned.length && assigned[task]) {
      assigned[task] = false;
      epoch++;
    }
  }

  private int first(TaskList q) {
    if (q == null) {
      return -1;
    }
    if (q.epoch != epoch) {
      q.cursor = 0;
      q.epoch = epoch;
    }
    while (q.cursor < q.tasks.length && assigned[q.tasks[q.cursor]]) {
      q.cursor++;
    }
    return q.cursor < q.tasks.length ? q.tasks[q.cursor] : -1;
  }
}
