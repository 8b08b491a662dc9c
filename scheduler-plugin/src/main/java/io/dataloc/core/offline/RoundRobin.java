package io.dataloc.core.offline;

import io.dataloc.core.model.Assignment;
import io.dataloc.core.model.Cancellation;
import io.dataloc.core.model.Problem;
import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * Round robin exploring locality — Fischer, Su and Yin, Algorithm 1: the stock Hadoop behaviour
 * and the baseline of every paper.
 *
 * <p>Problem: assign {@code m} tasks to {@code n} servers. The servers are scanned in a fixed
 * cycle; the current server takes one unassigned task local to it if there is one, else (with
 * racks) one local to its rack, else any unassigned task. The paper leaves the task choice open;
 * here it is the MapReduce AM's rule, the first pending task in task order, so the algorithm is
 * deterministic. Initial loads (a concept the paper lacks) fix the cycle order: least-loaded
 * servers first, ties by index — the servers that heartbeat first; beyond that, like the stock
 * scheduler, it ignores how busy a server is.
 *
 * <p>Guarantees with zero initial loads and uniform costs: every server gets at most
 * {@code ⌈m/n⌉} tasks, so {@code L^A ≤ (w_rem/w_loc)·L^O} (Thm 4.2); it can be forced to
 * {@code ⌊m/n⌋·w_rem} while {@code L^O = ⌈m/n⌉·w_loc} (Thm 4.3), and one more replica can make it
 * worse (Thm 4.1). Time {@code O(|E| + m + n log n)}.
 */
public final class RoundRobin implements Assigner {
  @Override
  public String name() {
    return "round-robin";
  }

  @Override
  public Assignment assign(Problem p) {
    int m = p.tasks();
    int n = p.servers();
    int[] serverOf = new int[m];
    Arrays.fill(serverOf, -1);
    int[] order = IntStream.range(0, n)
        .boxed()
        .sorted(Comparator.<Integer>comparingLong(p::initialLoad).thenComparingInt(s -> s))
        .mapToInt(Integer::intValue)
        .toArray();
    TaskCursor cursor = new TaskCursor(p);
    int left = m;
    while (left > 0) {
      Cancellation.check();
      for (int i = 0; i < n && left > 0; i++) {
        int s = order[i];
        int t = cursor.firstLocal(s, serverOf);
        if (t < 0) {
          t = cursor.firstInRack(p.rackOfServer(s), serverOf);
        }
        if (t < 0) {
          t = cursor.firstAny(serverOf);
        }
        serverOf[t] = s;
        left--;
      }
    }
    return Assignment.of(p, serverOf);
  }
}
