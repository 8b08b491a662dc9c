package io.dataloc.sim.online;

import io.dataloc.core.engine.DecisionEngine;
import io.dataloc.core.engine.EngineConfig;
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

/**
 * Wang et al.'s simulation (Figs. 3 and 4): 1,000 machines, α = 0.8, γ = 0.2, capacity 680 tasks
 * per slot with uniform data; total task arrival rate λ swept towards capacity for each online
 * policy; per point the mean number of jobs in the system over the second half, the mean job and
 * task delay of what departs then, and whether the backlog keeps growing. {@code wang-hotspot}
 * skews the data onto 15% of the machines and adds racks (β = 0.5).
 */
public final class WangExperiment implements Experiment {
  static final List<String> POLICIES =
      List.of("jsq-maxweight", "jsq-maxweight-steal", "balanced-pandas", "fair", "delay", "greedy", "break-even");
  private final boolean hotspot;

  public WangExperiment(boolean hotspot) {
    this.hotspot = hotspot;
  }

  @Override
  public String name() {
    return hotspot ? "wang-hotspot" : "wang";
  }

  @Override
  public String description() {
    return hotspot ? "Wang et al.'s cluster with data skewed onto 15% of the machines, on 25 racks"
        : "Wang et al.: stability and delay of the online policies as the load nears capacity (680)";
  }

  /** Result of one (policy, λ) point. */
  record Point(String policy, double lambda, double meanJobs, double jobDelay, double taskDelay, double taskWait,
      boolean stable, double locality, List<Integer> jobsInSystem) {}

  @Override
  public Report run(RunOptions o) throws IOException {
    Report report = new Report();
    double[] lambdas = hotspot
        ? (o.quick() ? new double[] {100, 250} : new double[] {50, 100, 150, 200, 250, 300, 350, 400})
        : (o.quick() ? new double[] {200, 400, 600} : new double[] {100, 200, 300, 350, 400, 450, 500, 550, 600, 630,
            650, 670});
    int slots = o.quick() ? 400 : 4000;
    Csv csv = new Csv("policy", "lambda", "meanJobsInSystem", "meanJobDelay", "meanTaskDelay", "meanTaskWait", "stable",
        "locality", "slots");
    List<Point> points = new ArrayList<>();
    long total = (long) lambdas.length * POLICIES.size();
    long done = 0;
    for (double lambda : lambdas) {
      for (String policy : POLICIES) {
        Point p = point(policy, lambda, slots, o.seed());
        points.add(p);
        csv.add(p.policy(), p.lambda(), p.meanJobs(), p.jobDelay(), p.taskDelay(), p.taskWait(), p.stable(),
            p.locality(), p.jobsInSystem().size());
        o.progress().step(name() + " λ=" + (int) lambda + " " + policy + (p.stable() ? "" : " (unstable)"), ++done,
            total);
      }
    }
    String prefix = name();
    report.csv(prefix + ".csv", csv);
    charts(report, points, prefix);
    Table t = new Table(concat("λ", POLICIES));
    for (double lambda : lambdas) {
      List<Object> row = new ArrayList<>();
      row.add((int) lambda);
      for (String policy : POLICIES) {
        Point p = find(points, policy, lambda);
        row.add(p.stable() ? String.format("%.2f", p.jobDelay())
            : Double.isNaN(p.jobDelay()) ? "unstable" : String.format("%.0f+ (unstable)", p.jobDelay()));
      }
      t.row(row.toArray());
    }
    return report.summary(name() + ": mean job delay in slots (second half of " + slots + " slots)\n" + t);
  }

  /**
   * One run of Wang et al.'s cluster: {@code policy} at arrival rate {@code lambda} for
   * {@code slots} slots (statistics from the second half), stopped past 5,000 jobs in the system.
   */
  static SlottedSimulator.Stats simulate(boolean hotspot, String policy, double lambda, int slots, long seed) {
    long beta = hotspot ? 500 : 200;
    EngineConfig cfg = EngineConfig.defaults().withPolicy(policy).withOrdering("fair").withPlanner("none")
        .withRates(800, beta, 200).withDelays(100, 100).withSeed(seed);
    DecisionEngine engine = new DecisionEngine(cfg);
    for (int i = 0; i < WangWorkload.MACHINES; i++) {
      engine.addHost(WangWorkload.host(i), WangWorkload.rack(hotspot, i), 1);
    }
    WangWorkload w = new WangWorkload(hotspot, lambda, seed ^ (long) lambda);
    SlottedSimulator sim = new SlottedSimulator(engine, WangWorkload.MACHINES, new long[] {800, beta, 200}, seed + 17);
    return sim.run(slots, w::arrivals, 5_000, null);
  }

  private Point point(String policy, double lambda, int slots, long seed) {
    SlottedSimulator.Stats st = simulate(hotspot, policy, lambda, slots, seed);
    List<Integer> q = st.jobsInSystem;
    int n = q.size();
    double second = mean(q, n / 2, n);
    double third = mean(q, n / 2, 3 * n / 4);
    double fourth = mean(q, 3 * n / 4, n);
    // Growing backlog: the last quarter's mean clearly above the third's (10% plus a few jobs).
    boolean stable = !st.abortedUnstable && fourth <= 1.1 * third + 10;
    double tasks = Math.max(1, st.tasksDone);
    return new Point(policy, lambda, second, st.jobsDone == 0 ? Double.NaN : st.jobDelaySum / st.jobsDone,
        st.taskDelaySum / tasks, st.taskWaitSum / tasks, stable, st.local / tasks, q);
  }

  private static double mean(List<Integer> q, int from, int to) {
    double s = 0;
    for (int i = from; i < to; i++) {
      s += q.get(i);
    }
    return to > from ? s / (to - from) : 0;
  }

  private static Point find(List<Point> points, String policy, double lambda) {
    return points.stream().filter(p -> p.policy().equals(policy) && p.lambda() == lambda).findFirst().orElseThrow();
  }

  private void charts(Report report, List<Point> points, String prefix) throws IOException {
    List<Charts.Series> jobs = new ArrayList<>();
    List<Charts.Series> jobDelay = new ArrayList<>();
    List<Charts.Series> taskDelay = new ArrayList<>();
    for (String policy : POLICIES) {
      List<Double> x = new ArrayList<>();
      List<Double> y = new ArrayList<>();
      List<Double> xd = new ArrayList<>();
      List<Double> yd = new ArrayList<>();
      List<Double> yt = new ArrayList<>();
      for (Point p : points) {
        if (p.policy().equals(policy)) {
          x.add(p.lambda());
          y.add(Math.max(0.1, p.meanJobs()));
          if (p.stable() && !Double.isNaN(p.jobDelay())) {
            xd.add(p.lambda());
            yd.add(p.jobDelay());
            yt.add(p.taskDelay());
          }
        }
      }
      jobs.add(new Charts.Series(policy, x, y));
      jobDelay.add(new Charts.Series(policy, xd, yd));
      taskDelay.add(new Charts.Series(policy, xd, yt));
    }
    report.xy((prefix + "-jobs-in-system.png"), "Mean jobs in system (second half) — Fig. 3b",
        "task arrival rate λ", "jobs in system", jobs, false, true);
    report.xy((prefix + "-job-delay.png"), "Mean job delay, stable points — Fig. 4a",
        "task arrival rate λ", "slots", jobDelay, false, true);
    report.xy((prefix + "-task-delay.png"), "Mean task delay, stable points — Fig. 4b",
        "task arrival rate λ", "slots", taskDelay, false, true);
    // Fig. 3a: the backlog over time at the highest load, one series per policy.
    double top = points.stream().mapToDouble(Point::lambda).max().orElse(0);
    Map<String, List<Integer>> evolution = new LinkedHashMap<>();
    List<Charts.Series> ev = new ArrayList<>();
    for (String policy : POLICIES) {
      Point p = find(points, policy, top);
      evolution.put(policy, p.jobsInSystem());
      List<Integer> x = new ArrayList<>();
      List<Integer> y = new ArrayList<>();
      int stride = Math.max(1, p.jobsInSystem().size() / 400);
      for (int i = 0; i < p.jobsInSystem().size(); i += stride) {
        x.add(i);
        y.add(Math.max(1, p.jobsInSystem().get(i)));
      }
      ev.add(new Charts.Series(policy, x, y));
    }
    report.xy((prefix + "-evolution.png"), "Jobs in system over time at λ = " + (int) top
        + " — Fig. 3a", "slot", "jobs in system", ev, false, true);
  }

  /** A table header: {@code first}, then {@code rest}. */
  static String[] concat(String first, List<String> rest) {
    String[] out = new String[rest.size() + 1];
    out[0] = first;
    for (int i = 0; i < rest.size(); i++) {
      out[i + 1] = rest.get(i);
    }
    return out;
  }
}
