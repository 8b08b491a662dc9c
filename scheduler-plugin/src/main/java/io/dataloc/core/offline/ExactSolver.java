package io.dataloc.core.offline;

import io.dataloc.core.model.Assignment;
import io.dataloc.core.model.Cancellation;
import io.dataloc.core.model.Evaluation;
import io.dataloc.core.model.Level;
import io.dataloc.core.model.Problem;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * An exact solver for small jobs: the assignment of least makespan (over all servers, initial
 * loads, congestion and link contention included), ties broken by least resource. The problem is NP-hard (Fischer
 * et al., Thm 3.1), so this is depth-first branch and bound, exponential in {@code m}: the oracle
 * for the tests and usable for jobs up to about a dozen tasks.
 *
 * <p>Pruning: (1) partial loads priced at the current non-local count are lower bounds on the
 * final loads, since congestion only grows; (2) the remaining tasks, each costing at least
 * {@code w_loc}, must fit under the incumbent on the servers' remaining room; (3) interchangeable
 * servers (same initial load, rack and local tasks) in the same state are tried once. The
 * incumbent starts from the best of {@code flow}, {@code bar} and {@code round-robin}.
 */
public final class ExactSolver implements Assigner {
  private final int maxTasks;

  public ExactSolver(int maxTasks) {
    this.maxTasks = maxTasks;
  }

  @Override
  public String name() {
    return "exact";
  }

  @Override
  public Assignment assign(Problem p) {
    if (p.tasks() > maxTasks) {
      throw new IllegalArgumentException(
          "exact solves jobs of at most " + maxTasks + " tasks; this one has " + p.tasks());
    }
    return new Search(p).run();
  }

  private static final class Search {
    private final Problem p;
    private final int m;
    private final int n;
    private final int[] order;
    private final int[] serverClass;
    private final long[] base;
    private final int[] nl;
    private final int[] current;
    private int nonLocal;
    private int[] best;
    private long bestMakespan;
    private long bestResource;

    Search(Problem p) {
      this.p = p;
      m = p.tasks();
      n = p.servers();
      order = IntStream.range(0, m).boxed()
          .sorted(Comparator.<Integer>comparingInt(p::degree).thenComparingInt(t -> t))
          .mapToInt(Integer::intValue).toArray();
      serverClass = classes(p);
      base = new long[n];
      nl = new int[n];
      current = new int[m];
      for (int s = 0; s < n; s++) {
        base[s] = p.initialLoad(s);
      }
      bestMakespan = Long.MAX_VALUE;
      bestResource = Long.MAX_VALUE;
      for (Assigner a : List.of(new MaxCoverBalAssign(), new BalanceReduce(), new RoundRobin())) {
        consider(a.assign(p).toArray());
      }
    }

    private static int[] classes(Problem p) {
      Map<String, Integer> ids = new HashMap<>();
      int[] cls = new int[p.servers()];
      for (int s = 0; s < p.servers(); s++) {
        int[] local = Arrays.copyOfRange(p.localTasks(), p.localStart(s), p.localEnd(s));
        String key = p.initialLoad(s) + "|" + p.rackOfServer(s) + "|" + Arrays.toString(local);
        cls[s] = ids.computeIfAbsent(key, k -> ids.size());
      }
      return cls;
    }

    private void consider(int[] serverOf) {
      Evaluation e = Evaluation.of(p, Assignment.of(p, serverOf), 0);
      if (e.makespan() < bestMakespan || (e.makespan() == bestMakespan && e.resource() < bestResource)) {
        bestMakespan = e.makespan();
        bestResource = e.resource();
        best = serverOf.clone();
      }
    }

    /** Search nodes visited so far. */
    private long visited;

    Assignment run() {
      dfs(0);
      return Assignment.of(p, best);
    }

    private void dfs(int i) {
      if ((++visited & 4095) == 0) {
        Cancellation.check(); // every 4,096 search nodes
      }
      if (i == m) {
        consider(current);
        return;
      }
      if (!canBeat(m - i)) {
        return;
      }
      int t = order[i];
      for (int s = 0; s < n; s++) {
        if (symmetricEarlier(s)) {
          continue;
        }
        Level level = p.level(t, s);
        long c = level == Level.LOCAL ? p.cost().local()
            : (level == Level.RACK ? p.cost().rack() : p.cost().remote()) + p.linkCost(t);
        boolean nonLoc = level != Level.LOCAL;
        base[s] += c;
        if (nonLoc) {
          nl[s]++;
          nonLocal++;
        }
        current[t] = s;
        dfs(i + 1);
        base[s] -= c;
        if (nonLoc) {
          nl[s]--;
          nonLocal--;
        }
      }
    }

    private boolean symmetricEarlier(int s) {
      for (int q = 0; q < s; q++) {
        if (serverClass[q] == serverClass[s] && base[q] == base[s] && nl[q] == nl[s]) {
          return true;
        }
      }
      return false;
    }

    /** False if no completion can reach a makespan at most the incumbent's. */
    private boolean canBeat(int remaining) {
      long k = p.cost().remotePerRemoteTask() * nonLocal;
      long wLoc = p.cost().local();
      long room = 0;
      for (int s = 0; s < n; s++) {
        long load = base[s] + nl[s] * k;
        if (load > bestMakespan) {
          return false;
        }
        room += (bestMakespan - load) / wLoc;
      }
      return room >= remaining;
    }
  }
}
