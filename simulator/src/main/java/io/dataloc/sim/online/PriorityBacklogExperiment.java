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
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Future;

/**
 * Stability when a job of higher priority is backlogged on a few hosts: the case in which a policy
 * that serves local work first and orders jobs by priority might starve the rest or let the
 * backlog grow, for want of serving it away from its data.
 *
 * <p><b>Cluster.</b> 100 machines of one slot in 4 racks (machine {@code i} in rack {@code i mod
 * 4}); service probability per slot α = 0.8 on a replica host, β = 0.5 in its rack, γ = 0.2
 * elsewhere (Wang et al.'s rates). <b>Hot stream</b>, priority 1: jobs of 10 tasks, Poisson at
 * 0.48 jobs per slot, every task's three replicas on machines 0, 1 and 2 (racks 0, 1, 2): 4.8
 * tasks per slot, twice what the three hosts serve locally (2.4). The other 2.4 per slot must run
 * elsewhere, at best rack-locally on 4.8 machines' worth of slots. <b>Background</b>, priority 0:
 * Wang et al.'s jobs (1–19 tasks, replicas uniform over all 100 machines) at λ tasks per slot.
 * With the hot stream placed as well as it can be, the background's local capacity is (100 − 3 −
 * 4.8) × 0.8 ≈ 73.8 tasks per slot; {@code load} is λ / 73.8. Beyond 1 no policy can keep up.
 *
 * <p><b>Policies</b>, with the ResourceManager's engine settings ({@link
 * EngineConfig#resourceManager}: fair job order under priority, starvation guard after 2 rounds):
 * routed online, and planned on arrival by BAR as the ResourceManager plans a MapReduce job.
 * <b>The test</b> is {@code wang-stability}'s: per run the least-squares slope of the jobs in
 * the system over the second half, in jobs per 1,000 slots; a point <em>grows</em> when the 95%
 * interval of the mean slope over seeds lies above zero or a run passes 5,000 jobs. Beside it the
 * mean job delay of each stream (second half), so a level backlog bought by starving the
 * background shows too.
 */
public final class PriorityBacklogExperiment implements Experiment {
  static final List<String> POLICIES = List.of("jsq-maxweight-steal", "jsq-maxweight", "break-even");
  static final int MACHINES = 100;
  static final int RACKS = 4;
  static final double HOT_JOBS_PER_SLOT = 0.48;
  static final int HOT_TASKS = 10;
  /** The background's local capacity in tasks per slot, with the hot stream placed at best. */
  static final double BACKGROUND_CAPACITY = (MACHINES - 3 - 2.4 / 0.5) * 0.8;

  @Override
  public String name() {
    return "priority-backlog";
  }

  @Override
  public String description() {
    return "a higher-priority stream backlogged on three hosts, over background load: backlog growth over seeds";
  }

  /** One run: the backlog's slope (jobs per 1,000 slots), each stream's mean job delay, whether it was stopped. */
  record Run(double slope, double hotDelay, double backgroundDelay, boolean aborted) {}

  @Override
  public Report run(RunOptions o) throws IOException {
    Report report = new Report();
    double[] loads = o.quick() ? new double[] {0.9} : new double[] {0.8, 0.9, 0.95, 1.1};
    String[] modes = {"online", "bar"};
    int slots = o.quick() ? 1_000 : 6_000;
    int seeds = o.seedsOr(5, 2);
    List<Future<Run>> runs = new ArrayList<>();
    try (RunPool pool = new RunPool()) {
      for (String mode : modes) {
        for (double load : loads) {
          for (String policy : POLICIES) {
            for (int k = 0; k < seeds; k++) {
              long seed = o.seed() + 1_000_003L * k;
              runs.add(pool.submit(() -> one(policy, mode.equals("bar") ? "bar" : null, load, slots, seed)));
            }
          }
        }
      }
      Csv csv = new Csv("mode", "policy", "load", "seed", "slopePer1000Slots", "hotJobDelay", "backgroundJobDelay",
          "aborted", "slots");
      StringBuilder out = new StringBuilder();
      List<Charts.Series> series = new ArrayList<>();
      List<Double> xs = Arrays.stream(loads).boxed().toList();
      int i = 0;
      long total = runs.size();
      for (String mode : modes) {
        Table t = new Table(WangExperiment.concat("load", POLICIES));
        Map<String, List<Double>> slopes = new LinkedHashMap<>();
        for (double load : loads) {
          List<Object> row = new ArrayList<>(List.of(String.format(Locale.ROOT, "%.2f", load)));
          for (String policy : POLICIES) {
            double[] slope = new double[seeds];
            double[] hot = new double[seeds];
            double[] bg = new double[seeds];
            boolean aborted = false;
            for (int k = 0; k < seeds; k++) {
              Run r = RunPool.get(runs.get(i++));
              slope[k] = r.slope();
              hot[k] = r.hotDelay();
              bg[k] = r.backgroundDelay();
              aborted |= r.aborted();
              csv.add(mode, policy, load, k, r.slope(), r.hotDelay(), r.backgroundDelay(), r.aborted(), slots);
              o.progress().step(name() + " " + mode + " load " + load + " " + policy + " seed " + k, i, total);
            }
            row.add(verdict(slope, hot, bg, aborted));
            slopes.computeIfAbsent(policy, p -> new ArrayList<>()).add(WangStabilityExperiment.meanAndHalfWidth(slope)[0]);
          }
          t.row(row.toArray());
        }
        String label = mode.equals("bar") ? "planned on arrival by BAR" : "routed online";
        out.append(label).append('\n').append(t).append('\n');
        slopes.forEach((policy, ys) -> series.add(new Charts.Series(policy + ", " + mode, xs, ys)));
      }
      report.csv(name() + ".csv", csv);
      report.xy(name() + "-slope.png", "Backlog growth with a higher-priority stream on three hosts (mean over " + seeds
          + " seeds; 0 = level)", "background load", "jobs per 1,000 slots", series, false, false);
      return report.summary(name() + ": per point 'grows' or 'level' (slope of jobs in the system, jobs per 1,000"
          + " slots, mean ± 95% CI over " + seeds + " seeds of " + slots + " slots), and the mean job delay in slots of"
          + " the hot stream / the background\n" + out);
    }
  }

  /** A point's verdict: grows or level, its slope, and the two streams' mean job delays. */
  static String verdict(double[] slope, double[] hot, double[] background, boolean aborted) {
    double[] s = WangStabilityExperiment.meanAndHalfWidth(slope);
    boolean grows = aborted || s[0] - s[1] > 0;
    return String.format(Locale.ROOT, "%s (slope %.1f ± %.1f), delay %.1f / %.1f", grows ? "grows" : "level", s[0], s[1],
        mean(hot), mean(background));
  }

  private static double mean(double[] x) {
    double m = 0;
    for (double v : x) {
      m += v;
    }
    return m / x.length;
  }

  /** One seeded run at {@code load}: routed online ({@code assigner} null) or planned on arrival. */
  static Run one(String policy, String assigner, double load, int slots, long seed) {
    DecisionEngine engine = new DecisionEngine(EngineConfig.resourceManager(assigner == null ? "bar" : assigner)
        .withPolicy(policy).withSeed(seed));
    for (int m = 0; m < MACHINES; m++) {
      engine.addHost(WangWorkload.host(m), "/rack" + (m % RACKS), 1);
    }
    SlottedSimulator sim = new SlottedSimulator(engine, MACHINES, new long[] {800, 500, 200}, seed + 17);
    if (assigner != null) {
      sim.planWith(assigner, seed);
    }
    Arrivals arrivals = new Arrivals(load * BACKGROUND_CAPACITY, seed);
    SlottedSimulator.Stats st = sim.run(slots, arrivals::at, 5_000, null);
    List<Integer> q = st.jobsInSystem;
    return new Run(1000 * WangStabilityExperiment.slope(q, q.size() / 2, q.size()), delay(st, "hot"),
        delay(st, "background"), st.abortedUnstable);
  }

  private static double delay(SlottedSimulator.Stats st, String user) {
    double[] d = st.jobDelayByUser.get(user);
    return d == null || d[1] == 0 ? Double.NaN : d[0] / d[1];
  }

  /** The hot stream (priority 1, replicas on machines 0–2) and the uniform background (priority 0). */
  static final class Arrivals {
    private static final List<String> HOT_HOSTS = List.of(WangWorkload.host(0), WangWorkload.host(1),
        WangWorkload.host(2));
    private final double background;
    private final SplittableRandom rnd;
    private long nextJob;

    Arrivals(double backgroundTasksPerSlot, long seed) {
      this.background = backgroundTasksPerSlot;
      this.rnd = new SplittableRandom(seed ^ 0x5DEECE66DL);
    }

    List<SlottedSimulator.Arrival> at(int slot) {
      List<SlottedSimulator.Arrival> out = new ArrayList<>();
      for (int j = WangWorkload.poisson(rnd, HOT_JOBS_PER_SLOT); j > 0; j--) {
        out.add(new SlottedSimulator.Arrival(nextJob++, "hot", Collections.nCopies(HOT_TASKS, HOT_HOSTS), 1));
      }
      for (int j = WangWorkload.poisson(rnd, background / 10); j > 0; j--) {
        int tasks = 1 + rnd.nextInt(19);
        List<List<String>> reps = new ArrayList<>(tasks);
        for (int t = 0; t < tasks; t++) {
          int a = rnd.nextInt(MACHINES);
          int b = (a + 1 + rnd.nextInt(MACHINES - 1)) % MACHINES;
          int c;
          do {
            c = rnd.nextInt(MACHINES);
          } while (c == a || c == b);
          reps.add(List.of(WangWorkload.host(a), WangWorkload.host(b), WangWorkload.host(c)));
        }
        out.add(new SlottedSimulator.Arrival(nextJob++, "background", reps, 0));
      }
      return out;
    }
  }
}
