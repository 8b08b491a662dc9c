package io.dataloc.core.am;

import io.dataloc.core.model.TaskHosts;
import io.dataloc.core.online.IntDeque;
import java.util.BitSet;
import java.util.function.IntPredicate;
import java.util.function.IntUnaryOperator;

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
 * <p><b>The replay.</b> Over host and rack ids ({@link TaskHosts}): a split's host that no node has
 * keeps no list of its own — no container can ever be on it — and its task joins the list of the
 * rack the AM resolves such a host to (the default rack), so the replay's memory is
 * {@code O(tasks + known replicas)} whatever names the split file holds. Each list is an array of
 * task numbers in task order with a cursor past its leading taken tasks, so {@link #take} costs
 * amortised {@code O(1)} per list entry over a job's life; a task that becomes pending again (its
 * container ended before it ran) rewinds every cursor once, by an epoch, not by a walk over the
 * lists. Each host counts its pending tasks, and the hosts with any are a bit set, so
 * {@link #localElsewhere} looks at the first of them that is up and not the asking host:
 * {@code O(1)} but for hosts that are down (at most the cluster's nodes, a word per 64 of them).
 * The answer is exactly that of the rule above read literally, the oracle {@code AmReplayTest}
 * checks it against.
 *
 * <p><b>Where it differs from the real AM.</b> The AM matches a whole allocate response at once,
 * host-local first for every container, then rack-local, then any; replaying one container at a
 * time differs only for containers with no local task, and only in which non-local task runs. A
 * map the AM asks for again after a failed attempt joins the end of its lists; here it keeps its
 * place in task order.
 */
public final class AmReplay {
  private final TaskList[] byHost;
  /** Rack lists by rack id; the last one is that of hosts with no rack and of hosts no node has. */
  private final TaskList[] byRack;
  private final TaskList all;
  private final TaskHosts hosts;
  private final boolean[] assigned;
  /** Pending tasks whose split names each host. */
  private final int[] pendingAt;
  /** The hosts with a pending task. */
  private final BitSet withPending = new BitSet();
  /** Bumped when a task becomes pending again: every list rewinds its cursor. */
  private int epoch;

  /**
   * @param hosts each task's known hosts as ids, and whether its split names a host no node has
   * @param rackOf the rack id of a host id (non-negative), or a negative number if it has none
   * @param unknownRack the rack id the AM resolves a host no node has to (the default rack's id,
   *     if a node is on it), or negative: a rack no node is on
   */
  public AmReplay(TaskHosts hosts, IntUnaryOperator rackOf, int unknownRack) {
    this.hosts = hosts;
    int tasks = hosts.tasks();
    int hostBound = hosts.hostBound();
    int[] rackOfHost = new int[hostBound];
    int rackBound = Math.max(0, unknownRack + 1);
    for (int h = 0; h < hostBound; h++) {
      rackOfHost[h] = rackOf.applyAsInt(h);
      rackBound = Math.max(rackBound, rackOfHost[h] + 1);
    }
    int noRack = rackBound; // the rack list of hosts with none, and of unknown hosts without a rack of theirs
    IntDeque[] hostLists = new IntDeque[hostBound];
    IntDeque[] rackLists = new IntDeque[rackBound + 1];
    int[] lastInRack = new int[rackBound + 1];
    java.util.Arrays.fill(lastInRack, -1);
    IntDeque every = new IntDeque();
    assigned = new boolean[tasks];
    pendingAt = new int[hostBound];
    for (int t = 0; t < tasks; t++) {
      for (int k = 0; k < hosts.count(t); k++) {
        int h = hosts.host(t, k);
        if (hostLists[h] == null) {
          hostLists[h] = new IntDeque();
        }
        hostLists[h].add(t);
        pendingAt[h]++;
        withPending.set(h);
        addToRack(rackLists, lastInRack, rackOfHost[h] < 0 ? noRack : rackOfHost[h], t);
      }
      if (hosts.namesUnknownHost(t)) {
        addToRack(rackLists, lastInRack, unknownRack < 0 ? noRack : unknownRack, t);
      }
      every.add(t);
    }
    byHost = new TaskList[hostBound];
    for (int h = 0; h < hostBound; h++) {
      byHost[h] = hostLists[h] == null ? null : new TaskList(hostLists[h].toArray());
    }
    byRack = new TaskList[rackLists.length];
    for (int r = 0; r < rackLists.length; r++) {
      byRack[r] = rackLists[r] == null ? null : new TaskList(rackLists[r].toArray());
    }
    all = new TaskList(every.toArray());
  }

  private static void addToRack(IntDeque[] lists, int[] lastInRack, int rack, int t) {
    if (lastInRack[rack] != t) {
      lastInRack[rack] = t;
      if (lists[rack] == null) {
        lists[rack] = new IntDeque();
      }
      lists[rack].add(t);
    }
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

  /** The heap this replay holds, in bytes (an estimate: arrays and their headers). */
  public long bytes() {
    long b = hosts.bytes() + 16L + assigned.length + 16 + 4L * pendingAt.length + withPending.size() / 8
        + 16 + 4L * all.tasks.length;
    for (TaskList[] lists : new TaskList[][] {byHost, byRack}) {
      b += 16 + 4L * lists.length;
      for (TaskList q : lists) {
        b += q == null ? 0 : 32 + 4L * q.tasks.length;
      }
    }
    return b;
  }

  /**
   * The task the AM gives a container on {@code host} (an id; negative: a host no node had when
   * the job was read) in {@code rack} (negative: none), or -1; marks it taken.
   */
  public int take(int host, int rack) {
    int t = first(hostList(host));
    if (t < 0) {
      t = first(rackList(rack));
    }
    if (t < 0) {
      t = first(all);
    }
    if (t >= 0) {
      markTaken(t);
    }
    return t;
  }

  /** The first pending task of {@code host}'s own list (the AM's data-local pick there), or -1. */
  public int peekLocal(int host) {
    return first(hostList(host));
  }

  /**
   * Where the AM's next container on {@code host} would find its task: 0 in the host's own list
   * (data-local), 1 in the rack's, 2 anywhere else, -1 nothing pending.
   */
  public int peekKind(int host, int rack) {
    if (first(hostList(host)) >= 0) {
      return 0;
    }
    if (first(rackList(rack)) >= 0) {
      return 1;
    }
    return first(all) >= 0 ? 2 : -1;
  }

  /** True if some pending task could still run data-local on a host other than {@code host} that is {@code alive}. */
  public boolean localElsewhere(int host, IntPredicate alive) {
    for (int h = withPending.nextSetBit(0); h >= 0; h = withPending.nextSetBit(h + 1)) {
      if (h != host && alive.test(h)) {
        return true;
      }
    }
    return false;
  }

  /** The task is no longer pending at the AM (it ran, or the AM dropped it). */
  public void markTaken(int task) {
    if (task >= 0 && task < assigned.length && !assigned[task]) {
      assigned[task] = true;
      for (int k = 0; k < hosts.count(task); k++) {
        int h = hosts.host(task, k);
        if (--pendingAt[h] == 0) {
          withPending.clear(h);
        }
      }
    }
  }

  /** The task is pending at the AM again (its container failed before it ran). */
  public void markPending(int task) {
    if (task >= 0 && task < assigned.length && assigned[task]) {
      assigned[task] = false;
      for (int k = 0; k < hosts.count(task); k++) {
        int h = hosts.host(task, k);
        pendingAt[h]++;
        withPending.set(h);
      }
      epoch++;
    }
  }

  private TaskList hostList(int host) {
    return host >= 0 && host < byHost.length ? byHost[host] : null;
  }

  /** The list of {@code rack}; negative: that of hosts with no rack; a rack no task's host was on: none. */
  private TaskList rackList(int rack) {
    int noRack = byRack.length - 1;
    return rack < 0 ? byRack[noRack] : rack < noRack ? byRack[rack] : null;
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
