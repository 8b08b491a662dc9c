package io.dataloc.core.am;

import io.dataloc.core.online.IntDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The MapReduce ApplicationMaster's container-to-task rule, replayed.
 *
 * <p><b>The rule</b> (Hadoop's {@code RMContainerAllocator}). The AM keeps its pending map tasks in
 * request order — which is task order — in one list per host and one per rack that the task's
 * split names. A container on host {@code h} in rack {@code r} runs the first pending task of
 * {@code h}'s list; if there is none, the first of {@code r}'s list; if there is none, the first
 * pending task of all. The scheduler chooses the container's host, the AM the task; so a scheduler
 * that wants a plan carried out must know which task each container it hands out will run.
 *
 * <p><b>The replay.</b> Each list is an array of task numbers in task order with a cursor past its
 * leading taken tasks, so {@link #take} costs amortised {@code O(1)} per list entry over a job's
 * life; a task that becomes pending again (its container ended before it ran) rewinds every
 * cursor once, by an epoch, not by a walk over the lists. The answer is exactly that of the rule
 * above read literally, the oracle {@code AmReplayTest} checks it against.
 *
 * <p><b>Where it differs from the real AM.</b> The AM matches a whole allocate response at once,
 * host-local first for every container, then rack-local, then any; replaying one container at a
 * time differs only for containers with no local task, and only in which non-local task runs. A
 * map the AM asks for again after a failed attempt joins the end of its lists; here it keeps its
 * place in task order.
 */
public final class AmReplay {
  private final Map<String, TaskList> byHost = new HashMap<>();
  private final Map<String, TaskList> byRack = new HashMap<>();
  private final TaskList all;
  private final boolean[] assigned;
  /** Bumped when a task becomes pending again: every list rewinds its cursor. */
  private int epoch;

  /**
   * @param hostsPerTask the hosts each task's split names, in task order
   * @param rackOf the rack of a host (a host the cluster does not know has a rack of its own, or
   *     the default rack: whatever the AM's topology resolves it to)
   */
  public AmReplay(List<List<String>> hostsPerTask, Function<String, String> rackOf) {
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

  public int tasks() {
    return assigned.length;
  }

  /** The task the AM gives a container on {@code host} (in {@code rack}), or -1; marks it taken. */
  public int take(String host, String rack) {
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
  public int peekLocal(String host) {
    return first(byHost.get(host));
  }

  /**
   * Where the AM's next container on {@code host} would find its task: 0 in the host's own list
   * (data-local), 1 in the rack's, 2 anywhere else, -1 nothing pending.
   */
  public int peekKind(String host, String rack) {
    if (first(byHost.get(host)) >= 0) {
      return 0;
    }
    if (first(byRack.get(rack)) >= 0) {
      return 1;
    }
    return first(all) >= 0 ? 2 : -1;
  }

  /** True if some pending task could still run data-local on a host other than {@code host}. */
  public boolean localElsewhere(String host, java.util.function.Predicate<String> alive) {
    for (Map.Entry<String, TaskList> e : byHost.entrySet()) {
      if (!e.getKey().equals(host) && alive.test(e.getKey()) && first(e.getValue()) >= 0) {
        return true;
      }
    }
    return false;
  }

  /** The task is no longer pending at the AM (it ran, or the AM dropped it). */
  public void markTaken(int task) {
    if (task >= 0 && task < assigned.length) {
      assigned[task] = true;
    }
  }

  /** The task is pending at the AM again (its container failed before it ran). */
  public void markPending(int task) {
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
