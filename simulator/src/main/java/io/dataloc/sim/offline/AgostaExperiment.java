package io.dataloc.sim.offline;

import io.dataloc.core.model.Problem;
import io.dataloc.core.model.Units;
import io.dataloc.core.workload.RandomProblems;
import io.dataloc.core.workload.RandomProblems.Spec;
import io.dataloc.sim.Experiment;
import io.dataloc.sim.RunOptions;
import io.dataloc.sim.report.Charts;
import io.dataloc.sim.report.Csv;
import io.dataloc.sim.report.Report;
import io.dataloc.sim.report.Table;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The LABL paper's experiments (Agosta et al., Figs. 5–7): |S| 1600–2000 step 100, |T| 3200–3500
 * step 100, |ρ(t)| uniform 1–4, initial loads uniform 0–5, w_loc 1, w_rem 3, 30 seeds, for
 * round robin, flow (ties between thresholds to the cheaper; {@code flow:first}: to the first, as
 * the paper states it), LABL with threshold l** and l**+1, and BAR, beside the lower bound; plus the
 * replication sweep (ρmax 2–7 at |S| 2000, |T| 3500) and the scalability sweep (|T| 3450,
 * |S| 1600–2000).
 */
public final class AgostaExperiment implements Experiment {
  static final List<String> ALGORITHMS = List.of("round-robin", "flow", "flow:first", "labl", "labl:+1", "bar");

  @Override
  public String name() {
    return "agosta";
  }

  @Override
  public String description() {
    return "LABL paper: latency, resource and throughput over |S| x |T|, replication and scalability sweeps";
  }

  @Override
  public Report run(RunOptions o) throws IOException {
    Report report = new Report();
    int seeds = o.seedsOr(30, 2);
    int[] servers = o.quick() ? new int[] {1600, 2000} : IntStream.rangeClosed(16, 20).map(i -> i * 100).toArray();
    int[] tasks = o.quick() ? new int[] {3200, 3500} : IntStream.rangeClosed(32, 35).map(i -> i * 100).toArray();
    int[] rhoMax = o.quick() ? new int[] {2, 4, 7} : new int[] {2, 3, 4, 5, 6, 7};
    Csv csv = new Csv("sweep", "algorithm", "servers", "tasks", "rhoMax", "seed", "latency", "resource",
        "throughput", "lowerBound", "planMillis", "local", "remote");
    OfflineRuns.Means grid = new OfflineRuns.Means();
    long total = (long) seeds * (servers.length * tasks.length + rhoMax.length + servers.length);
    long done = 0;
    for (int s : servers) {
      for (int t : tasks) {
        for (int k = 0; k < seeds; k++) {
          point(o, csv, grid, "grid", s, t, 4, k);
          o.progress().step("agosta grid |S|=" + s + " |T|=" + t, ++done, total);
        }
      }
    }
    for (int r : rhoMax) {
      for (int k = 0; k < seeds; k++) {
        point(o, csv, null, "replication", 2000, 3500, r, k);
        o.progress().step("agosta replication rhoMax=" + r, ++done, total);
      }
    }
    for (int s : servers) {
      for (int k = 0; k < seeds; k++) {
        point(o, csv, null, "scalability", s, 3450, 4, k);
        o.progress().step("agosta scalability |S|=" + s, ++done, total);
      }
    }
    report.csv("agosta.csv", csv);
    charts(report, csv, servers, tasks, rhoMax);
    Table table = new Table("algorithm", "latency", "resource", "throughput", "latency/LB", "local%", "planMillis");
    for (String a : ALGORITHMS) {
      table.row(a, grid.mean(a, 0), grid.mean(a, 1), grid.mean(a, 2), grid.mean(a, 3), grid.mean(a, 4), grid.mean(a, 5));
    }
    table.row("lower bound", grid.mean("flow", 6), "", "", 1.0, "", "");
    return report.summary("agosta: means over the grid (" + servers.length + " x " + tasks.length + " points x " + seeds + " seeds)\n"
        + table);
  }

  private static void point(RunOptions o, Csv csv, OfflineRuns.Means grid, String sweep, int s, int t, int rho, int k) {
    long seed = OfflineRuns.seed(o.seed(), sweep.hashCode(), s, t, rho, k);
    Problem p = RandomProblems.generate(Spec.labl(s, t).withReplicas(1, rho), seed);
    long lb = OfflineRuns.lowerBound(p);
    for (String a : ALGORITHMS) {
      OfflineRuns.Run r = OfflineRuns.run(a, p, lb, seed);
      var e = r.eval();
      csv.add(sweep, a, s, t, rho, seed, Units.toDouble(e.makespan()), Units.toDouble(e.resource()), e.throughput(),
          Units.toDouble(lb), r.planMillis(), e.local(), e.rackLocal() + e.remote());
      if (grid != null) {
        grid.add(a, Units.toDouble(e.makespan()), Units.toDouble(e.resource()), e.throughput(),
            e.makespan() / (double) lb, 100.0 * e.local() / t, r.planMillis(), Units.toDouble(lb));
      }
    }
  }

  private static void charts(Report report, Csv csv, int[] servers, int[] tasks, int[] rhoMax) {
    List<Charts.Series> scatter = new ArrayList<>();
    List<Charts.Series> throughput = new ArrayList<>();
    List<Charts.Series> latencyServers = new ArrayList<>();
    List<Charts.Series> replication = new ArrayList<>();
    for (String a : ALGORITHMS) {
      List<Double> lx = new ArrayList<>();
      List<Double> ly = new ArrayList<>();
      for (var row : csv.rows()) {
        if (row.get(0).equals("grid") && row.get(1).equals(a)) {
          ly.add((Double) row.get(6));
          lx.add((Double) row.get(7));
        }
      }
      scatter.add(new Charts.Series(a, lx, ly));
      throughput.add(series(csv, a, "grid", tasks, 3, 8, servers[servers.length - 1], 2));
      latencyServers.add(series(csv, a, "scalability", servers, 2, 6, -1, -1));
      replication.add(series(csv, a, "replication", rhoMax, 4, 7, -1, -1));
    }
    latencyServers.add(series(csv, "flow", "scalability", servers, 2, 9, -1, -1).renamed("lower bound"));
    report.xy(("agosta-latency-resource.png"), "Latency vs resource (|S| x |T| grid, every seed)",
        "resource accounting C", "latency (makespan)", scatter, true, false);
    report.xy(("agosta-throughput.png"), "Throughput |T|/C at |S| = " + servers[servers.length - 1],
        "tasks |T|", "throughput", throughput, false, false);
    report.xy(("agosta-latency-servers.png"), "Latency vs servers (|T| = 3450)", "servers |S|",
        "latency (makespan)", latencyServers, false, false);
    report.xy(("agosta-replication.png"), "Resource vs replication (|S| 2000, |T| 3500)",
        "max replicas per block", "resource accounting C", replication, false, false);
  }

  /** Mean of column {@code yCol} for each x in {@code xs} (column {@code xCol}), filtered. */
  private static Charts.Series series(Csv csv, String algorithm, String sweep, int[] xs, int xCol, int yCol,
      int filterValue, int filterCol) {
    List<Integer> x = new ArrayList<>();
    List<Double> y = new ArrayList<>();
    for (int v : xs) {
      double sum = 0;
      int n = 0;
      for (var row : csv.rows()) {
        if (row.get(0).equals(sweep) && row.get(1).equals(algorithm) && ((Integer) row.get(xCol)) == v
            && (filterCol < 0 || ((Integer) row.get(filterCol)) == filterValue)) {
          sum += ((Number) row.get(yCol)).doubleValue();
          n++;
        }
      }
      if (n > 0) {
        x.add(v);
        y.add(sum / n);
      }
    }
    return new Charts.Series(algorithm, x, y);
  }
}
