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
 * dave: 10-task jobs), all arriving within the first half of the work so queues build; average
 * task waiting time (start − job arrival) per job and per user. <b>Task level</b>: the data-locality
 * rate {@code l / r} of the Hungarian method against round robin (the stock greedy rule) for 5
 * and 10 tasks on 10–60 nodes with 3 replicas.
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
  public String run(RunOptions o) throws IOException {
    int[] jobCounts = o.quick() ? new int[] {30, 60} : new int[] {30, 50, 100, 150, 200};
    Csv csv = new Csv("part", "method", "jobsOrTasks", "nodes", "user", "value");
    Table waits = new Table("jobs", "ordering", "mean wait", "alice", "bob", "carol", "dave");
    Map<String, List<Double>> waitSeries = new LinkedHashMap<>();
    int done = 0;
    for (int jobs : jobCounts) {
      for (String ordering : ORDERINGS) {
        SlottedSimulator.Stats st = orderingRun(jobs, ordering, o.seed());
        double all = st.taskWaitSum / Math.max(1, st.tasksDone);
        List<Object> row = new ArrayList<>(List.of(jobs, ordering, all));
        csv.add("ordering", ordering, jobs, 20, "all", all);
        for (String u : USERS) {
          double[] w = st.waitByUser.getOrDefault(u, new double[] {0, 1});
          double mean = w[0] / Math.max(1, w[1]);
          csv.add("ordering", ordering, jobs, 20, u, mean);
          row.add(mean);
        }
        waits.row(row.toArray());
        waitSeries.computeIfAbsent(ordering, k -> new ArrayList<>()).add(all);
        o.progress().step("song job ordering " + ordering + " x " + jobs + " jobs", ++done,
            (long) jobCounts.length * ORDERINGS.size());
      }
    }
    int seeds = o.seedsOr(200, 20);
    Table loc = new Table("tasks", "nodes", "hungarian l/r", "round-robin l/r");
    Map<String, List<Double>> locSeries = new LinkedHashMap<>();
    List<Integer> nodes = List.of(10, 20, 30, 40, 50, 60);
    for (int tasks : new int[] {5, 10}) {
      for (int n : nodes) {
        double h = 0;
        double g = 0;
        for (int k = 0; k < seeds; k++) {
          long seed = OfflineRuns.seed(o.seed(), tasks, n, k);
          Problem p = RandomProblems.generate(new Spec(n, tasks, 3, 3, 0, 0, 0, CostModel.uniform(1, 3)), seed);
          long lb = OfflineRuns.lowerBound(p);
          h += OfflineRuns.run("hungarian", p, lb, seed).eval().locality();
          g += OfflineRuns.run("round-robin", p, lb, seed).eval().locality();
        }
        csv.add("locality", "hungarian", tasks, n, "", h / seeds);
        csv.add("locality", "round-robin", tasks, n, "", g / seeds);
        loc.row(tasks, n, h / seeds, g / seeds);
        locSeries.computeIfAbsent("hungarian, " + tasks + " tasks", k -> new ArrayList<>()).add(h / seeds);
        locSeries.computeIfAbsent("round-robin, " + tasks + " tasks", k -> new ArrayList<>()).add(g / seeds);
      }
    }
    csv.write(o.out().resolve("song.csv"));
    List<Charts.Series> ws = new ArrayList<>();
    waitSeries.forEach((k, v) -> ws.add(new Charts.Series(k, java.util.Arrays.stream(jobCounts).boxed().toList(), v)));
    Charts.xy(o.out().resolve("song-waiting.png"), "Mean task waiting time by job ordering (20 machines, 4 users)",
        "jobs", "slots", ws, false, false);
    List<Charts.Series> ls = new ArrayList<>();
    locSeries.forEach((k, v) -> ls.add(new Charts.Series(k, nodes, v)));
    Charts.xy(o.out().resolve("song-locality.png"), "Data-locality rate l/r, 3 replicas", "nodes", "l / r", ls, false,
        false);
    return "song: waiting time (slots) by job ordering\n" + waits + "task level: locality rate\n" + loc;
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
