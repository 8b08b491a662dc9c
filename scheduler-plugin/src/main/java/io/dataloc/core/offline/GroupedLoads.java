package io.dataloc.core.offline;

import java.util.TreeMap;

/**
 * Least- and most-loaded server queries when loads carry congestion: the load of server {@code s}
 * is {@code base[s] + nl[s]·k}, where {@code nl[s]} counts its non-local tasks and {@code k}
 * (the congestion per non-local task times their number) grows for every server at once. Servers
 * with the same {@code nl} keep their relative order as {@code k} changes, so one lazy heap per
 * distinct {@code nl} suffices, and there are few distinct values. Stale heap entries are skipped
 * when they surface. The arrays are owned by the caller, who calls {@link #touch} after changing
 * a server.
 */
final class GroupedLoads {
  private final long[] base;
  private final int[] nl;
  private final int[] tasks;
  private final TreeMap<Integer, ServerHeap> minHeaps = new TreeMap<>();
  private final TreeMap<Integer, ServerHeap> maxHeaps = new TreeMap<>();

  GroupedLoads(long[] base, int[] nl, int[] tasks) {
    this.base = base;
    this.nl = nl;
    this.tasks = tasks;
  }

  /** Records server s's current base, non-local count and task count. */
  void touch(int s) {
    minHeaps.computeIfAbsent(nl[s], g -> new ServerHeap(16)).push(s, base[s]);
    if (tasks[s] > 0) {
      maxHeaps.computeIfAbsent(nl[s], g -> new ServerHeap(16)).push(s, -base[s]);
    }
  }

  /** The least-loaded server (ties by index), or -1. */
  int min(long k) {
    int best = -1;
    long bestLoad = Long.MAX_VALUE;
    for (var e : minHeaps.entrySet()) {
      int g = e.getKey();
      ServerHeap h = e.getValue();
      while (!h.isEmpty() && (nl[h.peek()] != g || base[h.peek()] != h.peekKey())) {
        h.pop();
      }
      if (!h.isEmpty()) {
        long load = h.peekKey() + g * k;
        if (load < bestLoad || (load == bestLoad && h.peek() < best)) {
          best = h.peek();
          bestLoad = load;
        }
      }
    }
    return best;
  }

  /** The most-loaded server with at least one task (ties by index), or -1. */
  int maxActive(long k) {
    int best = -1;
    long bestLoad = Long.MIN_VALUE;
    for (var e : maxHeaps.entrySet()) {
      int g = e.getKey();
      ServerHeap h = e.getValue();
      while (!h.isEmpty()
          && (nl[h.peek()] != g || base[h.peek()] != -h.peekKey() || tasks[h.peek()] == 0)) {
        h.pop();
      }
      if (!h.isEmpty()) {
        long load = -h.peekKey() + g * k;
        if (load > bestLoad || (load == bestLoad && h.peek() < best)) {
          best = h.peek();
          bestLoad = load;
        }
      }
    }
    return best;
  }

  long load(int s, long k) {
    return base[s] + nl[s] * k;
  }
}
