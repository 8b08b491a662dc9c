package io.dataloc.core.workload;

import io.dataloc.core.model.Cluster;
import io.dataloc.core.model.CostModel;
import io.dataloc.core.model.PlacementGraph;
import io.dataloc.core.model.Problem;
import io.dataloc.core.model.Units;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * Seeded random problems in the papers' style: {@code |ρ(t)|} uniform in
 * {@code [minReplicas, maxReplicas]} distinct hosts chosen uniformly, initial loads uniform
 * integers in {@code [0, maxInitialLoad]} work units (LABL: 1–4 replicas, loads 0–5). One source
 * shared by the tests, the simulator and the benchmarks, so they all measure the same workload.
 */
public final class RandomProblems {
  private RandomProblems() {}

  /**
   * What to generate.
   *
   * @param hosts number of hosts (one slot each)
   * @param tasks number of tasks
   * @param racks 0 for no racks, else hosts are spread round robin over this many racks
   * @param dataHosts replicas are drawn from the first {@code dataHosts} hosts only (skew); 0 = all
   * @param loadGrain initial loads are multiples of {@code 1/loadGrain} units, uniform over
   *     {@code [0, maxInitialLoad]}: 1 gives whole units (the papers' setups), 1000 the finest
   *     ({@link Units#SCALE}); it must divide {@code Units.SCALE}
   */
  public static final class Spec {
    private final int hosts;
    private final int tasks;
    private final int minReplicas;
    private final int maxReplicas;
    private final int maxInitialLoad;
    private final int racks;
    private final int dataHosts;
    private final CostModel cost;
    private final int loadGrain;

    public Spec(int hosts, int tasks, int minReplicas, int maxReplicas, int maxInitialLoad, int racks, int dataHosts,
        CostModel cost, int loadGrain) {
      if (loadGrain < 1 || Units.SCALE % loadGrain != 0) {
        throw new IllegalArgumentException("loadGrain must divide " + Units.SCALE + ", got " + loadGrain);
      }
      if (hosts < 1 || tasks < 0) {
        throw new IllegalArgumentException("need hosts >= 1 and tasks >= 0");
      }
      if (dataHosts < 0 || dataHosts > hosts) {
        throw new IllegalArgumentException("dataHosts must be in 0.." + hosts);
      }
      int pool = dataHosts == 0 ? hosts : dataHosts;
      if (minReplicas < 1 || maxReplicas < minReplicas || maxReplicas > pool) {
        throw new IllegalArgumentException("need 1 <= minReplicas <= maxReplicas <= data hosts");
      }
      this.hosts = hosts;
      this.tasks = tasks;
      this.minReplicas = minReplicas;
      this.maxReplicas = maxReplicas;
      this.maxInitialLoad = maxInitialLoad;
      this.racks = racks;
      this.dataHosts = dataHosts;
      this.cost = cost;
      this.loadGrain = loadGrain;
    }

    public int hosts() {
      return hosts;
    }

    public int tasks() {
      return tasks;
    }

    public int minReplicas() {
      return minReplicas;
    }

    public int maxReplicas() {
      return maxReplicas;
    }

    public int maxInitialLoad() {
      return maxInitialLoad;
    }

    public int racks() {
      return racks;
    }

    public int dataHosts() {
      return dataHosts;
    }

    public CostModel cost() {
      return cost;
    }

    public int loadGrain() {
      return loadGrain;
    }

    /** Whole-unit initial loads. */
    public Spec(int hosts, int tasks, int minReplicas, int maxReplicas, int maxInitialLoad, int racks,
        int dataHosts, CostModel cost) {
      this(hosts, tasks, minReplicas, maxReplicas, maxInitialLoad, racks, dataHosts, cost, 1);
    }

    /** LABL's setup: 1–4 replicas, loads 0–5, w_loc 1, w_rem 3, no racks. */
    public static Spec labl(int hosts, int tasks) {
      return new Spec(hosts, tasks, 1, 4, 5, 0, 0, CostModel.uniform(1, 3));
    }

    public Spec withReplicas(int min, int max) {
      return new Spec(hosts, tasks, min, max, maxInitialLoad, racks, dataHosts, cost, loadGrain);
    }

    public Spec withInitialLoad(int max) {
      return new Spec(hosts, tasks, minReplicas, maxReplicas, max, racks, dataHosts, cost, loadGrain);
    }

    public Spec withRacks(int r) {
      return new Spec(hosts, tasks, minReplicas, maxReplicas, maxInitialLoad, r, dataHosts, cost, loadGrain);
    }

    /** Initial loads in steps of {@code 1/grain} units (see {@link #loadGrain}). */
    public Spec withLoadGrain(int grain) {
      return new Spec(hosts, tasks, minReplicas, maxReplicas, maxInitialLoad, racks, dataHosts, cost, grain);
    }

    public Spec withCost(CostModel c) {
      return new Spec(hosts, tasks, minReplicas, maxReplicas, maxInitialLoad, racks, dataHosts, c, loadGrain);
    }

    @Override
    public boolean equals(Object o) {
      if (o == this) {
        return true;
      }
      if (!(o instanceof Spec)) {
        return false;
      }
      Spec that = (Spec) o;
      return hosts == that.hosts
          && tasks == that.tasks
          && minReplicas == that.minReplicas
          && maxReplicas == that.maxReplicas
          && maxInitialLoad == that.maxInitialLoad
          && racks == that.racks
          && dataHosts == that.dataHosts
          && Objects.equals(cost, that.cost)
          && loadGrain == that.loadGrain;
    }

    @Override
    public int hashCode() {
      return Objects.hash(hosts, tasks, minReplicas, maxReplicas, maxInitialLoad, racks, dataHosts, cost, loadGrain);
    }

    @Override
    public String toString() {
      return "Spec[hosts=" + hosts
          + ", tasks=" + tasks
          + ", minReplicas=" + minReplicas
          + ", maxReplicas=" + maxReplicas
          + ", maxInitialLoad=" + maxInitialLoad
          + ", racks=" + racks
          + ", dataHosts=" + dataHosts
          + ", cost=" + cost
          + ", loadGrain=" + loadGrain + "]";
    }
  }

  public static Problem generate(Spec spec, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    Cluster.Builder cb = Cluster.builder();
    for (int h = 0; h < spec.hosts(); h++) {
      String rack = spec.racks() > 0 ? "/r" + (h % spec.racks()) : null;
      // With loadGrain 1 this draws exactly what whole-unit loads always drew (same seed, same instance).
      long load = spec.maxInitialLoad() > 0
          ? rnd.nextInt(spec.maxInitialLoad() * spec.loadGrain() + 1) * (Units.SCALE / spec.loadGrain())
          : 0;
      cb.host("h" + h, rack, 1, load);
    }
    Cluster cluster = cb.build();
    PlacementGraph.Builder gb = PlacementGraph.builder(cluster);
    int pool = spec.dataHosts() == 0 ? spec.hosts() : spec.dataHosts();
    int[] pick = new int[spec.maxReplicas()];
    for (int t = 0; t < spec.tasks(); t++) {
      int k = spec.minReplicas() + rnd.nextInt(spec.maxReplicas() - spec.minReplicas() + 1);
      for (int i = 0; i < k; i++) {
        int h;
        boolean dup;
        do {
          h = rnd.nextInt(pool);
          dup = false;
          for (int j = 0; j < i; j++) {
            dup |= pick[j] == h;
          }
        } while (dup);
        pick[i] = h;
      }
      gb.task("t" + t, java.util.Arrays.copyOf(pick, k));
    }
    return Problem.of(cluster, gb.build(), spec.cost());
  }
}
