package io.dataloc.it;

import io.dataloc.it.replay.ClusterModel;
import io.dataloc.it.replay.ReplayOptions;
import io.dataloc.it.replay.ReplayResult;
import io.dataloc.it.replay.SwimTrace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code bin/dataloc-replay --calibrate}: does the replay's model predict the real cluster? It
 * replays the namespaced cluster's workload ({@code bin/dataloc-workload}: the same jobs and
 * input placement for a seed, and the arrivals each real run had, {@link Workload#specs}, {@link Workload#replicaHosts}) on a
 * model of that cluster (four hosts on two racks, 20 Mbit/s host links, unshaped rack uplinks,
 * 64 MB blocks, 4-GB NodeManagers with 1-GB maps and AMs, the same AM limit) through each scheduler the real
 * runs used, and sets the model's means beside the measured ones.
 *
 * <p>Two constants belong to the machine, not the network, and are taken from the real runs:
 * <ul>
 *   <li>a task's start: the measured mean of a data-local map's time, less the model's read and
 *       processing of one block (the rest is JVM start and commit on a busy two-core machine);
 *   <li>an AM's start: fitted, the value of a small grid that predicts the {@code spread} runs'
 *       means best (least squares over schedulers and seeds).
 * </ul>
 * The {@code hot} runs are not used to fit anything: they are the test.
 */
public final class Calibration {
  private static final Pattern LOCAL = Pattern.compile(
      "label=(\\S+)/(\\S+)/(\\d+) .*map-seconds-on-data=([\\d.]+)\\(n=(\\d+)\\)");
  private static final Pattern DATA_LOCAL = Pattern.compile(
      "label=(\\S+) .*maps=(\\d+) .*data-local=(\\d+) ");
  private static final double NIC = 20e6 / 8;
  private static final long BLOCK = 64L << 20;
  private static final int JOBS = 12;
  private static final double GAP = 6;
  private static final int FILES = 24;
  private static final double AM_PERCENT = 0.3;
  /**
   * The namespaced cluster's CapacityScheduler, tuned, sets only its node-locality delay (to the
   * number of hosts, as the replay does), not the rack delay the replay adds: its default stands.
   */
  private static final Map<String, String> REAL_CLUSTER = Map.of(
      "yarn.scheduler.capacity.rack-locality-additional-delay", "-1");

  private Calibration() {}

  /**
   * One real run: the mean job time of its jobs, how many, and when each was submitted (seconds
   * from the first; the runner submits one job at a time, so on a busy machine later jobs go in
   * later than their planned arrival, and the model replays the arrivals that happened).
   */
  record Run(String scheduler, String placement, long seed, double mean, int jobs, List<Double> arrivals) {}

  /**
   * The command line: where the real runs are and the report goes, the start-time grids to fit
   * (null: the defaults for {@code cores}), and what Dataloc ran. The committed real runs of Dataloc
   * ran the defaults of their time: the online policy jsq-maxweight-steal and AMs placed first fit
   * ({@code am.placement-wait-ms=0}); {@code --dataloc-policy} and {@code --dataloc} set them again.
   * {@code --capacity} sets the CapacityScheduler's settings (keys without {@code
   * yarn.scheduler.capacity.}) in the model's runs of the CapacitySchedulers, for a what-if: the
   * real runs ran without them.
   */
  record Options(Path real, Path out, List<Double> amGrid, List<Double> taskGrid, double cores, String policy,
      Map<String, String> settings, Map<String, String> capacity) {

    static Options parse(String... args) {
      Path real = Path.of("integration-tests/results/jobs.csv");
      Path out = Path.of("integration-tests/target/calibration");
      List<Double> amGrid = null;
      List<Double> taskGrid = null;
      double cores = 2;
      String policy = "jsq-maxweight-steal";
      Map<String, String> settings = new TreeMap<>(Map.of("am.placement-wait-ms", "0"));
      Map<String, String> capacity = new TreeMap<>();
      if (args.length % 2 != 0) {
        throw new IllegalArgumentException("--calibrate: option '" + args[args.length - 1] + "' needs a value");
      }
      for (int i = 0; i < args.length; i += 2) {
        switch (args[i]) {
          case "--real" -> real = Path.of(args[i + 1]);
          case "--out" -> out = Path.of(args[i + 1]);
          case "--am-start-s" -> amGrid = parseList("--am-start-s", args[i + 1]);
          case "--task-start-s" -> taskGrid = parseList("--task-start-s", args[i + 1]);
          case "--cores" -> cores = parseList("--cores", args[i + 1]).get(0);
          case "--dataloc-policy" -> policy = args[i + 1];
          case "--dataloc" -> settings.putAll(ReplayOptions.datalocSettings(args[i + 1]));
          case "--capacity" -> capacity.putAll(ReplayOptions.capacitySettings(args[i + 1]));
          default -> throw new IllegalArgumentException("--calibrate: unknown option '" + args[i] + "'");
        }
      }
      // Sorted, so that the report names them in one order.
      return new Options(real, out, amGrid, taskGrid, cores, policy, Collections.unmodifiableMap(settings),
          Collections.unmodifiableMap(capacity));
    }
  }

  public static void main(String[] args) throws Exception {
    Options o = Options.parse(args);
    Path out = o.out();
    double cores = o.cores();
    List<Double> amGrid = o.amGrid();
    List<Double> taskGrid = o.taskGrid();
    Path summary = o.real().resolveSibling("summary.txt");
    List<Run> runs = readRuns(o.real());
    double localMap = localMapSeconds(summary);
    ClusterModel.Constants base = ClusterModel.Constants.defaults();
    if (taskGrid == null) {
      // Without shared cores a task's start is what a local map took there beyond its read and
      // processing; with them, a JVM start's CPU, fitted.
      taskGrid = cores > 0 ? List.of(3.0, 4.0, 5.0, 6.0, 7.0)
          : List.of(localMap - BLOCK / base.diskRate() - BLOCK / base.mapCpuRate());
    }
    if (amGrid == null) {
      amGrid = cores > 0 ? List.of(6.0, 8.0, 10.0, 12.0, 14.0) : List.of(10.0, 20.0, 30.0, 40.0, 50.0, 60.0);
    }
    Files.createDirectories(out);
    System.err.printf(Locale.ROOT, "calibration: %d real runs; a data-local map took %.1f s on average there%s%n",
        runs.size(), localMap, cores > 0 ? String.format(Locale.ROOT, "; %.0f cores shared by the hosts", cores) : "");

    double bestAm = amGrid.get(0);
    double taskStart = taskGrid.get(0);
    double bestErr = Double.MAX_VALUE;
    StringBuilder fit = new StringBuilder();
    boolean anySpread = runs.stream().anyMatch(r -> r.placement().equals("spread"));
    if (!anySpread && amGrid.size() * taskGrid.size() > 1) {
      throw new IllegalArgumentException("--calibrate: no spread runs in " + o.real()
          + " to fit the start times on: give one of each with --am-start-s S --task-start-s T");
    }
    for (double am : anySpread ? amGrid : List.<Double>of()) {
      for (double ts : taskGrid) {
        double err = 0;
        int n = 0;
        for (Run r : runs) {
          if (r.placement().equals("spread")) {
            double m = model(r, constants(ts, am, cores), o).mean();
            err += (m - r.mean()) * (m - r.mean());
            n++;
          }
        }
        double rms = Math.sqrt(err / Math.max(1, n));
        fit.append(String.format(Locale.ROOT, "| %.0f s | %.0f s | %.1f s |%n", am, ts, rms));
        System.err.printf(Locale.ROOT, "calibration: AM start %.0f s, task start %.0f s: RMS error %.1f s over %d"
            + " spread runs%n", am, ts, rms, n);
        if (rms < bestErr) {
          bestErr = rms;
          bestAm = am;
          taskStart = ts;
        }
      }
    }
    ClusterModel.Constants k = constants(taskStart, bestAm, cores);
    Map<String, Double> realLocal = dataLocal(summary);
    List<String> csv = new ArrayList<>(List.of(
        "scheduler,placement,seed,real_mean_s,model_mean_s,real_data_local,model_node_local,model_am_wait_s"));
    List<String> jobsCsv = new ArrayList<>(List.of(
        "label,job,maps,arrival_s,jct_s,data_local,rack_local,maps_per_host,am_host,am_wait_s"));
    Map<String, Map<String, double[]>> byPlacement = new TreeMap<>();
    for (Run r : runs) {
      Modelled mod = model(r, k, o);
      double m = mod.mean();
      for (ReplayResult.JobTime j : mod.jobs()) {
        jobsCsv.add(jobRow(r.scheduler() + "/" + r.placement() + "/" + r.seed(), j));
      }
      csv.add(String.format(Locale.ROOT, "%s,%s,%d,%.1f,%.1f,%.2f,%.2f,%.1f", r.scheduler(), r.placement(), r.seed(),
          r.mean(), m, realLocal.getOrDefault(r.scheduler() + "/" + r.placement() + "/" + r.seed(), Double.NaN),
          mod.nodeLocal(), mod.amWait()));
      double[] acc = byPlacement.computeIfAbsent(r.placement(), p -> new LinkedHashMap<>())
          .computeIfAbsent(r.scheduler(), s -> new double[3]);
      acc[0] += r.mean();
      acc[1] += m;
      acc[2]++;
    }
    Files.write(out.resolve("calibration.csv"), csv);
    Files.write(out.resolve("model-jobs.csv"), jobsCsv);
    String md = report(byPlacement, localMap, taskStart, bestAm, cores, fit.toString(), runs.size(),
        o.policy() + ", with " + o.settings() + (o.capacity().isEmpty() ? ""
            : "\n- the CapacitySchedulers in the model with " + o.capacity() + " (a what-if: the real runs ran without)"));
    Files.writeString(out.resolve("calibration.md"), md);
    System.out.println(md);
  }

  private static List<Double> parseList(String option, String v) {
    List<Double> out = new ArrayList<>();
    for (String x : v.split(",")) {
      double d;
      try {
        d = Double.parseDouble(x.trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(option + ": '" + x + "' is not a number");
      }
      if (!(d >= 0 && d <= 300)) {
        throw new IllegalArgumentException(option + ": " + d + " is outside 0..300");
      }
      out.add(d);
    }
    return out;
  }

  /**
   * The namespaced cluster's model: its network, block size and NodeManager size (four 1-GB maps
   * a host, as the workload asks; its 768-MB AM is rounded up to one of them), and the machine's
   * two start times and its cores (0: none shared, each start takes its time).
   */
  static ClusterModel.Constants constants(double taskStart, double amStart, double cores) {
    return ClusterModel.Constants.defaults().toBuilder().blockBytes(BLOCK).nicRate(NIC).oversubscription(1)
        .amStartSeconds(amStart).taskStartSeconds(taskStart).nodeMb(4096).traceNodes(4).sharedCores(cores).build();
  }

  /** The workload of {@code bin/dataloc-workload} for a seed, as a trace, its input pinned where that seed puts it. */
  static List<SwimTrace.Job> workload(ClusterModel model, String placement, long seed) {
    return workload(model, placement, seed, List.of());
  }

  /** As above, job {@code j} arriving at {@code arrivals.get(j)} where given (else as planned). */
  static List<SwimTrace.Job> workload(ClusterModel model, String placement, long seed, List<Double> arrivals) {
    List<String> names = model.hosts();
    List<List<String>> files = Workload.replicaHosts(FILES, placement, seed, names, model.topology());
    List<SwimTrace.Job> trace = new ArrayList<>();
    for (Workload.Spec s : Workload.specs(JOBS, seed, GAP, FILES)) {
      String path = "workload-job-" + s.index();
      List<List<String>> blocks = new ArrayList<>();
      for (int m = 0; m < s.maps(); m++) {
        blocks.add(files.get((s.first() + m) % FILES));
      }
      model.pin(path, blocks);
      double at = s.index() < arrivals.size() ? arrivals.get(s.index()) : s.arrival();
      trace.add(new SwimTrace.Job("job" + s.index(), Math.round(at), s.maps() * BLOCK, 0, 0, path));
    }
    return trace;
  }

  /** What the model gave for one run: mean job time, node-local fraction of maps, mean AM wait. */
  record Modelled(double mean, double nodeLocal, double amWait, List<ReplayResult.JobTime> jobs) {}

  /** The model's run of a real run's scheduler, placement and seed, with the command line's settings. */
  private static Modelled model(Run r, ClusterModel.Constants k, Options o) throws Exception {
    Path out = o.out();
    ClusterModel model = new ClusterModel(4, 2, r.seed(), k);
    List<SwimTrace.Job> trace = workload(model, r.placement(), r.seed(), r.arrivals());
    Map<String, String> dataloc = new TreeMap<>(o.settings());
    dataloc.put("online-policy", o.policy());
    MiniMr.quiet = true;
    Map<String, String> rm = ReplayRun.capacitySettings(r.scheduler(), o.capacity(), REAL_CLUSTER);
    ReplayResult res = ReplayRun.run(r.scheduler(), trace, model, AM_PERCENT, 3600, 0.1, dataloc, rm,
        out.resolve("work"), s -> { });
    MiniMr.deleteQuietly(out.resolve("work"));
    if (res.unfinished() > 0) {
      throw new IllegalStateException(r + ": " + res.unfinished() + " jobs unfinished in the model after an hour");
    }
    return new Modelled(res.jobs().stream().mapToDouble(ReplayResult.JobTime::time).average().orElse(0),
        res.locality()[0], res.meanAmWait(), res.jobs());
  }

  /**
   * One modelled job as a row of the real runs' {@code jobs.csv} (the same columns where they mean
   * the same; model host {@code hN} is the real {@code nodeN}), so that a run can be compared job by job.
   */
  static String jobRow(String label, ReplayResult.JobTime j) {
    StringBuilder hosts = new StringBuilder("{");
    new TreeMap<>(j.mapsByHost()).forEach((h, n) -> hosts.append(hosts.length() > 1 ? " " : "").append(realName(h))
        .append('=').append(n));
    return String.format(Locale.ROOT, "%s,%s,%d,%.1f,%.1f,%d,%d,%s},%s,%.1f", label, j.name().replace("job", ""),
        j.maps(), j.submit(), j.time(), j.nodeLocal(), j.rackLocal(), hosts, j.amHost() == null ? "" : realName(j.amHost()),
        j.amWait());
  }

  private static String realName(String modelHost) {
    return modelHost.replaceFirst("^h", "node");
  }

  /** The real runs in a workload {@code jobs.csv} (label {@code scheduler/placement/seed}, job time). */
  static List<Run> readRuns(Path jobsCsv) throws Exception {
    Map<String, double[]> acc = new LinkedHashMap<>();
    Map<String, List<Double>> arrivals = new LinkedHashMap<>();
    List<String> lines = Files.readAllLines(jobsCsv);
    List<String> head = List.of(lines.get(0).split(","));
    int label = head.indexOf("label");
    int jct = head.indexOf("jct_s");
    int job = head.indexOf("job");
    int arrival = head.indexOf("arrival_s");
    if (label < 0 || jct < 0 || job < 0 || arrival < 0) {
      throw new IllegalArgumentException(jobsCsv + ": a label, job, arrival_s or jct_s column is missing");
    }
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split(",");
      acc.computeIfAbsent(f[label], x -> new double[2]);
      acc.get(f[label])[0] += Double.parseDouble(f[jct]);
      acc.get(f[label])[1]++;
      List<Double> at = arrivals.computeIfAbsent(f[label], x -> new ArrayList<>());
      int j = Integer.parseInt(f[job]);
      if (j != at.size()) {
        throw new IllegalArgumentException(jobsCsv + ": " + f[label] + " lists job " + j + " where job " + at.size()
            + " was due (the jobs of a run in order, from 0)");
      }
      at.add(Double.parseDouble(f[arrival]));
    }
    List<Run> out = new ArrayList<>();
    acc.forEach((l, a) -> {
      String[] p = l.split("/");
      out.add(new Run(p[0], p[1], Long.parseLong(p[2]), a[0] / a[1], (int) a[1], List.copyOf(arrivals.get(l))));
    });
    return out;
  }

  /** Each real run's fraction of maps that ran data-local, by label. */
  static Map<String, Double> dataLocal(Path summary) throws Exception {
    Map<String, Double> out = new TreeMap<>();
    for (String line : Files.readAllLines(summary)) {
      Matcher m = DATA_LOCAL.matcher(line);
      if (line.startsWith("WORKLOAD ") && m.find()) {
        out.put(m.group(1), Double.parseDouble(m.group(3)) / Double.parseDouble(m.group(2)));
      }
    }
    return out;
  }

  /** The measured mean time of a data-local map over every run in {@code summary.txt}. */
  static double localMapSeconds(Path summary) throws Exception {
    double sum = 0;
    long n = 0;
    for (String line : Files.readAllLines(summary)) {
      Matcher m = LOCAL.matcher(line);
      if (m.find()) {
        sum += Double.parseDouble(m.group(4)) * Integer.parseInt(m.group(5));
        n += Integer.parseInt(m.group(5));
      }
    }
    if (n == 0) {
      throw new IllegalArgumentException(summary + ": no map-seconds-on-data in any WORKLOAD line");
    }
    return sum / n;
  }

  private static String report(Map<String, Map<String, double[]>> byPlacement, double localMap, double taskStart,
      double am, double cores, String fit, int runs, String policy) {
    StringBuilder b = new StringBuilder();
    b.append(String.format(Locale.ROOT, "Calibration of the replay's model against %d runs of the namespaced cluster.%n%n",
        runs));
    String unit = cores > 0 ? " CPU-seconds" : " s";
    if (cores > 0) {
      b.append(String.format(Locale.ROOT, "- the hosts share %.0f cores: each JVM start is CPU work, at most one core"
          + " each, the cores shared among the starts under way%n", cores));
    }
    b.append(String.format(Locale.ROOT, "- a data-local map took %.1f s on average in the real runs%n", localMap));
    b.append(String.format(Locale.ROOT, "- Dataloc in the model: online policy %s%n", policy));
    if (fit.isEmpty()) {
      b.append(String.format(Locale.ROOT, "- AM start %.0f%s and task start %.0f%s, given (no spread runs here to fit"
          + " them on)%n%n", am, unit, taskStart, unit));
    } else {
      b.append(String.format(Locale.ROOT, "- AM start %.0f%s and task start %.0f%s, fitted on the spread runs:%n%n",
          am, unit, taskStart, unit));
      b.append("| AM start | task start | RMS error of a run's mean, spread |\n|---:|---:|---:|\n").append(fit)
          .append('\n');
    }
    for (Map.Entry<String, Map<String, double[]>> p : byPlacement.entrySet()) {
      b.append(String.format(Locale.ROOT, "**%s**%s (mean job time over the runs of each scheduler):%n%n", p.getKey(),
          p.getKey().equals("spread") ? " (fitted)" : " (held out)"));
      b.append("| scheduler | real | model | model / real | rank real | rank model |\n|---|---:|---:|---:|---:|---:|\n");
      List<String> names = new ArrayList<>(p.getValue().keySet());
      List<String> byReal = new ArrayList<>(names);
      byReal.sort((x, y) -> Double.compare(p.getValue().get(x)[0], p.getValue().get(y)[0]));
      List<String> byModel = new ArrayList<>(names);
      byModel.sort((x, y) -> Double.compare(p.getValue().get(x)[1], p.getValue().get(y)[1]));
      for (String s : byReal) {
        double[] a = p.getValue().get(s);
        b.append(String.format(Locale.ROOT, "| %s | %.1f s | %.1f s | %.2f | %d | %d |%n", s, a[0] / a[2], a[1] / a[2],
            a[1] / a[0], byReal.indexOf(s) + 1, byModel.indexOf(s) + 1));
      }
      b.append('\n');
    }
    return b.toString();
  }
}
