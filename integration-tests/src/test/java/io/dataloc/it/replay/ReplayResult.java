package io.dataloc.it.replay;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * One scheduler's replay: every job's times and localities, the bytes the links carried, and what
 * the run cost. Job-size bins are the delay-scheduling paper's (Zaharia et al., EuroSys 2010):
 * 1–10, 11–50, 51–500 and more than 500 maps.
 *
 * @param simulatedSeconds virtual seconds until the last job ended (or the run's limit)
 * @param wallSeconds the run's wall time
 * @param schedulerCpuSeconds CPU the scheduler spent in {@code handle} and {@code allocate}
 */
public record ReplayResult(String scheduler, List<JobTime> jobs, double nicBytes, double uplinkBytes,
    double simulatedSeconds, double wallSeconds, double schedulerCpuSeconds) {

  /**
   * One job. Times in seconds from its submission; -1 when it never got there.
   *
   * @param amWait until its AM container was allocated
   * @param firstMap until its first map started
   * @param mapsDone until its last map ended
   * @param time until its AM unregistered (its job time)
   * @param floor its contention-free time: AM start, its longest map data-local on an idle node,
   *     and its shuffle, reduce and write on idle links
   * @param amHost where its AM ran (null: it never got one)
   * @param mapsByHost how many of its maps each host ran
   */
  public record JobTime(String name, int maps, int reduces, double submit, double amWait, double firstMap,
      double mapsDone, double time,
      double floor, int nodeLocal, int rackLocal, int offSwitch, String amHost, java.util.Map<String, Integer> mapsByHost) {
    public boolean finished() {
      return time >= 0;
    }
  }

  /** The bins' names, in order. */
  public static final List<String> BINS = List.of("1-10", "11-50", "51-500", ">500");

  public static int bin(int maps) {
    return maps <= 10 ? 0 : maps <= 50 ? 1 : maps <= 500 ? 2 : 3;
  }

  /** Job times of finished jobs in bin {@code b} (all bins for -1), sorted. */
  public double[] times(int b) {
    return jobs.stream().filter(JobTime::finished).filter(j -> b < 0 || bin(j.maps()) == b)
        .mapToDouble(JobTime::time).sorted().toArray();
  }

  public int unfinished() {
    return (int) jobs.stream().filter(j -> !j.finished()).count();
  }

  public static double mean(double[] xs) {
    return xs.length == 0 ? Double.NaN : Arrays.stream(xs).sum() / xs.length;
  }

  /** The nearest-rank quantile of sorted values. */
  public static double quantile(double[] sorted, double q) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    int rank = (int) Math.ceil(q * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }

  /** Fractions of maps that ran node-local and rack-local. */
  public double[] locality() {
    long local = 0;
    long rack = 0;
    long all = 0;
    for (JobTime j : jobs) {
      local += j.nodeLocal();
      rack += j.rackLocal();
      all += j.nodeLocal() + j.rackLocal() + j.offSwitch();
    }
    return all == 0 ? new double[] {Double.NaN, Double.NaN} : new double[] {(double) local / all, (double) rack / all};
  }

  /** Mean over finished jobs of their time above their contention-free floor. */
  public double meanExcess() {
    return jobs.stream().filter(JobTime::finished).mapToDouble(j -> Math.max(0, j.time() - j.floor())).average()
        .orElse(Double.NaN);
  }

  public double makespan() {
    return jobs.stream().filter(JobTime::finished).mapToDouble(j -> j.submit() + j.time()).max().orElse(Double.NaN);
  }

  /** The parts of a job's time, in order: they add up to it. */
  public static final List<String> PHASES = List.of("AM wait", "AM to first map", "maps", "after the maps");

  /**
   * Where the time of the finished jobs with maps in bin {@code b} (all bins for -1) went: the
   * mean of each of {@link #PHASES} — waiting for the AM's container; from it to the first map's
   * start (the AM's start, its asks, the first map's container); from then until the last map
   * ended; and the rest (the shuffle and reduces past the maps, the AM's last heartbeat). NaNs for
   * an empty bin.
   */
  public double[] phases(int b) {
    double[] sum = new double[PHASES.size()];
    int n = 0;
    for (JobTime j : jobs) {
      if (!j.finished() || j.mapsDone() < 0 || b >= 0 && bin(j.maps()) != b) {
        continue;
      }
      sum[0] += j.amWait();
      sum[1] += j.firstMap() - j.amWait();
      sum[2] += j.mapsDone() - j.firstMap();
      sum[3] += j.time() - j.mapsDone();
      n++;
    }
    for (int i = 0; i < sum.length; i++) {
      sum[i] = n == 0 ? Double.NaN : sum[i] / n;
    }
    return sum;
  }

  /** The summary's JSON object for this scheduler. */
  public String json() {
    double[] all = times(-1);
    double[] loc = locality();
    StringBuilder bins = new StringBuilder();
    for (int b = 0; b < BINS.size(); b++) {
      double[] t = times(b);
      bins.append(b == 0 ? "" : ", ").append(String.format(Locale.ROOT,
          "\"%s\": {\"jobs\": %d, \"mean\": %s, \"p50\": %s, \"p95\": %s}", BINS.get(b), t.length, num(mean(t)),
          num(quantile(t, 0.5)), num(quantile(t, 0.95))));
    }
    StringBuilder phases = new StringBuilder();
    for (int b = -1; b < BINS.size(); b++) {
      double[] p = phases(b);
      phases.append(b < 0 ? "" : ", ").append(String.format(Locale.ROOT,
          "\"%s\": {\"am_wait\": %s, \"am_to_first_map\": %s, \"maps\": %s, \"after_maps\": %s}",
          b < 0 ? "all" : BINS.get(b), num(p[0]), num(p[1]), num(p[2]), num(p[3])));
    }
    return String.format(Locale.ROOT, "{\"jobs\": %d, \"unfinished\": %d, \"mean\": %s, \"p50\": %s, \"p95\": %s,"
        + " \"bins\": {%s}, \"phases\": {%s}, \"node_local\": %s, \"rack_local\": %s, \"nic_bytes\": %.0f, \"uplink_bytes\": %.0f,"
        + " \"makespan\": %s, \"mean_excess_over_floor\": %s, \"mean_am_wait\": %s, \"scheduler_cpu_seconds\": %.3f,"
        + " \"simulated_seconds\": %.0f, \"wall_seconds\": %.1f}",
        jobs.size(), unfinished(), num(mean(all)), num(quantile(all, 0.5)), num(quantile(all, 0.95)), bins, phases,
        num(loc[0]), num(loc[1]), nicBytes, uplinkBytes, num(makespan()), num(meanExcess()), num(meanAmWait()),
        schedulerCpuSeconds, simulatedSeconds, wallSeconds);
  }

  public double meanAmWait() {
    return jobs.stream().filter(j -> j.amWait() >= 0).mapToDouble(JobTime::amWait).average().orElse(Double.NaN);
  }

  static String num(double x) {
    return Double.isNaN(x) ? "null" : String.format(Locale.ROOT, "%.4g", x);
  }

  /** Every job as a CSV row (for plots and audits). */
  public List<String> csv() {
    List<String> out = new ArrayList<>();
    out.add("job,maps,reduces,submit_s,am_wait_s,first_map_s,maps_done_s,time_s,floor_s,node_local,rack_local,off_switch");
    for (JobTime j : jobs) {
      out.add(String.format(Locale.ROOT, "%s,%d,%d,%.0f,%.0f,%.0f,%.1f,%.0f,%.2f,%d,%d,%d", j.name(), j.maps(),
          j.reduces(), j.submit(), j.amWait(), j.firstMap(), j.mapsDone(), j.time(), j.floor(), j.nodeLocal(), j.rackLocal(), j.offSwitch()));
    }
    return out;
  }
}
