package io.dataloc.sim.online;

import io.dataloc.sim.Experiment;
import io.dataloc.sim.RunOptions;
import io.dataloc.sim.report.Csv;
import io.dataloc.sim.report.Report;
import io.dataloc.sim.report.Table;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Future;
import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.descriptive.SummaryStatistics;

/**
 * Stability near capacity, decided by a stated test over seeds (Wang et al.'s uniform cluster,
 * capacity 680 tasks per slot). For each policy and arrival rate λ, {@code seeds} independent runs
 * of {@code slots} slots. Per run, the least-squares slope of the number of jobs in the system over
 * the second half, in jobs per 1,000 slots. Over the seeds, the mean slope and its 95% confidence
 * interval (Student's t with seeds − 1 degrees of freedom). <b>The test</b>: a point <em>grows</em>
 * (unstable) when the interval lies above zero, or when a run passed 5,000 jobs in the system;
 * otherwise it is <em>level</em>: no growth the runs can tell from noise. Beside it, the mean job
 * delay of the second half with its 95% interval. The one-seed verdicts of {@code wang} (last
 * quarter above 1.1 × the third plus 10, over 4,000 slots) are what this replaces near capacity.
 */
public final class WangStabilityExperiment implements Experiment {
  static final List<String> POLICIES = List.of("jsq-maxweight", "jsq-maxweight-steal", "greedy", "break-even");

  @Override
  public String name() {
    return "wang-stability";
  }

  @Override
  public String description() {
    return "Wang et al.'s cluster near capacity: growth of the backlog over seeds, with confidence intervals";
  }

  /** One run's outcome: slope of the backlog (jobs per 1,000 slots), mean job delay, aborted. */
  record Run(double slope, double jobDelay, boolean aborted) {}

  @Override
  public Report run(RunOptions o) throws IOException {
    Report report = new Report();
    double[] lambdas = o.quick() ? new double[] {600} : new double[] {600, 630, 650, 670};
    int slots = o.quick() ? 600 : 12_000;
    int seeds = o.seedsOr(5, 2);
    List<Future<Run>> runs = new ArrayList<>();
    try (RunPool pool = new RunPool()) {
      for (double lambda : lambdas) {
        for (String policy : POLICIES) {
          for (int k = 0; k < seeds; k++) {
            long seed = o.seed() + 1_000_003L * k;
            runs.add(pool.submit(() -> one(false, policy, lambda, slots, seed)));
          }
        }
      }
      Csv csv = new Csv("policy", "lambda", "seed", "slopePer1000Slots", "meanJobDelay", "aborted", "slots");
      Table t = new Table(WangExperiment.concat("λ", POLICIES));
      java.util.Map<String, List<Double>> slopes = new java.util.LinkedHashMap<>();
      int i = 0;
      long total = runs.size();
      for (double lambda : lambdas) {
        List<Object> row = new ArrayList<>(List.of((int) lambda));
        for (String policy : POLICIES) {
          double[] slope = new double[seeds];
          double[] delay = new double[seeds];
          boolean aborted = false;
          for (int k = 0; k < seeds; k++) {
            Run r = RunPool.get(runs.get(i++));
            slope[k] = r.slope();
            delay[k] = r.jobDelay();
            aborted |= r.aborted();
            csv.add(policy, lambda, k, r.slope(), r.jobDelay(), r.aborted(), slots);
            o.progress().step(name() + " λ=" + (int) lambda + " " + policy + " seed " + k, i, total);
          }
          double[] s = meanAndHalfWidth(slope);
          double[] d = meanAndHalfWidth(delay);
          boolean grows = aborted || s[0] - s[1] > 0;
          slopes.computeIfAbsent(policy, k -> new ArrayList<>()).add(s[0]);
          row.add(grows ? String.format(Locale.ROOT, "grows (slope %.1f ± %.1f)", s[0], s[1])
              : String.format(Locale.ROOT, "%.1f ± %.1f, level (slope %.1f ± %.1f)", d[0], d[1], s[0], s[1]));
        }
        t.row(row.toArray());
      }
      report.csv(name() + ".csv", csv);
      List<io.dataloc.sim.report.Charts.Series> series = new ArrayList<>();
      List<Double> xs = java.util.Arrays.stream(lambdas).boxed().toList();
      slopes.forEach((policy, ys) -> series.add(new io.dataloc.sim.report.Charts.Series(policy, xs, ys)));
      report.xy((name() + "-slope.png"),
          "Backlog growth near capacity (mean over " + seeds + " seeds; 0 = level)", "task arrival rate λ",
          "jobs per 1,000 slots", series, false, false);
      return report.summary(name() + ": mean job delay ± 95% CI over " + seeds + " seeds of " + slots
          + " slots, and the backlog's slope (jobs per 1,000 slots, second half)\n" + t);
    }
  }

  /** One seeded run of a sweep's cluster: its backlog's slope, mean job delay, and whether it was stopped. */
  static Run one(boolean hotspot, String policy, double lambda, int slots, long seed) {
    SlottedSimulator.Stats st = WangExperiment.simulate(hotspot, policy, lambda, slots, seed);
    List<Integer> q = st.jobsInSystem;
    double delay = st.jobsDone == 0 ? Double.NaN : st.jobDelaySum / st.jobsDone;
    return new Run(1000 * slope(q, q.size() / 2, q.size()), delay, st.abortedUnstable);
  }

  /** Least-squares slope of {@code q[from..to)} against the slot index. */
  static double slope(List<Integer> q, int from, int to) {
    int n = to - from;
    if (n < 2) {
      return 0;
    }
    double mx = (from + to - 1) / 2.0;
    double my = 0;
    for (int i = from; i < to; i++) {
      my += q.get(i);
    }
    my /= n;
    double num = 0;
    double den = 0;
    for (int i = from; i < to; i++) {
      num += (i - mx) * (q.get(i) - my);
      den += (i - mx) * (i - mx);
    }
    return num / den;
  }

  /** Mean and the half-width of its 95% confidence interval (Student's t, n − 1 degrees of freedom). */
  static double[] meanAndHalfWidth(double[] x) {
    SummaryStatistics st = new SummaryStatistics();
    for (double v : x) {
      st.addValue(v);
    }
    int n = x.length;
    if (n < 2) {
      return new double[] {st.getMean(), Double.POSITIVE_INFINITY};
    }
    double t = new TDistribution(null, n - 1).inverseCumulativeProbability(0.975);
    return new double[] {st.getMean(), t * st.getStandardDeviation() / Math.sqrt(n)};
  }
}
