package io.dataloc.sim.offline;

import io.dataloc.core.model.CostModel;
import io.dataloc.core.model.Problem;
import io.dataloc.core.model.Units;
import io.dataloc.core.workload.PaperInstances;
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

/**
 * BAR's setting (Jin et al.): initial loads and a congestion-dependent remote cost. Jobs of
 * m = 1,000 … 100,000 tasks on n = m/10 servers, 3 replicas (HDFS's default), initial loads uniform
 * 0–5, {@code C_loc = 1}, {@code C_rem(r) = 1.5 + 0.001·r} (the paper's {@code 1 + 0.1·r} makes a
 * remote read of a 100,000-task job cost thousands; we keep its shape at a scale where remote reads
 * stay within a few local ones). BAR vs flow vs round robin: active makespan (BAR's measure),
 * locality and plan time; plus the paper's worked example.
 */
public final class BarExperiment implements Experiment {
  private static final List<String> ALGORITHMS = List.of("round-robin", "flow", "bar");

  @Override
  public String name() {
    return "bar";
  }

  @Override
  public String description() {
    return "BAR paper: congestion-dependent remote cost with initial loads, m up to 100,000";
  }

  @Override
  public Report run(RunOptions o) throws IOException {
    Report report = new Report();
    int[] sizes = o.quick() ? new int[] {1000, 5000} : new int[] {1000, 2000, 5000, 10000, 20000, 50000, 100000};
    int seeds = o.seedsOr(3, 1);
    CostModel cost = CostModel.of(Units.of(1), Units.ofDouble(1.5), Units.ofDouble(1.5), Units.ofDouble(0.001));
    Csv csv = new Csv("algorithm", "tasks", "servers", "seed", "activeMakespan", "makespan", "resource", "local",
        "remote", "lowerBound", "planMillis");
    long total = (long) sizes.length * seeds;
    long done = 0;
    for (int m : sizes) {
      for (int k = 0; k < seeds; k++) {
        long seed = OfflineRuns.seed(o.seed(), m, k);
        Problem p = RandomProblems.generate(new Spec(m / 10, m, 3, 3, 5, 0, 0, cost), seed);
        long lb = OfflineRuns.lowerBound(p);
        for (String a : ALGORITHMS) {
          OfflineRuns.Run r = OfflineRuns.run(a, p, lb, seed);
          var e = r.eval();
          csv.add(a, m, m / 10, seed, Units.toDouble(e.activeMakespan()), Units.toDouble(e.makespan()),
              Units.toDouble(e.resource()), e.local(), e.rackLocal() + e.remote(), Units.toDouble(lb), r.planMillis());
        }
        o.progress().step("bar m=" + m, ++done, total);
      }
    }
    Problem ex = PaperInstances.barExample();
    long exLb = OfflineRuns.lowerBound(ex);
    for (String a : ALGORITHMS) {
      var e = OfflineRuns.run(a, ex, exLb, 0).eval();
      csv.add(a + "@worked-example", 7, 3, 0, Units.toDouble(e.activeMakespan()), Units.toDouble(e.makespan()),
          Units.toDouble(e.resource()), e.local(), e.rackLocal() + e.remote(), Units.toDouble(exLb), 0.0);
    }
    report.csv("bar.csv", csv);
    List<Charts.Series> mk = new ArrayList<>();
    List<Charts.Series> ms = new ArrayList<>();
    Table t = new Table("algorithm", "tasks", "activeMakespan", "local%", "planMillis");
    for (String a : ALGORITHMS) {
      List<Integer> x = new ArrayList<>();
      List<Double> y = new ArrayList<>();
      List<Double> y2 = new ArrayList<>();
      for (int m : sizes) {
        double sum = 0;
        double time = 0;
        double local = 0;
        int n = 0;
        for (var row : csv.rows()) {
          if (row.get(0).equals(a) && ((Integer) row.get(1)) == m) {
            sum += (Double) row.get(4);
            time += (Double) row.get(10);
            local += (Integer) row.get(7);
            n++;
          }
        }
        x.add(m);
        y.add(sum / n);
        y2.add(time / n);
        t.row(a, m, sum / n, String.format("%.1f%%", 100 * local / n / m), time / n);
      }
      mk.add(new Charts.Series(a, x, y));
      ms.add(new Charts.Series(a, x, y2));
    }
    report.xy(("bar-makespan.png"), "Active makespan, C_rem(r) = 1.5 + 0.001 r, loads 0-5",
        "tasks m (servers m/10)", "active makespan", mk, false, false);
    report.xy(("bar-plan-time.png"), "Plan time", "tasks m (servers m/10)", "milliseconds", ms, false,
        true);
    Table ext = new Table("algorithm", "activeMakespan (paper: BAR 6.2)");
    for (String a : ALGORITHMS) {
      ext.row(a, Units.format(OfflineRuns.run(a, ex, exLb, 0).eval().activeMakespan()));
    }
    return report.summary("bar: makespan and plan time as m grows (" + seeds + " seeds)\n" + t + "worked example\n" + ext);
  }
}
