package io.dataloc.yarn;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * How long the scheduler's monitor is held: each outermost hold is timed (nested holds by the same
 * thread count once), in wall time and in the holding thread's CPU time, and the longest of each
 * is kept with where it was taken. Wall time also counts what is not the scheduler's work — a
 * garbage-collection pause, the thread descheduled on a busy machine — so CPU time is the measure
 * of the work done under the lock, wall time of what a waiting heartbeat saw. Every method is
 * called with the monitor held, so the fields need no other guard.
 */
final class LockHolds {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static final boolean CPU = THREADS.isCurrentThreadCpuTimeSupported();

  private int depth;
  private long since;
  private long sinceCpu;
  private long count;
  private long totalNanos;
  private long maxNanos;
  private String maxWhere = "";
  private long maxCpuNanos;
  private String maxCpuWhere = "";
  /** Per site: holds, total wall, longest wall, longest CPU, holds over 10 ms of CPU. */
  private final Map<String, long[]> bySite = new TreeMap<>();

  void enter() {
    if (depth++ == 0) {
      since = System.nanoTime();
      sinceCpu = CPU ? THREADS.getCurrentThreadCpuTime() : 0;
    }
  }

  void exit(String where) {
    if (--depth == 0) {
      long d = System.nanoTime() - since;
      long cpu = CPU ? THREADS.getCurrentThreadCpuTime() - sinceCpu : 0;
      count++;
      totalNanos += d;
      if (d > maxNanos) {
        maxNanos = d;
        maxWhere = where;
      }
      if (cpu > maxCpuNanos) {
        maxCpuNanos = cpu;
        maxCpuWhere = where;
      }
      long[] site = bySite.computeIfAbsent(where, k -> new long[5]);
      site[0]++;
      site[1] += d;
      site[2] = Math.max(site[2], d);
      site[3] = Math.max(site[3], cpu);
      site[4] += cpu > 10_000_000 ? 1 : 0;
    }
  }

  /** Forgets what was measured (a benchmark's warm-up). */
  void reset() {
    count = 0;
    totalNanos = 0;
    maxNanos = 0;
    maxWhere = "";
    maxCpuNanos = 0;
    maxCpuWhere = "";
    bySite.clear();
  }

  /** The longest hold in wall and in CPU time, where each was taken, how many holds, their total. */
  record Report(long maxNanos, String maxWhere, long maxCpuNanos, String maxCpuWhere, long count, long totalNanos) {}

  Report report() {
    return new Report(maxNanos, maxWhere, maxCpuNanos, maxCpuWhere, count, totalNanos);
  }

  /** Per site: holds, longest (wall, CPU) and total, in ms. */
  String bySite() {
    StringBuilder sb = new StringBuilder();
    bySite.forEach((k, v) -> sb.append(String.format(Locale.ROOT,
        "%s: %,d holds (%,d over 10 ms of CPU), longest %.2f ms wall / %.2f ms CPU, %.1f ms in all; ", k, v[0], v[4],
        v[2] / 1e6, v[3] / 1e6, v[1] / 1e6)));
    return sb.toString();
  }
}
