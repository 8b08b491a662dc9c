package io.dataloc.core.offline;

import io.dataloc.core.model.Assignment;
import io.dataloc.core.model.Cancellation;
import io.dataloc.core.model.Level;
import io.dataloc.core.model.LowerBounds;
import io.dataloc.core.model.Problem;
import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * LABL, Locality Aware and Bounded Latency — Agosta et al., Fig. 1.
 *
 * <p>Problem: trade latency (makespan over all servers) against resource {@code C}, given initial
 * loads. Start at the lower bound {@code l = l**} ({@link LowerBounds}) and raise {@code l} by
 * {@code w_loc} until every task is placed. In each iteration, with current loads {@code L_s}:
 * {@code S_sup = {s : L_s ≤ l − w_rem}}, {@code S_inf = {s : l − w_rem < L_s < l}}, {@code T_rem}
 * = unplaced tasks no replica server can still run locally within {@code l}.
 * <ol>
 *   <li>Phase I: servers of {@code S_inf}, most loaded first, take their local tasks, most
 *       constrained (fewest replicas) first, without exceeding {@code l}.
 *   <li>Phase II, while {@code CONSIDERREMOTEASSIGNMENTS(l)}: {@code T_rem} tasks go round robin
 *       to {@code S_sup} servers (least loaded first), each staying in the cycle while it can take
 *       one more at {@code w_rem} within {@code l}.
 *   <li>Phase III: each remaining task goes to its least-loaded replica server if it fits.
 *   <li>With the threshold "always", Phase II runs once more for the tasks Phases I and III left over. The
 *       paper's Phase II sees only {@code T_rem}, but its proof of Thm 1 assumes a task that does
 *       not fit within {@code l} "would have been assigned to s_min in phase II"; without this pass
 *       ten tasks local to one server of five idle ones all stay on it (makespan 10, min load 0).
 *       The other thresholds keep the paper's literal Phase II, which Thm 2's bound needs.
 * </ol>
 * The threshold function is {@link AssignerOptions#lablThreshold()}: always (Thm 1: the final
 * loads satisfy {@code max ≤ min + w_rem}) or while {@code l ≤ l** + k·w_loc}; {@code k = 0} is
 * "first iteration only" (Thm 2: {@code C ≤ Σ_{φ_s < l**} (l** − φ_s)} — the paper writes the sum
 * over all servers, which is smaller than the bound its proof gives when some {@code φ_s > l**};
 * we state and test the proven form).
 *
 * <p>Extensions: a Phase II placement in a replica's rack costs {@code w_rack}; congestion charges
 * Phase II placements {@code w(r + |T_rem|)}. {@code O(|E| log |E| + I·(m + n log n))} for
 * {@code I} iterations, which the paper bounds by {@code (w_rem − w_loc)|T|/|S|}.
 */
public final class BoundedLatency implements Assigner {
  private final int threshold;

  public BoundedLatency(AssignerOptions options) {
    this.threshold = options.lablThreshold();
  }

  @Override
  public String name() {
    return threshold == AssignerOptions.LABL_ALWAYS ? "labl:always"
        : threshold == 0 ? "labl" : "labl:+" + threshold;
  }

  @Override
  public Assignment assign(Problem p) {
    int m = p.tasks();
    int n = p.servers();
    long wLoc = p.cost().local();
    long[] load = new long[n];
    long maxPhi = 0;
    for (int s = 0; s < n; s++) {
      load[s] = p.initialLoad(s);
      maxPhi = Math.max(maxPhi, load[s]);
    }
    int[] serverOf = new int[m];
    Arrays.fill(serverOf, -1);
    // Tasks most constrained first, per server and overall.
    Comparator<Integer> constrained = Comparator.<Integer>comparingInt(p::degree).thenComparingInt(t -> t);
    int[] order = IntStream.range(0, m).boxed().sorted(constrained).mapToInt(Integer::intValue).toArray();
    int[][] localByDegree = new int[n][];
    int[] loc = p.localTasks();
    for (int s = 0; s < n; s++) {
      localByDegree[s] = IntStream.range(p.localStart(s), p.localEnd(s)).map(i -> loc[i]).boxed()
          .sorted(constrained).mapToInt(Integer::intValue).toArray();
    }
    int[] ptr = new int[n];
    long lss = LowerBounds.of(p).lStarStar();
    long lBar = threshold < 0 ? Long.MAX_VALUE : lss + threshold * wLoc;
    long l = lss;
    long nonLocalPlaced = 0;
    int left = m;
    long limit = maxPhi + p.cost().remoteCost(m) * (long) m + wLoc;
    while (left > 0) {
      Cancellation.check();
      if (l > limit) {
        throw new IllegalStateException("LABL did not converge");
      }
      int[] tRem = remoteOnly(p, serverOf, load, l);
      long wRem = p.cost().remoteCost(nonLocalPlaced + tRem.length);
      long wRack = p.cost().rackCost(nonLocalPlaced + tRem.length);
      // Phase I.
      final long lim = l;
      Integer[] inf = IntStream.range(0, n).filter(s -> load[s] > lim - wRem && load[s] < lim)
          .boxed().toArray(Integer[]::new);
      Arrays.sort(inf, Comparator.<Integer>comparingLong(s -> -load[s]).thenComparingInt(s -> s));
      for (int s : inf) {
        int[] list = localByDegree[s];
        while (ptr[s] < list.length && load[s] + wLoc <= l) {
          int t = list[ptr[s]++];
          if (serverOf[t] < 0) {
            serverOf[t] = s;
            load[s] += wLoc;
            left--;
          }
        }
      }
      boolean remoteOn = l <= lBar;
      if (remoteOn) {
        // Phase II.
        int placed = placeRemote(p, tRem, serverOf, load, l, wRem, wRack);
        left -= placed;
        nonLocalPlaced += placed;
      }
      // Phase III.
      int[] srv = p.replicaServers();
      for (int t : order) {
        if (serverOf[t] >= 0) {
          continue;
        }
        int best = -1;
        for (int e = p.replicaStart(t); e < p.replicaEnd(t); e++) {
          if (best < 0 || load[srv[e]] < load[best]) {
            best = srv[e];
          }
        }
        if (load[best] + wLoc <= l) {
          serverOf[t] = best;
          load[best] += wLoc;
          left--;
        }
      }
      if (threshold == AssignerOptions.LABL_ALWAYS && left > 0) {
        // Phase II again, for the tasks Phases I and III could not fit within l: this is what
        // Thm 1's proof needs ("the task would have been assigned to s_min in phase II").
        int[] leftovers = Arrays.stream(order).filter(t -> serverOf[t] < 0).toArray();
        int placed = placeRemote(p, leftovers, serverOf, load, l, wRem, wRack);
        left -= placed;
        nonLocalPlaced += placed;
      }
      l += wLoc;
    }
    return Assignment.of(p, serverOf);
  }

  /**
   * Phase II: tasks round robin over the servers that can take one more at {@code w_rem} within
   * l (least loaded first); a server stays in the cycle while it still can (the paper's
   * {@code S_sup / S'_sup}).
   *
   * @return how many tasks were placed
   */
  private static int placeRemote(
      Problem p, int[] tasks, int[] serverOf, long[] load, long l, long wRem, long wRack) {
    long wLoc = p.cost().local();
    int[] sup = IntStream.range(0, p.servers()).filter(s -> load[s] <= l - wRem).boxed()
        .sorted(Comparator.<Integer>comparingLong(s -> load[s]).thenComparingInt(s -> s))
        .mapToInt(Integer::intValue).toArray();
    int[] next = new int[sup.length];
    int size = sup.length;
    int nextSize = 0;
    int i = 0;
    int placed = 0;
    for (int t : tasks) {
      if (size == 0) {
        break;
      }
      int s = sup[i++];
      Level level = p.level(t, s);
      serverOf[t] = s;
      load[s] += level == Level.LOCAL ? wLoc : level == Level.RACK ? wRack : wRem;
      placed++;
      if (load[s] <= l - wRem) {
        next[nextSize++] = s;
      }
      if (i == size) {
        int[] swap = sup;
        sup = next;
        next = swap;
        size = nextSize;
        nextSize = 0;
        i = 0;
      }
    }
    return placed;
  }

  /** Unplaced tasks that no replica server can still run locally within l. */
  private static int[] remoteOnly(Problem p, int[] serverOf, long[] load, long l) {
    int[] srv = p.replicaServers();
    long wLoc = p.cost().local();
    return IntStream.range(0, p.tasks()).filter(t -> {
      if (serverOf[t] >= 0) {
        return false;
      }
      for (int e = p.replicaStart(t); e < p.replicaEnd(t); e++) {
        if (load[srv[e]] + wLoc <= l) {
          return false;
        }
      }
      return true;
    }).toArray();
  }
}
