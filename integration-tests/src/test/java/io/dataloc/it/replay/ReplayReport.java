package io.dataloc.it.replay;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The replay's summary: per scheduler its figures, then each Dataloc scheduler's ratios against the
 * best stock scheduler of the same run (the one with the lowest mean job time among the
 * CapacityScheduler as shipped and tuned and the FairScheduler).
 */
public final class ReplayReport {
  private static final Set<String> STOCK = Set.of("capacity", "capacity-tuned", "fair");

  private ReplayReport() {}

  /** The best stock scheduler by mean job time, or null if none ran. */
  static ReplayResult bestStock(List<ReplayResult> results) {
    ReplayResult best = null;
    for (ReplayResult r : results) {
      if (STOCK.contains(r.scheduler())
          && (best == null || ReplayResult.mean(r.times(-1)) < ReplayResult.mean(best.times(-1)))) {
        best = r;
      }
    }
    return best;
  }

  public static String json(List<ReplayResult> results, ReplayOptions o, int jobs) {
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "{%n  \"trace\": \"%s\",%n  \"hours\": \"%d-%d\",%n  \"jobs\": %d,%n"
        + "  \"nodes\": %d,%n  \"racks\": %d,%n  \"seed\": %d,%n  \"am_percent\": %s,%n  \"constants\": \"%s\",%n"
        + "  \"dataloc_settings\": \"%s\",%n  \"capacity_settings\": \"%s\",%n  \"schedulers\": {%n",
        o.trace().getFileName(), o.fromHour(), o.toHour(), jobs, o.nodes(), o.racks(), o.seed(), o.amPercent(),
        o.constants(), o.dataloc(), o.capacity()));
    for (int i = 0; i < results.size(); i++) {
      sb.append("    \"").append(results.get(i).scheduler()).append("\": ").append(results.get(i).json())
          .append(i + 1 < results.size() ? "," : "").append('\n');
    }
    sb.append("  },\n  \"ratios_to_best_stock\": {");
    ReplayResult best = bestStock(results);
    boolean first = true;
    for (ReplayResult r : results) {
      if (best == null || STOCK.contains(r.scheduler())) {
        continue;
      }
      double[] ratio = ratios(r, best);
      sb.append(first ? "\n" : ",\n").append(String.format(Locale.ROOT,
          "    \"%s\": {\"against\": \"%s\", \"mean\": %s, \"small_jobs_mean\": %s, \"p95\": %s, \"uplink_bytes\": %s,"
              + " \"excess_removed\": %s}", r.scheduler(), best.scheduler(), ReplayResult.num(ratio[0]),
          ReplayResult.num(ratio[1]), ReplayResult.num(ratio[2]), ReplayResult.num(ratio[3]),
          ReplayResult.num(ratio[4])));
      first = false;
    }
    return sb.append("\n  }\n}\n").toString();
  }

  /** Mean, small-job mean, p95 and uplink-byte ratios, and the share of the stock's excess over the floor removed. */
  static double[] ratios(ReplayResult r, ReplayResult best) {
    double[] a = r.times(-1);
    double[] b = best.times(-1);
    return new double[] {ReplayResult.mean(a) / ReplayResult.mean(b),
        ReplayResult.mean(r.times(0)) / ReplayResult.mean(best.times(0)),
        ReplayResult.quantile(a, 0.95) / ReplayResult.quantile(b, 0.95),
        best.uplinkBytes() == 0 ? Double.NaN : r.uplinkBytes() / best.uplinkBytes(),
        (best.meanExcess() - r.meanExcess()) / best.meanExcess()};
  }

  public static String markdown(List<ReplayResult> results, ReplayOptions o, String what) {
    StringBuilder sb = new StringBuilder("Replay: " + what + ". Job times in seconds from submission.\n\n");
    sb.append("| scheduler | jobs done | mean | p50 | p95 | mean, 1-10 maps | 11-50 | 51-500 | >500"
        + " | node-local | rack-local | GB over NICs | GB over rack uplinks | mean AM wait | mean excess over floor"
        + " | makespan | scheduler CPU s | simulated s per wall s |\n");
    sb.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (ReplayResult r : results) {
      double[] all = r.times(-1);
      double[] loc = r.locality();
      sb.append(String.format(Locale.ROOT, "| %s | %d of %d | %.1f | %.0f | %.0f | %s | %s | %s | %s | %.1f%% | %.1f%%"
          + " | %.1f | %.1f | %.1f | %.1f | %.0f | %.1f | %.1f |%n", r.scheduler(), all.length, r.jobs().size(),
          ReplayResult.mean(all), ReplayResult.quantile(all, 0.5), ReplayResult.quantile(all, 0.95), bin(r, 0),
          bin(r, 1), bin(r, 2), bin(r, 3), 100 * loc[0], 100 * loc[1], r.nicBytes() / 1e9, r.uplinkBytes() / 1e9,
          r.meanAmWait(), r.meanExcess(), r.makespan(), r.schedulerCpuSeconds(),
          r.simulatedSeconds() / Math.max(1e-9, r.wallSeconds())));
    }
    sb.append(phases(results));
    ReplayResult best = bestStock(results);
    if (best != null) {
      sb.append("\nAgainst the best stock scheduler of this run (").append(best.scheduler())
          .append(", by mean job time):\n\n| scheduler | mean | mean, 1-10 maps | p95 | bytes over rack uplinks"
              + " | share of the stock excess over the floor removed |\n|---|---:|---:|---:|---:|---:|\n");
      for (ReplayResult r : results) {
        if (STOCK.contains(r.scheduler())) {
          continue;
        }
        double[] x = ratios(r, best);
        sb.append(String.format(Locale.ROOT, "| %s | %.2f | %.2f | %.2f | %.2f | %.0f%% |%n", r.scheduler(), x[0], x[1],
            x[2], x[3], 100 * x[4]));
      }
    }
    ClusterModel.Constants k = o.constants();
    sb.append(String.format(Locale.ROOT, "%nCommand: bin/dataloc-replay --trace %s --hours %d-%d --nodes %d --racks %d"
        + " --schedulers %s --seed %d --am-percent %s --nic-mbit %.0f --oversubscription %d --trace-nodes %d"
        + " --cpu-spread %s --shuffle-copies %d%n",
        o.trace().getFileName(), o.fromHour(), o.toHour(), o.nodes(), o.racks(), String.join(",", o.schedulers()),
        o.seed(), o.amPercent(), k.nicRate() * 8 / 1e6, k.oversubscription(), k.traceNodes(), k.cpuSpread(),
        k.shuffleCopies()));
    option(sb, "dataloc", o.dataloc());
    option(sb, "capacity", o.capacity());
    return sb.toString();
  }

  /** The table of where each scheduler's job time went, for all jobs and per size bin. */
  static String phases(List<ReplayResult> results) {
    StringBuilder sb = new StringBuilder("\nWhere the job time went, mean seconds per finished job: waiting for the AM's"
        + " container; from it to the first map's start; from then to the last map's end; and after the maps (the"
        + " shuffle and reduces past them):\n\n| scheduler | maps per job |");
    ReplayResult.PHASES.forEach(p -> sb.append(' ').append(p).append(" |"));
    sb.append("\n|---|---|").append("---:|".repeat(ReplayResult.PHASES.size())).append('\n');
    for (ReplayResult r : results) {
      for (int b = -1; b < ReplayResult.BINS.size(); b++) {
        double[] p = r.phases(b);
        if (Double.isNaN(p[0])) {
          continue;
        }
        sb.append("| ").append(r.scheduler()).append(" | ").append(b < 0 ? "all" : ReplayResult.BINS.get(b)).append(" |");
        for (double x : p) {
          sb.append(String.format(Locale.ROOT, " %.1f |", x));
        }
        sb.append('\n');
      }
    }
    return sb.toString();
  }

  /** Appends {@code --name KEY=V,...} to the command line ending {@code sb} (nothing if there are no settings). */
  private static void option(StringBuilder sb, String name, java.util.Map<String, String> settings) {
    if (settings.isEmpty()) {
      return;
    }
    sb.setLength(sb.length() - 1);
    StringBuilder kv = new StringBuilder();
    settings.forEach((key, v) -> kv.append(kv.length() == 0 ? "" : ",").append(key).append('=').append(v));
    sb.append(" --").append(name).append(' ').append(kv).append('\n');
  }

  private static String bin(ReplayResult r, int b) {
    double[] t = r.times(b);
    return t.length == 0 ? "-" : String.format(Locale.ROOT, "%.1f (%d)", ReplayResult.mean(t), t.length);
  }
}
