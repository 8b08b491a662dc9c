package io.dataloc.core.model;

import java.util.Arrays;
import java.util.Objects;

/**
 * Lower bounds on the optimal makespan (over all servers, initial loads included).
 *
 * <ul>
 *   <li>{@code maxInitial = max_s φ_s}: no assignment finishes before the busiest server.
 *   <li>{@code slot}: {@code ⌈m/n⌉·w_loc} generalised to initial loads — the least {@code L} with
 *       {@code Σ_s ⌊(L − φ_s)/w_loc⌋⁺ ≥ m}, since every task costs at least {@code w_loc}. With
 *       {@code φ = 0} it is exactly {@code ⌈m/n⌉·w_loc} (Fischer, proof of Thm 4.2).
 *   <li>{@code lStar = ⌈(w_loc·|T| + Σφ_s)/|S|⌉} (LABL, Problem 1), rounded up to the scaled unit.
 *   <li>{@code lStarStar} (LABL, Problem 2): the least {@code l} such that (a) the servers with
 *       {@code l − φ_s ≥ w_nl} can run the tasks {@code T_rem[l]} that no replica server can run
 *       locally by {@code l} ({@code φ_s + w_loc > l} for all replicas), at {@code ⌊(l−φ_s)/w_nl⌋}
 *       each, and (b) {@code Σ_{φ_s<l} (l − φ_s) ≥ w_nl·|T_rem[l]| + w_loc·|T_loc[l]|}. Here
 *       {@code w_nl = min(w_rack, w_rem) + congestion·|T_rem[l]|}, the cheapest non-local cost when
 *       at least {@code |T_rem[l]|} tasks are non-local; it is LABL's {@code w_rem} when there are
 *       no racks and no congestion. Both conditions are monotone in {@code l}, so a binary search
 *       over scaled values finds the exact least {@code l}.
 * </ul>
 *
 * <p>Every bound is then rounded up to the {@link #lattice} of the data: with integer loads and
 * costs, to whole units, as in the papers.
 */
public final class LowerBounds {
  private final long maxInitial;
  private final long slot;
  private final long lStar;
  private final long lStarStar;

  public LowerBounds(long maxInitial, long slot, long lStar, long lStarStar) {
    this.maxInitial = maxInitial;
    this.slot = slot;
    this.lStar = lStar;
    this.lStarStar = lStarStar;
  }

  public long maxInitial() {
    return maxInitial;
  }

  public long slot() {
    return slot;
  }

  public long lStar() {
    return lStar;
  }

  public long lStarStar() {
    return lStarStar;
  }

  /** The strongest of the bounds. */
  public long best() {
    return Math.max(Math.max(maxInitial, slot), Math.max(lStar, lStarStar));
  }

  public static LowerBounds of(Problem p) {
    int n = p.servers();
    int m = p.tasks();
    long wLoc = p.cost().local();
    long maxPhi = 0;
    long sumPhi = 0;
    for (int s = 0; s < n; s++) {
      maxPhi = Math.max(maxPhi, p.initialLoad(s));
      sumPhi += p.initialLoad(s);
    }
    long total = wLoc * m + sumPhi;
    long lStar = (total + n - 1) / n;

    long lo = 0;
    long hi = maxPhi + wLoc * m;
    while (lo < hi) {
      long mid = (lo + hi) >>> 1;
      if (slotCapacity(p, mid) >= m) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    long g = lattice(p);
    return new LowerBounds(maxPhi, roundUp(lo, g), roundUp(lStar, g), roundUp(lStarStar(p, maxPhi), g));
  }

  /**
   * The grid every load lies on: the gcd of the initial loads and the cost parameters. Every
   * makespan is a multiple of it, so a bound rounded up to it is still a bound (with integer
   * data, the whole units of the papers).
   */
  public static long lattice(Problem p) {
    CostModel c = p.cost();
    long g = gcd(gcd(c.local(), c.rack()), gcd(c.remote(), c.remotePerRemoteTask()));
    for (int s = 0; s < p.servers() && g > 1; s++) {
      g = gcd(g, p.initialLoad(s));
    }
    return g;
  }

  private static long gcd(long a, long b) {
    while (b != 0) {
      long t = a % b;
      a = b;
      b = t;
    }
    return a;
  }

  private static long roundUp(long x, long g) {
    return (x + g - 1) / g * g;
  }

  private static long slotCapacity(Problem p, long l) {
    long wLoc = p.cost().local();
    long cap = 0;
    for (int s = 0; s < p.servers(); s++) {
      if (l > p.initialLoad(s)) {
        cap += (l - p.initialLoad(s)) / wLoc;
      }
    }
    return cap;
  }

  private static long lStarStar(Problem p, long maxPhi) {
    int m = p.tasks();
    if (m == 0) {
      return 0;
    }
    // earliest[t] = min over replica servers of φ_s + w_loc: the earliest local finish of t.
    long[] earliest = new long[m];
    int[] srv = p.replicaServers();
    for (int t = 0; t < m; t++) {
      long best = Long.MAX_VALUE;
      for (int e = p.replicaStart(t); e < p.replicaEnd(t); e++) {
        best = Math.min(best, p.initialLoad(srv[e]));
      }
      earliest[t] = best + p.cost().local();
    }
    Arrays.sort(earliest);
    long nonLocalBase = p.hasRacks() ? p.cost().rack() : p.cost().remote();
    long lo = 0;
    long hi = maxPhi + (p.cost().remoteCost(m)) * (long) m;
    while (lo < hi) {
      long mid = (lo + hi) >>> 1;
      if (feasible(p, mid, earliest, nonLocalBase)) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

  private static boolean feasible(Problem p, long l, long[] earliest, long nonLocalBase) {
    int m = p.tasks();
    // |T_rem[l]| = number of tasks whose earliest local finish exceeds l.
    int firstAbove = upperBound(earliest, l);
    long rem = m - firstAbove;
    long wNl = nonLocalBase + p.cost().remotePerRemoteTask() * rem;
    long remoteSlots = 0;
    long free = 0;
    for (int s = 0; s < p.servers(); s++) {
      long room = l - p.initialLoad(s);
      if (room > 0) {
        free += room;
        if (room >= wNl) {
          remoteSlots += room / wNl;
        }
      }
    }
    if (remoteSlots < rem) {
      return false;
    }
    return free >= wNl * rem + p.cost().local() * (m - rem);
  }

  /** Index of the first element greater than key. */
  private static int upperBound(long[] a, long key) {
    int lo = 0;
    int hi = a.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (a[mid] <= key) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  @Override
  public boolean equals(Object o) {
    if (o == this) {
      return true;
    }
    if (!(o instanceof LowerBounds)) {
      return false;
    }
    LowerBounds that = (LowerBounds) o;
    return maxInitial == that.maxInitial
        && slot == that.slot
        && lStar == that.lStar
        && lStarStar == that.lStarStar;
  }

  @Override
  public int hashCode() {
    return Objects.hash(maxInitial, slot, lStar, lStarStar);
  }

  @Override
  public String toString() {
    return "LowerBounds[maxInitial=" + maxInitial
        + ", slot=" + slot
        + ", lStar=" + lStar
        + ", lStarStar=" + lStarStar + "]";
  }
}
