package io.dataloc.core.offline;

import io.dataloc.core.model.Assignment;
import io.dataloc.core.model.Cancellation;
import io.dataloc.core.model.Level;
import io.dataloc.core.model.Problem;
import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * Task-level assignment by the Hungarian method — Song et al. ("a game-theory based two-level
 * scheduler"): in rounds of at most one task per server, solve the assignment problem between
 * the round's tasks and the servers exactly ({@link KuhnMunkres}).
 *
 * <p>Rounds take the tasks most constrained first (fewest replicas, then id), {@code min(n, left)}
 * per round, so when {@code m > n} there are {@code ⌈m/n⌉} rounds. The cost of task {@code i} on
 * server {@code j} in a round is, by default, the finish time {@code L_j + w(level(i, j))} with the
 * server's current load {@code L_j} (initial load plus earlier rounds) and the three-level cost at
 * the congestion of the previous rounds. With {@link AssignerOptions.SongWeights} it is the paper's
 * weighted cost {@code c·CPU + d·Disk + n·Net} with {@code CPU = L_j} (queued work),
 * {@code Disk = w_loc ·} (local reads already placed on {@code j}) and {@code Net = w(level) − w_loc}
 * (the transfer time a non-local read adds).
 *
 * <p>Each round is exact for its cost matrix; the sequence of rounds is a heuristic for the
 * makespan. {@code O(k²·n)} per round of {@code k} tasks, so {@code O(m·n²)} overall: meant for
 * jobs of up to a few thousand tasks (the planner's time budget guards larger ones).
 */
public final class Hungarian implements Assigner {
  private final AssignerOptions.SongWeights weights;

  public Hungarian(AssignerOptions options) {
    this.weights = options.songWeights();
  }

  @Override
  public String name() {
    return weights == null ? "hungarian" : "hungarian:song";
  }

  @Override
  public Assignment assign(Problem p) {
    int m = p.tasks();
    int n = p.servers();
    long wLoc = p.cost().local();
    int[] order = IntStream.range(0, m).boxed()
        .sorted(Comparator.<Integer>comparingInt(p::degree).thenComparingInt(t -> t))
        .mapToInt(Integer::intValue).toArray();
    long[] load = new long[n];
    long[] localReads = new long[n];
    for (int s = 0; s < n; s++) {
      load[s] = p.initialLoad(s);
    }
    int[] serverOf = new int[m];
    Arrays.fill(serverOf, -1);
    long nonLocal = 0;
    for (int start = 0; start < m; start += n) {
      Cancellation.check();
      int k = Math.min(n, m - start);
      long[][] cost = new long[k][n];
      for (int i = 0; i < k; i++) {
        int t = order[start + i];
        for (int s = 0; s < n; s++) {
          cost[i][s] = cost(p, t, s, load, localReads, nonLocal);
        }
      }
      int[] col = KuhnMunkres.solve(cost);
      for (int i = 0; i < k; i++) {
        int t = order[start + i];
        int s = col[i];
        serverOf[t] = s;
        Level level = p.level(t, s);
        if (level == Level.LOCAL) {
          localReads[s]++;
        } else {
          nonLocal++;
        }
        load[s] += p.cost().cost(level, nonLocal);
      }
    }
    return Assignment.of(p, serverOf);
  }

  private long cost(Problem p, int t, int s, long[] load, long[] localReads, long nonLocal) {
    Level level = p.level(t, s);
    long w = p.cost().cost(level, level == Level.LOCAL ? nonLocal : nonLocal + 1);
    if (weights == null) {
      return load[s] + w;
    }
    long wLoc = p.cost().local();
    return weights.cpu() * load[s] + weights.disk() * wLoc * localReads[s] + weights.net() * (w - wLoc);
  }
}
