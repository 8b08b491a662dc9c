package io.dataloc.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Summarizes the runs of {@code bin/dataloc-workload}: reads the {@code WORKLOAD} and
 * {@code WORKLOAD-NET} lines of {@code DIR/summary.txt} (labels SCHEDULER/PLACEMENT/RUN), averages
 * each measure over the runs of a scheduler and placement, and writes {@code DIR/workload.md} (a
 * table per placement, with Dataloc's ratios to the best stock scheduler of the same runs) and one
 * pair of charts per placement ({@code DIR/workload-PLACEMENT.png}: mean, p50 and p95 job time per
 * scheduler; {@code DIR/workload-PLACEMENT-locality.png}: data-local maps per scheduler), titled
 * "one run" or with the number of runs they average, legends outside the plot; and, from the per-job
 * rows of {@code DIR/jobs.csv} when present, the CDF of job completion times per scheduler
 * ({@code DIR/workload-PLACEMENT-cdf.png}); and, from rows that say when each job's first map started,
 * where the job time went ({@link #phases}).
 */
public final class WorkloadReport {
  /**
   * Dataloc as shipped ({@code dataloc}), a variant of it ({@code dataloc-...}: some settings
   * changed), or the CapacityScheduler with Dataloc's placement component ({@code capacity-dataloc},
   * and its variants {@code capacity-dataloc-...}): each is compared with the best stock scheduler,
   * never counted as one.
   */
  static boolean isDataloc(String scheduler) {
    return scheduler.equals("dataloc") || scheduler.startsWith("dataloc-") || scheduler.equals("capacity-dataloc")
        || scheduler.startsWith("capacity-dataloc-");
  }

  private static final Pattern LINE = Pattern.compile("^WORKLOAD label=(\\S+)/(\\S+)/(\\S+) jobs=(\\d+) maps=(\\d+) "
      + "mean=([0-9.]+) p50=([0-9.]+) p95=([0-9.]+) makespan=([0-9.]+) map-phase-mean=([0-9.]+) data-local=(\\d+) "
      + "rack-local=(\\d+) map-seconds-on-data=([0-9.]+)\\(n=(\\d+)\\) map-seconds-remote=([0-9.]+)\\(n=(\\d+)\\)");
  private static final Pattern NET = Pattern.compile("^WORKLOAD-NET label=(\\S+)/(\\S+)/(\\S+) bytes-over-links=(\\d+)");
  private static final String[] MEASURES = {"mean", "p50", "p95", "makespan", "map phase", "data-local %",
      "map s on data", "map s remote", "MB over links", "AM wait", "containers at once"};
  /** The name of the part of a job's time that ends at each of its times ({@link Workload#JOB_TIMES}). */
  private static final Map<String, String> PARTS = Map.of("am_wait_s", "AM wait", "job_start_s", "AM start-up",
      "first_map_s", "to first map", "map_phase_s", "maps", "jct_s", "after the maps");
  /** The mean wait from submission to the AM's start (runs before it was measured have none). */
  private static final Pattern AM_WAIT = Pattern.compile(" am-wait-mean=([0-9.]+)");
  /**
   * The mean number of containers running at once over the run (AMs from their start to their job's
   * end, and every map attempt): on a machine whose hosts share its cores, how hard they contend.
   */
  private static final Pattern CONTAINERS = Pattern.compile(" containers-mean=([0-9.]+)");

  private WorkloadReport() {}

  public static void main(String[] args) throws IOException {
    System.setProperty("java.awt.headless", "true");
    Path dir = Path.of(args[0]);
    // placement -> scheduler -> measure -> values over runs
    Map<String, Map<String, Map<String, List<Double>>>> data = new LinkedHashMap<>();
    for (String line : Files.readAllLines(dir.resolve("summary.txt"), StandardCharsets.UTF_8)) {
      Matcher m = LINE.matcher(line);
      if (m.find()) {
        Map<String, List<Double>> d = cell(data, m.group(2), m.group(1));
        add(d, "mean", m.group(6));
        add(d, "p50", m.group(7));
        add(d, "p95", m.group(8));
        add(d, "makespan", m.group(9));
        add(d, "map phase", m.group(10));
        add(d, "data-local %", String.valueOf(100.0 * Long.parseLong(m.group(11)) / Long.parseLong(m.group(5))));
        if (Integer.parseInt(m.group(14)) > 0) {
          add(d, "map s on data", m.group(13));
        }
        if (Integer.parseInt(m.group(16)) > 0) {
          add(d, "map s remote", m.group(15));
        }
        Matcher w = AM_WAIT.matcher(line);
        if (w.find()) {
          add(d, "AM wait", w.group(1));
        }
        Matcher c = CONTAINERS.matcher(line);
        if (c.find()) {
          add(d, "containers at once", c.group(1));
        }
      }
      Matcher n = NET.matcher(line);
      if (n.find()) {
        add(cell(data, n.group(2), n.group(1)), "MB over links", String.valueOf(Long.parseLong(n.group(4)) / 1e6));
      }
    }
    StringBuilder md = new StringBuilder();
    for (var placement : data.entrySet()) {
      md.append("\n**").append(placement.getKey()).append("** (mean over runs; times in seconds)\n\n| scheduler | runs |");
      for (String k : MEASURES) {
        md.append(' ').append(k).append(" |");
      }
      md.append("\n|---|---|").append("---|".repeat(MEASURES.length)).append('\n');
      for (var s : placement.getValue().entrySet()) {
        md.append("| ").append(s.getKey()).append(" | ").append(s.getValue().get("mean").size()).append(" |");
        for (String k : MEASURES) {
          md.append(' ').append(fmt(mean(s.getValue().get(k)))).append(" |");
        }
        md.append('\n');
      }
      for (var d : placement.getValue().entrySet()) {
        if (!isDataloc(d.getKey())) {
          continue;
        }
        Map<String, List<Double>> dataloc = d.getValue();
        md.append('\n').append(d.getKey().equals("dataloc") ? "Dataloc" : d.getKey())
            .append(" over the best stock scheduler:");
        int before = md.length();
        for (String k : new String[] {"mean", "p95", "makespan", "map phase", "MB over links"}) {
          double best = Double.MAX_VALUE;
          String who = "";
          for (var s : placement.getValue().entrySet()) {
            double v = mean(s.getValue().get(k));
            if (!isDataloc(s.getKey()) && !Double.isNaN(v) && v < best) {
              best = v;
              who = s.getKey();
            }
          }
          if (!who.isEmpty()) {
            md.append(String.format(Locale.ROOT, " %s %.2f (%s);", k, mean(dataloc.get(k)) / best, who));
          }
        }
        if (md.length() > before) {
          md.setLength(md.length() - 1);
        } else {
          md.append(" no stock scheduler ran");
        }
        md.append(".\n");
      }
      chart(dir.resolve("workload-" + placement.getKey() + ".png"), placement.getKey(), placement.getValue());
    }
    Path jobs = dir.resolve("jobs.csv");
    if (Files.exists(jobs)) {
      List<String> rows = Files.readAllLines(jobs, StandardCharsets.UTF_8);
      cdfs(dir, rows, data);
      md.append(phases(dir, rows));
    }
    Files.writeString(dir.resolve("workload.md"), md.toString(), StandardCharsets.UTF_8);
    System.out.print(md);
  }

  private static Map<String, List<Double>> cell(Map<String, Map<String, Map<String, List<Double>>>> data,
      String placement, String scheduler) {
    return data.computeIfAbsent(placement, k -> new LinkedHashMap<>()).computeIfAbsent(scheduler,
        k -> new LinkedHashMap<>());
  }

  private static void add(Map<String, List<Double>> d, String k, String v) {
    d.computeIfAbsent(k, x -> new ArrayList<>()).add(Double.parseDouble(v));
  }

  private static double mean(List<Double> v) {
    return v == null || v.isEmpty() ? Double.NaN : v.stream().mapToDouble(Double::doubleValue).average().orElse(0);
  }

  private static String fmt(double v) {
    return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%.1f", v);
  }

  private static void chart(Path file, String placement, Map<String, Map<String, List<Double>>> bySched)
      throws IOException {
    List<String> names = new ArrayList<>(bySched.keySet());
    String runs = runs(bySched);
    CategoryChart c = new CategoryChartBuilder().width(960).height(520)
        .title("Job completion time, " + placement + " input (" + runs + ")").xAxisTitle("scheduler")
        .yAxisTitle("seconds").build();
    c.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    boolean amWaits = names.stream().allMatch(n -> bySched.get(n).get("AM wait") != null);
    for (String k : amWaits ? new String[] {"mean", "p50", "p95", "AM wait"} : new String[] {"mean", "p50", "p95"}) {
      List<Double> v = new ArrayList<>();
      for (String s : names) {
        v.add(mean(bySched.get(s).get(k)));
      }
      c.addSeries(k, names, v);
    }
    BitmapEncoder.saveBitmap(c, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    // Locality per scheduler: one bar each, so no legend at all.
    CategoryChart l = new CategoryChartBuilder().width(960).height(420)
        .title("Maps run on their data, " + placement + " input (" + runs + ")").xAxisTitle("scheduler")
        .yAxisTitle("data-local maps, %").build();
    l.getStyler().setLegendVisible(false);
    l.getStyler().setYAxisMin(0.0);
    l.getStyler().setYAxisMax(100.0);
    List<Double> local = new ArrayList<>();
    for (String s : names) {
      local.add(mean(bySched.get(s).get("data-local %")));
    }
    l.addSeries("data-local %", names, local);
    String name = file.getFileName().toString().replace(".png", "-locality.png");
    BitmapEncoder.saveBitmap(l, file.resolveSibling(name).toString(), BitmapEncoder.BitmapFormat.PNG);
  }

  /** A row of {@code jobs.csv}: its scheduler and placement (from its label) and some of its columns' values. */
  private record JobRow(String scheduler, String placement, double[] values) {}

  /**
   * The rows of {@code jobs.csv} (header first) with the values of the named columns, in that order,
   * found by the header's names: none when the header lacks one of them (a file written before it
   * was recorded) or the label. Rows shorter than the header, or whose label is not
   * SCHEDULER/PLACEMENT/RUN, are skipped.
   */
  private static List<JobRow> jobRows(List<String> rows, String... columns) {
    List<JobRow> out = new ArrayList<>();
    if (rows.isEmpty()) {
      return out;
    }
    List<String> head = List.of(rows.get(0).split(","));
    int label = head.indexOf("label");
    int[] col = Arrays.stream(columns).mapToInt(head::indexOf).toArray();
    if (label < 0 || Arrays.stream(col).anyMatch(c -> c < 0)) {
      return out;
    }
    for (String row : rows.subList(1, rows.size())) {
      String[] f = row.split(",");
      String[] l = f.length < head.size() ? new String[0] : f[label].split("/");
      if (l.length < 2) {
        continue;
      }
      out.add(new JobRow(l[0], l[1], Arrays.stream(col).mapToDouble(c -> Double.parseDouble(f[c])).toArray()));
    }
    return out;
  }

  /**
   * Per placement, the CDF of job completion times per scheduler, every job of every run pooled
   * ({@code DIR/workload-PLACEMENT-cdf.png}), from the per-job rows of {@code jobs.csv}.
   */
  private static void cdfs(Path dir, List<String> rows, Map<String, Map<String, Map<String, List<Double>>>> data)
      throws IOException {
    // placement -> scheduler -> job completion times
    Map<String, Map<String, List<Double>>> times = new LinkedHashMap<>();
    for (JobRow r : jobRows(rows, "jct_s")) {
      times.computeIfAbsent(r.placement(), k -> new LinkedHashMap<>())
          .computeIfAbsent(r.scheduler(), k -> new ArrayList<>()).add(r.values()[0]);
    }
    for (var placement : times.entrySet()) {
      String runs = data.containsKey(placement.getKey()) ? runs(data.get(placement.getKey())) : "all runs";
      XYChart c = new XYChartBuilder().width(960).height(520)
          .title("Job completion time CDF, " + placement.getKey() + " input (every job, "
              + runs.replace("mean over", "pooled over") + ")")
          .xAxisTitle("job completion time, s").yAxisTitle("fraction of jobs done").build();
      c.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
      c.getStyler().setYAxisMin(0.0);
      c.getStyler().setYAxisMax(1.0);
      c.getStyler().setYAxisDecimalPattern("0.0");
      c.getStyler().setYAxisTickMarkSpacingHint(60);
      for (var s : placement.getValue().entrySet()) {
        List<Double> t = new ArrayList<>(s.getValue());
        t.sort(null);
        List<Double> y = new ArrayList<>();
        for (int i = 0; i < t.size(); i++) {
          y.add((i + 1.0) / t.size());
        }
        c.addSeries(s.getKey(), t, y).setMarker(SeriesMarkers.NONE);
      }
      BitmapEncoder.saveBitmap(c, dir.resolve("workload-" + placement.getKey() + "-cdf.png").toString(),
          BitmapEncoder.BitmapFormat.PNG);
    }
  }

  /**
   * Where the job time went, per placement and scheduler, every job of every run pooled: the wait
   * from submission until the AM started ({@code am_wait_s}); from then until the AM, registered,
   * started the job ({@code job_start_s}: its start-up); from then until its first map started
   * ({@code first_map_s}: the job's set-up and the scheduling and launch of that map); the maps
   * until the last one ended ({@code map_phase_s}); and the rest until the job finished ({@code
   * jct_s}). The parts add up to the job time. Rows written before {@code job_start_s} was recorded
   * give four parts (the AM's start to its first map in one). A markdown table and a stacked bar
   * chart per placement ({@code DIR/workload-PLACEMENT-phases.png}). Empty for a file whose header
   * has no {@code first_map_s} (written before it was recorded); rows shorter than the header, or
   * whose label is not SCHEDULER/PLACEMENT/RUN, are skipped.
   */
  static String phases(Path dir, List<String> rows) throws IOException {
    // Each part ends at one of the job's times; the first begins at its submission. Files written
    // before the job's start was recorded put the AM's start-up and the first map's wait in one part.
    boolean startUp = !rows.isEmpty() && List.of(rows.get(0).split(",")).contains("job_start_s");
    List<String> ends = new ArrayList<>(Workload.JOB_TIMES);
    if (!startUp) {
      ends.remove("job_start_s");
    }
    String[] parts = ends.stream().map(e -> !startUp && e.equals("first_map_s") ? "AM to first map" : PARTS.get(e))
        .toArray(String[]::new);
    // placement -> scheduler -> sums of the parts, then the job count
    Map<String, Map<String, double[]>> sums = new LinkedHashMap<>();
    for (JobRow r : jobRows(rows, ends.toArray(String[]::new))) {
      double[] s = sums.computeIfAbsent(r.placement(), k -> new LinkedHashMap<>())
          .computeIfAbsent(r.scheduler(), k -> new double[parts.length + 1]);
      double before = 0;
      for (int i = 0; i < parts.length; i++) {
        s[i] += r.values()[i] - before;
        before = r.values()[i];
      }
      s[parts.length]++;
    }
    StringBuilder md = new StringBuilder();
    for (var placement : sums.entrySet()) {
      md.append("\n**").append(placement.getKey())
          .append("**: where the job time went (mean per job, seconds, every job of every run)\n\n| scheduler | jobs |");
      for (String p : parts) {
        md.append(' ').append(p).append(" |");
      }
      md.append(" job time |\n|---|---|").append("---|".repeat(parts.length + 1)).append('\n');
      CategoryChart c = new CategoryChartBuilder().width(960).height(520)
          .title("Where the job time went, " + placement.getKey() + " input (mean per job, every job of every run)")
          .xAxisTitle("scheduler").yAxisTitle("seconds").build();
      c.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
      c.getStyler().setStacked(true);
      List<String> names = new ArrayList<>(placement.getValue().keySet());
      List<List<Double>> series = new ArrayList<>();
      for (int i = 0; i < parts.length; i++) {
        series.add(new ArrayList<>());
      }
      for (var s : placement.getValue().entrySet()) {
        double[] v = s.getValue();
        double n = v[parts.length];
        md.append("| ").append(s.getKey()).append(" | ").append((long) n).append(" |");
        double total = 0;
        for (int i = 0; i < parts.length; i++) {
          md.append(' ').append(fmt(v[i] / n)).append(" |");
          series.get(i).add(v[i] / n);
          total += v[i] / n;
        }
        md.append(' ').append(fmt(total)).append(" |\n");
      }
      for (int i = 0; i < parts.length; i++) {
        c.addSeries(parts[i], names, series.get(i));
      }
      BitmapEncoder.saveBitmap(c, dir.resolve("workload-" + placement.getKey() + "-phases.png").toString(),
          BitmapEncoder.BitmapFormat.PNG);
    }
    return md.toString();
  }

  /** "one run", or "mean over N runs" (or "mean over 1–N runs" when schedulers ran different numbers). */
  static String runs(Map<String, Map<String, List<Double>>> bySched) {
    int min = Integer.MAX_VALUE;
    int max = 0;
    for (Map<String, List<Double>> d : bySched.values()) {
      int n = d.get("mean") == null ? 0 : d.get("mean").size();
      min = Math.min(min, n);
      max = Math.max(max, n);
    }
    if (max <= 1) {
      return "one run";
    }
    return "mean over " + (min == max ? String.valueOf(max) : min + "–" + max) + " runs";
  }
}
