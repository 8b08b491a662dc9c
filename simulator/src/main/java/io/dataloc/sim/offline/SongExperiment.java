package io.dataloc.sim.offline;

import io.dataloc.core.engine.DecisionEngine;
import io.dataloc.core.engine.EngineConfig;
import io.dataloc.core.model.CostModel;
import io.dataloc.core.model.Problem;
import io.dataloc.core.workload.RandomProblems;
import io.dataloc.core.workload.RandomProblems.Spec;
import io.dataloc.sim.Experiment;
import io.dataloc.sim.RunOptions;
import io.dataloc.sim.online.SlottedSimulator;
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
 * Song et al.'s two levels. <b>Job level</b>: FIFO vs bid vs fair ordering for 30–200 jobs from
 * four users on 20 machines (alice: many 5-task jobs; bob: few 60-task jobs; carol: 20-task jobs;
 * dave: 10-task jobs), all arriving within the first half of the work so queues build; the
 * waiting time as the paper averages it, <em>per job</em> (each job's mean task wait, start − job
 * arrival, averaged over jobs: a 60-task job counts once, as a 5-task job does), overall and per
 * user, with the per-task average beside it. <b>Task level</b>: the paper's data-locality rate
 * {@code l / r}, local tasks over remote tasks (summed over the seeds; ∞ when none is remote), of
 * the Hungarian method against round robin (the stock greedy rule) for 5 and 10 tasks on 10–60
 * nodes with 3 replicas, and the local share {@code l / (l + r)} beside it.
 */
public final class SongExperiment implements Experiment {
  private static final List<String> ORDERINGS = List.of("fifo", "bid", "fair");
  private static final String[] USERS = {"alice", "bob", "carol", "dave"};
  private static final int[] SIZE = {5, 60, 20, 10};
  private static final int[] WEIGHT = {40, 10, 25, 25};

  @Override
  public String name() {
    return "song";
  }

  @Override
  public String description() {
    return "Song et al.: job ordering (fifo/bid/fair) waiting times, and Hungarian vs greedy locality";
  }

  @Override
  public Report run(RunOptions o) throws IOException {
    Report report = new Report();
    int[] jobCounts = o.quick() ? new int[] {30, 60} : new int[] {30, 50, 100, 150, 200};
    Csv csv = new Csv("part", "method", "jobsOrTasks", "nodes", "user", "value");
    Table waits = new Table("jobs", "ordering", "mean wait per job", "alice", "bob", "carol", "dave",
        "mean wait per task");
    Map<String, List<Double>> waitSeries = new LinkedHashMap<>();
    int done = 0;
    for (int jobs : jobCounts) {
      for (String ordering : ORDERINGS) {
        SlottedSimulator.Stats st = orderingRun(jobs, ordering, o.seed());
        double perJob = st.jobWaitSum / Math.max(1, st.jobsDone);
        double perTask = st.taskWaitSum / Math.max(1, st.tasksDone);
        List<Object> row = new ArrayList<>(List.of(jobs, ordering, perJob));
        csv.add("ordering", ordering, jobs, 20, "all", perJob);
        csv.add("ordering-per-task", ordering, jobs, 20, "all", perTask);
        for (String u : USERS) {
          double[] w = st.jobWaitByUser.getOrDefault(u, new double[] {0, 1});
          double mean = w[0] / Math.max(1, w[1]);
          csv.add("ordering", ordering, jobs, 20, u, mean);
          row.add(mean);
        }
        row.add(perTask);
        waits.row(row.toArray());
        waitSeries.computeIfAbsent(ordering, k -> new ArrayList<>()).add(perJob);
        o.progress().step("song job ordering " + ordering + " x " + jobs + " jobs", ++done,
            (long) jobCounts.length * ORDERINGS.size());
      }
    }
    int seeds = o.seedsOr(200, 20);
    Table loc = new Table("tasks", "nodes", "hungarian l/r", "round-robin l/r", "hungarian local share",
        "round-robin local share");
    Map<String, List<Double>> locSeries = new LinkedHashMap<>();
    Map<String, List<Integer>> locNodes = new LinkedHashMap<>();
    List<Integer> nodes = List.of(10, 20, 30, 40, 50, 60);
    for (int tasks : new int[] {5, 10}) {
      for (int n : nodes) {
        long[] hungarian = new long[2]; // local, not local
        long[] roundRobin = new long[2];
        for (int k = 0; k < seeds; k++) {
          long seed = OfflineRuns.seed(o.seed(), tasks, n, k);
          Problem p = RandomProblems.generate(new Spec(n, tasks, 3, 3, 0, 0, 0, CostModel.uniform(1, 3)), seed);
          long lb = OfflineRuns.lowerBound(p);
          count(hungarian, OfflineRuns.run("hungarian", p, lb, seed).eval());
          count(roundRobin, OfflineRuns.run("round-robin", p, lb, seed).eval());
        }
        double h = ratio(hungarian);
        double g = ratio(roundRobin);
        csv.add("locality", "hungarian", tasks, n, "", h);
        csv.add("locality", "round-robin", tasks, n, "", g);
        csv.add("local-share", "hungarian", tasks, n, "", share(hungarian));
        csv.add("local-share", "round-robin", tasks, n, "", share(roundRobin));
        loc.row(tasks, n, Double.isInfinite(h) ? "∞ (none remote)" : h, Double.isInfinite(g) ? "∞ (none remote)" : g,
            share(hungarian), share(roundRobin));
        for (var e : List.of(Map.entry("hungarian, " + tasks + " tasks", h), Map.entry("round-robin, " + tasks + " tasks", g))) {
          if (!Double.isInfinite(e.getValue())) { // a point with no remote task has no finite l/r to plot
            locSeries.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(e.getValue());
            locNodes.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(n);
          }
        }
      }
    }
    report.csv("song.csv", csv);
    List<Charts.Series> ws = new ArrayList<>();
    waitSeries.forEach((k, v) -> ws.add(new Charts.Series(k, java.util.Arrays.stream(jobCounts).boxed().toList(), v)));
    report.xy(("song-waiting.png"), "Mean waiting time per job by job ordering (20 machines, 4 users)",
        "jobs", "slots", ws, false, false);
    List<Charts.Series> ls = new ArrayList<>();
    locSeries.forEach((k, v) -> ls.add(new Charts.Series(k, locNodes.get(k), v)));
    report.xy(("song-locality.png"), "Data-locality rate l/r (local over remote tasks), 3 replicas",
        "nodes", "l / r", ls, false, false);
    return report.summary("song: waiting time (slots) by job ordering, per job as the paper averages it\n" + waits
        + "task level: locality rate l/r (local over remote) and local share\n" + loc);
  }

  private static void count(long[] tally, io.dataloc.core.model.Evaluation e) {
    tally[0] += e.local();
    tally[1] += e.rackLocal() + e.remote();
  }

  /** The paper's l/r: local tasks over remote ones; infinite when none is remote. */
  static double ratio(long[] tally) {
    return tally[1] == 0 ? Double.POSITIVE_INFINITY : tally[0] / (double) tally[1];
  }

  private static double share(long[] tally) {
    long all = tally[0] + tally[1];
    return all == 0 ? 1 : tally[0] / (double) all;
  }

  private static SlottedSimulator.Stats orderingRun(int jobs, String ordering, long seed) {
    int machines = 20;
    DecisionEngine engine = new DecisionEngine(EngineConfig.defaults().withPolicy("fair").withOrdering(ordering)
        .withPlanner("none").withSeed(seed));
    for (int i = 0; i < machines; i++) {
      engine.addHost("n" + i, null, 1);
    }
    SplittableRandom rnd = new SplittableRandom(seed + jobs);
    List<List<SlottedSimulator.Arrival>> bySlot = new ArrayList<>();
    long totalTasks = 0;
    List<SlottedSimulator.Arrival> all = new ArrayList<>();
    for (int j = 0; j < jobs; j++) {
      int pick = rnd.nextInt(100);
      int u = 0;
      int acc = WEIGHT[0];
      while (pick >= acc) {
        acc += WEIGHT[++u];
      }
      List<List<String>> tasks = new ArrayList<>();
      for (int t = 0; t < SIZE[u]; t++) {
        int a = rnd.nextInt(machines);
        int b = (a + 1 + rnd.nextInt(machines - 1)) % machines;
        tasks.add(List.of("n" + a, "n" + b));
      }
      totalTasks += SIZE[u];
      all.add(new SlottedSimulator.Arrival(j, USERS[u], tasks));
    }
    // Arrivals spread over the first half of the work (the cluster drains ~16 tasks per slot).
    int span = (int) Math.max(1, totalTasks / 16 / 2);
    for (int i = 0; i <= span; i++) {
      bySlot.add(new ArrayList<>());
    }
    for (SlottedSimulator.Arrival a : all) {
      bySlot.get(rnd.nextInt(span)).add(a);
    }
    SlottedSimulator sim = new SlottedSimulator(engine, machines, new long[] {800, 200, 200}, seed + 3);
    int slots = (int) (totalTasks * 2 + 100);
    return sim.run(slots, 0, s -> s < bySlot.size() ? bySlot.get(s) : List.of(), Integer.MAX_VALUE, null);
  }
}
