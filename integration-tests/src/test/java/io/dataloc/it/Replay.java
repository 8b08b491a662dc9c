package io.dataloc.it;

import io.dataloc.it.replay.Charts;
import io.dataloc.it.replay.ClusterModel;
import io.dataloc.it.replay.ReplayResult;
import io.dataloc.it.replay.ReplayOptions;
import io.dataloc.it.replay.ReplayReport;
import io.dataloc.it.replay.SwimTrace;
import io.dataloc.it.replay.SyntheticTrace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code bin/dataloc-replay}: a SWIM-format trace through each scheduler in turn, under a virtual
 * clock ({@link ReplayRun}), on the cluster model ({@link ClusterModel}); writes
 * {@code summary.json}, {@code summary.md}, per-job CSVs and two charts to the output directory.
 * Progress goes to stderr. Options: {@link ReplayOptions}.
 */
public final class Replay {
  private Replay() {}

  /**
   * Runs {@link #replay}; on a failure it says so and exits with status 1 (a ResourceManager that
   * failed to start leaves threads that would keep the JVM alive).
   */
  public static void main(String[] args) {
    try {
      replay(args);
    } catch (Throwable t) {
      t.printStackTrace();
      System.err.println("dataloc-replay: failed: " + t);
      System.exit(1);
    }
  }

  private static void replay(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("--calibrate")) {
      Calibration.main(java.util.Arrays.copyOfRange(args, 1, args.length));
      return;
    }
    ReplayOptions o;
    try {
      o = ReplayOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("dataloc-replay: " + e.getMessage());
      System.err.println("Try 'bin/dataloc-replay --help'.");
      System.exit(2);
      return;
    }
    String name = o.trace().toString();
    List<SwimTrace.Job> trace = name.equals("uniform") || name.equals("zipf")
        ? SyntheticTrace.generate(name, o.fromHour(), o.toHour(), o.seed())
        : SwimTrace.read(o.trace(), o.fromHour(), o.toHour());
    Files.createDirectories(o.out());
    MiniMr.quiet = true;
    List<ReplayResult> results = new ArrayList<>();
    for (String scheduler : o.schedulers()) {
      ClusterModel model = new ClusterModel(o.nodes(), o.racks(), o.seed(), o.constants());
      System.err.printf(Locale.ROOT, "%s: %,d jobs of hours %d-%d on %,d nodes in %d racks, seed %d ...%n", scheduler,
          trace.size(), o.fromHour(), o.toHour(), o.nodes(), o.racks(), o.seed());
      io.dataloc.it.replay.Follow follow = new io.dataloc.it.replay.Follow(o.follow());
      java.util.Map<String, String> rm = ReplayRun.capacitySettings(scheduler, o.capacity(), java.util.Map.of());
      ReplayResult r = ReplayRun.run(scheduler, trace, model, o.amPercent(),
          3600.0 * (o.toHour() - o.fromHour() + 1) + o.drainSeconds(), o.quantum(), o.dataloc(), rm,
          o.out().resolve("work"), System.err::println, follow);
      System.err.printf(Locale.ROOT, "%s: done: %,.0f s simulated in %.0f s wall (%.1f simulated s per wall s),"
          + " %d jobs unfinished%n", scheduler, r.simulatedSeconds(), r.wallSeconds(),
          r.simulatedSeconds() / Math.max(1e-9, r.wallSeconds()), r.unfinished());
      results.add(r);
      Files.write(o.out().resolve("jobs-" + scheduler + ".csv"), r.csv());
      if (!o.follow().isEmpty()) {
        Files.write(o.out().resolve("follow-" + scheduler + ".txt"), follow.lines());
      }
      MiniMr.deleteQuietly(o.out().resolve("work"));
    }
    String label = o.trace().getFileName().toString();
    label = label.contains("_") ? label.substring(0, label.indexOf('_')) : label;
    String what = String.format(Locale.ROOT, "%s, hours %d-%d, %,d nodes, seed %d (one run)", label, o.fromHour(),
        o.toHour(), o.nodes(), o.seed());
    Files.writeString(o.out().resolve("summary.json"), ReplayReport.json(results, o, trace.size()));
    String md = ReplayReport.markdown(results, o, what);
    Files.writeString(o.out().resolve("summary.md"), md);
    Files.writeString(o.out().resolve("job-time-cdf.svg"), Charts.cdf(results, "Job time CDF: " + what));
    Files.writeString(o.out().resolve("job-time-by-size.svg"), Charts.bins(results, "Mean job time: " + what));
    System.out.println(md);
  }
}
