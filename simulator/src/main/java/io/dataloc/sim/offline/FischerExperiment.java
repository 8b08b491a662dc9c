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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Fischer, Su and Yin: round robin vs MaxCover-BalAssign vs the exact optimum on small random
 * instances (n 2–6 servers, m 1–10 tasks, 1–3 replicas, w_loc 1, w_rem 3, no initial load), as the
 * distribution of the gap to optimum in units of w_rem; and the Thm 4.3 family (n = 3…12,
 * m = n(n−2)), where round robin reaches ⌊m/n⌋·w_rem against an optimum of ⌈m/n⌉·w_loc.
 */
public final class FischerExperiment implements Experiment {
  private static final List<String> ALGORITHMS = List.of("round-robin", "flow", "bar", "labl:always");

  @Override
  public String name() {
    return "fischer";
  }

  @Override
  public String description() {
    return "Fischer et al.: gap to optimum on small instances, and the round-robin worst case family";
  }

  @Override
  public Report run(RunOptions o) throws IOException {
    Report report = new Report();
    int instances = o.seedsOr(2000, 200);
    Csv csv = new Csv("kind", "algorithm", "servers", "tasks", "seed", "makespan", "optimum", "gapInWrem");
    SplittableRandom rnd = new SplittableRandom(o.seed());
    Map<String, int[]> histogram = new LinkedHashMap<>();
    Map<String, double[]> stats = new LinkedHashMap<>();
    for (int i = 0; i < instances; i++) {
      long seed = rnd.nextLong();
      int n = 2 + rnd.nextInt(5);
      int m = 1 + rnd.nextInt(10);
      Problem p = RandomProblems.generate(
          new Spec(n, m, 1, 1 + rnd.nextInt(Math.min(3, n)), 0, 0, 0, CostModel.uniform(1, 3)), seed);
      long lb = OfflineRuns.lowerBound(p);
      long opt = OfflineRuns.run("exact", p, lb, seed).eval().makespan();
      for (String a : ALGORITHMS) {
        long mk = OfflineRuns.run(a, p, lb, seed).eval().makespan();
        double gap = (mk - opt) / (double) p.cost().remote();
        csv.add("random", a, n, m, seed, Units.toDouble(mk), Units.toDouble(opt), gap);
        int bucket = (int) Math.min(4, Math.ceil(gap * 3 - 1e-9));
        histogram.computeIfAbsent(a, k -> new int[5])[Math.max(0, bucket)]++;
        double[] st = stats.computeIfAbsent(a, k -> new double[3]);
        st[0] += gap;
        st[1] = Math.max(st[1], gap);
        st[2] += mk == opt ? 1 : 0;
      }
      o.progress().step("fischer random instances", i + 1, instances);
    }
    List<Integer> ns = new ArrayList<>();
    List<Double> rrY = new ArrayList<>();
    List<Double> flowY = new ArrayList<>();
    List<Double> optY = new ArrayList<>();
    for (int n = 3; n <= (o.quick() ? 6 : 12); n++) {
      int m = n * (n - 2);
      Problem p = PaperInstances.fischerRoundRobinWorstCase(n, m, CostModel.uniform(1, 3));
      long lb = OfflineRuns.lowerBound(p);
      long rr = OfflineRuns.run("round-robin", p, lb, 0).eval().makespan();
      long flow = OfflineRuns.run("flow", p, lb, 0).eval().makespan();
      csv.add("thm4.3", "round-robin", n, m, 0, Units.toDouble(rr), Units.toDouble(lb), (rr - lb) / 3000.0);
      csv.add("thm4.3", "flow", n, m, 0, Units.toDouble(flow), Units.toDouble(lb), (flow - lb) / 3000.0);
      ns.add(n);
      rrY.add(Units.toDouble(rr));
      flowY.add(Units.toDouble(flow));
      optY.add(Units.toDouble(lb));
    }
    report.csv("fischer.csv", csv);
    List<String> buckets = List.of("0", "(0,1/3]", "(1/3,2/3]", "(2/3,1]", ">1");
    Map<String, List<? extends Number>> bars = new LinkedHashMap<>();
    histogram.forEach((a, h) -> bars.put(a, java.util.Arrays.stream(h).boxed().toList()));
    report.bars(("fischer-gap.png"), "Gap to the optimum (" + instances + " random instances)",
        "(makespan - OPT) / w_rem", "instances", buckets, bars);
    report.xy(("fischer-thm43.png"), "Thm 4.3 family: m = n(n-2)", "servers n", "makespan",
        List.of(new Charts.Series("round-robin", ns, rrY), new Charts.Series("flow", ns, flowY),
            new Charts.Series("optimum", ns, optY)), false, false);
    Table t = new Table("algorithm", "optimal", "mean gap (w_rem)", "max gap (w_rem)");
    stats.forEach((a, st) -> t.row(a, String.format("%.1f%%", 100 * st[2] / instances), st[0] / instances, st[1]));
    Table w = new Table("n", "m", "round-robin", "flow = optimum");
    for (int i = 0; i < ns.size(); i++) {
      w.row(ns.get(i), ns.get(i) * (ns.get(i) - 2), rrY.get(i), flowY.get(i));
    }
    return report.summary("fischer: " + instances + " random instances against the exact optimum\n" + t
        + "Thm 4.3 family (w_loc 1, w_rem 3)\n" + w);
  }
}
