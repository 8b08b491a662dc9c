package io.dataloc.core.offline;

import io.dataloc.core.flow.BMatching;
import io.dataloc.core.model.Assignment;
import io.dataloc.core.model.Cancellation;
import io.dataloc.core.model.Problem;

/**
 * MaxCover-BalAssign, the flow-based algorithm — Fischer, Su and Yin, Algorithm 2.
 *
 * <p>Problem: minimise the makespan {@code max_s L_s}. For thresholds {@code τ = 1, 2, …}:
 * <em>max-cover</em> extends the previous partial assignment to a maximum set of local tasks with
 * at most {@code τ} tasks per server (b-matching, {@link BMatching}); <em>bal-assign</em>
 * completes it greedily, giving the least <em>virtual</em>-load server an unassigned task (its
 * own if any, else one of its rack, else any), every not-yet-assigned task charged the pessimistic
 * cost {@code w(r + u)} fixed at the start of the phase. The best completed assignment over all
 * {@code τ} is returned: least makespan, then least resource ({@code flow}); or, as the paper
 * states it, the first {@code τ} with the least makespan ({@code flow:first}). The two differ only
 * when two thresholds reach the same makespan: a higher {@code τ} covers more tasks locally and so
 * uses less resource (on the LABL paper's grid flow reaches makespan 6 at {@code τ = 5} and
 * {@code τ = 6}, the second with about 12% less resource), which is why the default keeps it.
 *
 * <p>Initial loads (absent from the paper) enter the threshold: at level {@code T = τ·w_loc}
 * server {@code s} may hold {@code ⌊(T − φ_s)/w_loc⌋⁺} local tasks, and bal-assign starts from
 * {@code φ_s}; with {@code φ = 0} this is exactly the paper's algorithm.
 *
 * <p>Speed: capacities only grow, so the matching of level {@code τ−1} is kept and only augmented
 * (Lemma 5.2 holds at every level); failed searches mark their region dead for the level, so the
 * augmenting work is {@code O(|E|)} per level plus the successful paths. Early stop once every task
 * is covered or {@code T ≥} the best makespan found (no later level can beat it). Bal-assign is
 * {@code O(|E| + m log n)} per level.
 *
 * <p>Guarantee (uniform costs, {@code φ = 0}, {@code n ≥ 2}): {@code L^A ≤ L^O + (1 − 1/(n−1))·w_rem}
 * (Thm 5.4), checked against {@link ExactSolver} in the tests.
 */
public final class MaxCoverBalAssign implements Assigner {
  /** Among thresholds of equal makespan, keep the first (the paper's rule) rather than the cheapest. */
  private final boolean firstOfLeast;

  /** Least makespan, then least resource ({@code flow}). */
  public MaxCoverBalAssign() {
    this(false);
  }

  /** With {@code firstOfLeast}, the paper's literal rule: the first threshold of least makespan. */
  public MaxCoverBalAssign(boolean firstOfLeast) {
    this.firstOfLeast = firstOfLeast;
  }

  @Override
  public String name() {
    return firstOfLeast ? "flow:first" : "flow";
  }

  @Override
  public Assignment assign(Problem p) {
    int m = p.tasks();
    int n = p.servers();
    long wLoc = p.cost().local();
    long minPhi = Long.MAX_VALUE;
    long maxPhi = 0;
    for (int s = 0; s < n; s++) {
      minPhi = Math.max(0, Math.min(minPhi, p.initialLoad(s)));
      maxPhi = Math.max(maxPhi, p.initialLoad(s));
    }
    BMatching bm = new BMatching(p);
    BalAssign bal = new BalAssign(p);
    int[] best = null;
    long bestMakespan = Long.MAX_VALUE;
    long bestResource = Long.MAX_VALUE;
    long limit = maxPhi + wLoc * (m + 1L);
    for (long level = minPhi + wLoc; level <= limit; level += wLoc) {
      Cancellation.check();
      for (int s = 0; s < n; s++) {
        long room = level - p.initialLoad(s);
        bm.setCapacity(s, room > 0 ? room / wLoc : 0);
      }
      bm.newPhase();
      for (int t = 0; t < m; t++) {
        if (bm.serverOf(t) < 0) {
          bm.augmentFromTask(t);
        }
      }
      int[] completed = bal.complete(bm);
      long makespan = bal.makespan();
      long resource = bal.resource();
      if (makespan < bestMakespan || (!firstOfLeast && makespan == bestMakespan && resource < bestResource)) {
        best = completed;
        bestMakespan = makespan;
        bestResource = resource;
      }
      if (bm.matched() == m || level >= bestMakespan) {
        break;
      }
    }
    return Assignment.of(p, best);
  }

  /** Bal-assign: completes a partial local assignment greedily on virtual loads. */
  static final class BalAssign {
    private final Problem p;
    private final ServerHeap heap;
    private final TaskCursor cursor;
    private final long[] localLoad;
    private final int[] nonLocal;
    private long makespan;
    private long resource;

    BalAssign(Problem p) {
      this.p = p;
      heap = new ServerHeap(p.servers());
      cursor = new TaskCursor(p);
      localLoad = new long[p.servers()];
      nonLocal = new int[p.servers()];
    }

    int[] complete(BMatching bm) {
      int m = p.tasks();
      int n = p.servers();
      long wLoc = p.cost().local();
      int[] serverOf = bm.snapshot();
      int unassigned = m - bm.matched();
      long cRack = p.cost().rackCost(unassigned);
      long cRem = p.cost().remoteCost(unassigned);
      cursor.reset();
      for (int s = 0; s < n; s++) {
        localLoad[s] = p.initialLoad(s) + wLoc * bm.count(s);
        nonLocal[s] = 0;
      }
      heap.fill(localLoad, n);
      int rackCount = 0;
      int remoteCount = 0;
      int[] rackTasksOnServer = new int[n];
      for (int left = unassigned; left > 0; left--) {
        long load = heap.peekKey();
        int s = heap.pop();
        int t = cursor.firstLocal(s, serverOf);
        long c;
        if (t >= 0) {
          c = wLoc;
          localLoad[s] += wLoc;
        } else {
          t = cursor.firstInRack(p.rackOfServer(s), serverOf);
          if (t >= 0) {
            c = cRack;
            rackCount++;
            rackTasksOnServer[s]++;
          } else {
            t = cursor.firstAny(serverOf);
            c = cRem;
            remoteCount++;
          }
          nonLocal[s]++;
        }
        serverOf[t] = s;
        heap.push(s, load + c);
      }
      // True loads: non-local tasks pay the congestion of the final non-local count.
      long r = rackCount + remoteCount;
      long trueRack = p.cost().rackCost(r);
      long trueRem = p.cost().remoteCost(r);
      makespan = 0;
      for (int s = 0; s < n; s++) {
        long l = localLoad[s];
        if (nonLocal[s] > 0) {
          int rk = rackTasksOnServer[s];
          l += rk * trueRack + (nonLocal[s] - rk) * trueRem;
        }
        makespan = Math.max(makespan, l);
      }
      resource = (long) (m - r) * wLoc + rackCount * trueRack + remoteCount * trueRem;
      return serverOf;
    }

    long makespan() {
      return makespan;
    }

    long resource() {
      return resource;
    }
  }
}
