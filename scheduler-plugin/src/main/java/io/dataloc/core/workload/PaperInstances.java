package io.dataloc.core.workload;

import io.dataloc.core.model.Cluster;
import io.dataloc.core.model.CostModel;
import io.dataloc.core.model.PlacementGraph;
import io.dataloc.core.model.Problem;
import io.dataloc.core.model.Units;

/** The placements the papers construct, built exactly. */
public final class PaperInstances {
  private PaperInstances() {}

  private static Cluster servers(int n) {
    Cluster.Builder b = Cluster.builder();
    for (int i = 1; i <= n; i++) {
      b.host("s" + i);
    }
    return b.build();
  }

  /**
   * Fischer et al., Thm 4.3 ({@code m ≤ n(n−2)}): tasks split into {@code T_1..T_n} of sizes
   * {@code ⌈m/n⌉ ≥ |T_i| ≥ ⌊m/n⌋}, {@code T_i} local to {@code s_i}, each task of {@code T_n} also
   * local to a different server of {@code s_1..s_{n−1}}; {@code T_n} is listed first (the order in
   * which the MapReduce AM would hand tasks out). Round robin then gives {@code s_n} only remote
   * work ({@code ⌊m/n⌋·w_rem}) while the optimum is {@code ⌈m/n⌉·w_loc}.
   */
  public static Problem fischerRoundRobinWorstCase(int n, int m, CostModel cost) {
    if (n < 3 || m < 1 || m > n * (n - 2)) {
      throw new IllegalArgumentException("the construction needs n >= 3 and 1 <= m <= n(n-2)");
    }
    int[] size = new int[n];
    for (int t = 0; t < m; t++) {
      size[t % n]++;
    }
    PlacementGraph.Builder g = PlacementGraph.builder(servers(n));
    for (int j = 0; j < size[n - 1]; j++) {
      g.task("T" + n + "-" + j, n - 1, j % (n - 1));
    }
    for (int i = 0; i < n - 1; i++) {
      for (int j = 0; j < size[i]; j++) {
        g.task("T" + (i + 1) + "-" + j, i);
      }
    }
    return Problem.of(servers(n), g.build(), cost);
  }

  /**
   * Fischer et al., Thm 4.1: {@code t_i} local to {@code s_i}; with {@code extraReplica}, task
   * {@code t_n} (listed first) also on {@code s_1}.
   */
  public static Problem fischerExtraReplica(int n, boolean extraReplica, CostModel cost) {
    Cluster c = servers(n);
    PlacementGraph.Builder g = PlacementGraph.builder(c);
    if (extraReplica) {
      g.task("t" + n, n - 1, 0);
    } else {
      g.task("t" + n, n - 1);
    }
    for (int i = 1; i < n; i++) {
      g.task("t" + i, i - 1);
    }
    return Problem.of(c, g.build(), cost);
  }

  /**
   * BAR's worked example (Jin et al., Fig. 3): three servers with initial loads 7.1, 4.2 and 0.3,
   * seven tasks with two replicas each, {@code C_loc = 1}, {@code C_rem(r) = 1 + 0.1·r}. The
   * transcription loses part of the placement figure; this is the placement of
   * {@code examples/bar-example.json}.
   */
  public static Problem barExample() {
    Cluster c = Cluster.builder().host("s1", null, 1, Units.ofDouble(7.1)).host("s2", null, 1, Units.ofDouble(4.2))
        .host("s3", null, 1, Units.ofDouble(0.3)).build();
    PlacementGraph g = PlacementGraph.builder(c).task("t1", 0, 1).task("t2", 0, 1).task("t3", 0, 2).task("t4", 1, 2)
        .task("t5", 0, 1).task("t6", 0, 1).task("t7", 1, 2).build();
    return Problem.of(c, g, CostModel.of(Units.of(1), Units.of(1), Units.of(1), Units.ofDouble(0.1)));
  }
}
