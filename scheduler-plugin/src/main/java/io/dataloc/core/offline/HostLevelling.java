package io.dataloc.core.offline;

import io.dataloc.core.model.Assignment;
import io.dataloc.core.model.Problem;
import io.dataloc.core.model.LocalChains;
import java.util.Arrays;
import java.util.List;

/**
 * Spreads a plan's node-local tasks over hosts. The assigners balance slot loads; when a job has
 * fewer tasks than the cluster has slots every one-task-per-slot plan has the same makespan, so
 * nothing stops a plan from filling the first hosts' slots and leaving others idle — and tasks on
 * one host share its disks and network. This pass keeps the plan's makespan and every task's
 * locality level and lowers the fill of the fullest host ({@code tasks / slots}, counting the
 * work its initial load stands for) step by step.
 *
 * <p>Each step searches ({@link LocalChains}), breadth first from the fullest host, for a chain of node-local tasks
 * {@code h0 → h1 → … → hk}: a task on {@code h0} that is also local to {@code h1}, a task on
 * {@code h1} also local to {@code h2}, …, ending at a host {@code hk} whose fill stays below the
 * source's after taking one more task, on a slot whose load stays within the makespan. Moving
 * the chain takes one task off {@code h0} and adds one to {@code hk}; hosts in between keep
 * their count and each incoming task takes the outgoing task's slot (both node-local, so equal
 * cost). It stops when no host at the top fill among those holding tasks of the plan has such a
 * chain, or after {@code maxMoves}.
 */
public final class HostLevelling {
  private HostLevelling() {}

  /**
   * @param p the problem
   * @param plan any complete assignment of {@code p}
   * @param maxMoves bound on chain moves (each costs one breadth-first search)
   * @return a plan with the same or lower makespan, the same locality level for every task and
   *     a fullest host no fuller than before
   */
  public static Assignment level(Problem p, Assignment plan, int maxMoves) {
    return level(p, plan, maxMoves, () -> false);
  }

  /**
   * As {@link #level(Problem, Assignment, int)}, stopping before a move once {@code stop} says so
   * (a time budget, say): every move keeps the guarantees, so the plan returned has them whenever
   * it stops.
   */
  public static Assignment level(Problem p, Assignment plan, int maxMoves, java.util.function.BooleanSupplier stop) {
    int hosts = p.cluster().hostCount();
    int[] serverOf = plan.toArray();
    long local = p.cost().local();
    long[] load = new long[p.servers()];
    for (int s = 0; s < load.length; s++) {
      load[s] = p.initialLoad(s);
    }
    int nonLocal = 0;
    for (int t = 0; t < p.tasks(); t++) {
      if (!p.isLocal(t, serverOf[t])) {
        nonLocal++;
      }
    }
    // Work already on a host (its slots' initial loads) counts towards its fill.
    int[] count = new int[hosts];
    for (int h = 0; h < hosts; h++) {
      long base = 0;
      for (int s : p.serversOf(h)) {
        base += p.initialLoad(s);
      }
      count[h] = (int) Math.round((double) base / local);
    }
    IntList[] localOn = new IntList[hosts];
    for (int h = 0; h < hosts; h++) {
      localOn[h] = new IntList();
    }
    for (int t = 0; t < p.tasks(); t++) {
      int s = serverOf[t];
      load[s] += p.cost().cost(p.level(t, s), nonLocal);
      count[p.hostOf(s)]++;
      if (p.isLocal(t, s)) {
        localOn[p.hostOf(s)].add(t);
      }
    }
    long makespan = Arrays.stream(load).max().orElse(0);
    LocalChains chains = new LocalChains();
    LocalChains.Graph graph = new LocalChains.Graph() {
      @Override
      public int hosts() {
        return hosts;
      }

      @Override
      public void forEachOn(int host, java.util.function.IntPredicate visit) {
        for (int i = 0; i < localOn[host].size && visit.test(localOn[host].items[i]); i++) {
          // visit returns false once the chain is found
        }
      }

      @Override
      public int localCount(int task) {
        return p.graph().replicaCount(task);
      }

      @Override
      public int localHost(int task, int i) {
        return p.graph().replica(task, i);
      }

      @Override
      public boolean usable(int host) {
        return true;
      }
    };
    for (int move = 0; move < maxMoves && !stop.getAsBoolean(); move++) {
      boolean moved = false;
      int top = -1;
      for (int h = 0; h < hosts; h++) {
        if (localOn[h].size > 0 && (top < 0 || fillBelow(p, count[top], top, count[h], h))) {
          top = h;
        }
      }
      for (int src = 0; src < hosts && top >= 0 && !stop.getAsBoolean(); src++) {
        if (localOn[src].size == 0 || !sameFill(p, count, src, top)) {
          continue; // only hosts at the top fill, holding tasks of this plan to move
        }
        int from = src;
        long limit = makespan - local;
        List<LocalChains.Move> chain = chains.search(graph, src, -1,
            r -> fillBelow(p, count[r] + 1, r, count[from], from) && roomiest(p, r, load, limit) >= 0,
            Integer.MAX_VALUE);
        if (chain == null) {
          continue;
        }
        int target = chain.get(0).host();
        int into = roomiest(p, target, load, limit);
        int slot = into;
        load[into] += local;
        // From the target back to the source: each task takes the slot the next one frees.
        for (LocalChains.Move m : chain) {
          int freed = serverOf[m.task()];
          int fromHost = p.hostOf(freed);
          serverOf[m.task()] = slot;
          localOn[fromHost].remove(m.task());
          localOn[m.host()].add(m.task());
          slot = freed;
        }
        load[slot] -= local;
        count[target]++;
        count[src]--;
        moved = true;
        break;
      }
      if (!moved) {
        break;
      }
    }
    return Assignment.of(p, serverOf);
  }

  private static boolean sameFill(Problem p, int[] count, int a, int b) {
    return (long) count[a] * slots(p, b) == (long) count[b] * slots(p, a);
  }

  /** {@code tasksA / slots(a) < tasksB / slots(b)}. */
  private static boolean fillBelow(Problem p, int tasksA, int a, int tasksB, int b) {
    return (long) tasksA * slots(p, b) < (long) tasksB * slots(p, a);
  }

  private static int slots(Problem p, int host) {
    return Math.max(1, p.cluster().slots(host));
  }

  /** The least-loaded slot of {@code host} with load at most {@code limit}, or -1. */
  private static int roomiest(Problem p, int host, long[] load, long limit) {
    int best = -1;
    for (int s : p.serversOf(host)) {
      if (load[s] <= limit && (best < 0 || load[s] < load[best])) {
        best = s;
      }
    }
    return best;
  }

  /** A growable int list with removal by value (host task lists are short). */
  private static final class IntList {
    int[] items = new int[4];
    int size;

    void add(int v) {
      if (size == items.length) {
        items = Arrays.copyOf(items, size * 2);
      }
      items[size++] = v;
    }

    void remove(int v) {
      for (int i = 0; i < size; i++) {
        if (items[i] == v) {
          items[i] = items[--size];
          return;
        }
      }
    }
  }
}
