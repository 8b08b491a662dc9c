package io.dataloc.core.model;

import java.util.Objects;

/**
 * The measures of an assignment, all in scaled units except counts and throughput.
 *
 * @param makespan {@code L^A = max_s L_s} over all servers, initial loads included (LABL's latency)
 * @param activeMakespan the max over servers that received at least one task (BAR's definition)
 * @param resource {@code C = Σ_s (L_s − φ_s)}, the work the job itself costs
 * @param local node-local tasks
 * @param rackLocal rack-local tasks
 * @param remote off-rack tasks
 * @param throughput {@code |T| / C} in tasks per work unit (LABL's figure)
 * @param lowerBound the best of {@link LowerBounds} for this problem
 */
public final class Evaluation {
  private final long makespan;
  private final long activeMakespan;
  private final long resource;
  private final int local;
  private final int rackLocal;
  private final int remote;
  private final double throughput;
  private final long lowerBound;

  public Evaluation(long makespan, long activeMakespan, long resource, int local, int rackLocal, int remote,
      double throughput, long lowerBound) {
    this.makespan = makespan;
    this.activeMakespan = activeMakespan;
    this.resource = resource;
    this.local = local;
    this.rackLocal = rackLocal;
    this.remote = remote;
    this.throughput = throughput;
    this.lowerBound = lowerBound;
  }

  public long makespan() {
    return makespan;
  }

  public long activeMakespan() {
    return activeMakespan;
  }

  public long resource() {
    return resource;
  }

  public int local() {
    return local;
  }

  public int rackLocal() {
    return rackLocal;
  }

  public int remote() {
    return remote;
  }

  public double throughput() {
    return throughput;
  }

  public long lowerBound() {
    return lowerBound;
  }

  /** Evaluates an assignment with the congestion level set by its own non-local count. */
  public static Evaluation of(Problem p, Assignment a) {
    return of(p, a, LowerBounds.of(p).best());
  }

  /** As {@link #of(Problem, Assignment)} with a precomputed lower bound. */
  public static Evaluation of(Problem p, Assignment a, long lowerBound) {
    int m = p.tasks();
    int n = p.servers();
    Level[] levels = new Level[m];
    int local = 0;
    int rack = 0;
    for (int t = 0; t < m; t++) {
      levels[t] = p.level(t, a.server(t));
      if (levels[t] == Level.LOCAL) {
        local++;
      } else if (levels[t] == Level.RACK) {
        rack++;
      }
    }
    int remote = m - local - rack;
    long nonLocal = m - local;
    long[] load = new long[n];
    boolean[] active = new boolean[n];
    long resource = 0;
    for (int t = 0; t < m; t++) {
      long c = p.cost(t, levels[t], nonLocal);
      load[a.server(t)] += c;
      active[a.server(t)] = true;
      resource += c;
    }
    long makespan = 0;
    long activeMakespan = 0;
    for (int s = 0; s < n; s++) {
      long l = load[s] + p.initialLoad(s);
      makespan = Math.max(makespan, l);
      if (active[s]) {
        activeMakespan = Math.max(activeMakespan, l);
      }
    }
    double throughput = resource == 0 ? 0 : m / Units.toDouble(resource);
    return new Evaluation(makespan, activeMakespan, resource, local, rack, remote, throughput, lowerBound);
  }

  /** Node-local fraction. */
  public double locality() {
    int m = local + rackLocal + remote;
    return m == 0 ? 1 : local / (double) m;
  }

  @Override
  public boolean equals(Object o) {
    if (o == this) {
      return true;
    }
    if (!(o instanceof Evaluation)) {
      return false;
    }
    Evaluation that = (Evaluation) o;
    return makespan == that.makespan
        && activeMakespan == that.activeMakespan
        && resource == that.resource
        && local == that.local
        && rackLocal == that.rackLocal
        && remote == that.remote
        && Double.compare(throughput, that.throughput) == 0
        && lowerBound == that.lowerBound;
  }

  @Override
  public int hashCode() {
    return Objects.hash(makespan, activeMakespan, resource, local, rackLocal, remote, throughput, lowerBound);
  }

  @Override
  public String toString() {
    return "Evaluation[makespan=" + makespan
        + ", activeMakespan=" + activeMakespan
        + ", resource=" + resource
        + ", local=" + local
        + ", rackLocal=" + rackLocal
        + ", remote=" + remote
        + ", throughput=" + throughput
        + ", lowerBound=" + lowerBound + "]";
  }
}
