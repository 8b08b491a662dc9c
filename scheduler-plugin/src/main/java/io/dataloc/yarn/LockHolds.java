package io.dataloc.yarn;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.LongConsumer;

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
  /** The current hold's segments: names (by identity) and wall nanoseconds, and the last mark. */
  private final String[] segNames = new String[MAX_SEGMENTS];
  private final long[] segNanos = new long[MAX_SEGMENTS];
  private final int[] segCounts = new int[MAX_SEGMENTS];
  private int segs;
  private long lastMark;
  private String maxCpuSegments = "";
  private static final int MAX_SEGMENTS = 16;
  private static final String OTHER = "other";
  /** Per site: holds, total wall, longest wall, longest CPU, holds over 10 ms of CPU. */
  private final Map<String, long[]> bySite = new TreeMap<>();
  /** Told every outermost hold's wall time in µs (the metrics' quantiles). */
  private final LongConsumer onHold;

  /** @param onHold told every outermost hold's wall time in µs */
  LockHolds(LongConsumer onHold) {
    this.onHold = onHold;
  }

  void enter() {
    if (depth++ == 0) {
      since = System.nanoTime();
      sinceCpu = CPU ? THREADS.getCurrentThreadCpuTime() : 0;
      segs = 0;
      lastMark = since;
    }
  }

  /**
   * Ends a segment of the current hold: the wall time since the hold began or since the last mark
   * is added to {@code segment} (a constant: names are compared by identity). Costs one clock read;
   * past {@value #MAX_SEGMENTS} - 1 distinct names the rest count as "other".
   */
  void mark(String segment) {
    if (depth == 0) {
      return;
    }
    long now = System.nanoTime();
    int i = 0;
    while (i < segs && segNames[i] != segment) {
      i++;
    }
    if (i == segs) {
      if (segs == MAX_SEGMENTS) {
        i = MAX_SEGMENTS - 1; // the last slot is "other": every name past the fifteenth counts there
      } else {
        segs++;
        segNames[i] = segs == MAX_SEGMENTS ? OTHER : segment;
        segNanos[i] = 0;
        segCounts[i] = 0;
      }
    }
    segNanos[i] += now - lastMark;
    segCounts[i]++;
    lastMark = now;
  }

  void exit(String where) {
    if (--depth == 0) {
      long now = System.nanoTime();
      long d = now - since;
      long cpu = CPU ? THREADS.getCurrentThreadCpuTime() - sinceCpu : 0;
      count++;
      totalNanos += d;
      onHold.accept(d / 1_000);
      if (d > maxNanos) {
        maxNanos = d;
        maxWhere = where;
      }
      if (cpu > maxCpuNanos) {
        maxCpuNanos = cpu;
        maxCpuWhere = where;
        maxCpuSegments = segments(now);
      }
      long[] site = bySite.computeIfAbsent(where, k -> new long[5]);
      site[0]++;
      site[1] += d;
      site[2] = Math.max(site[2], d);
      site[3] = Math.max(site[3], cpu);
      site[4] += cpu > 10_000_000 ? 1 : 0;
    }
  }

  /** The current hold's segments, largest first, and the unmarked rest: "name ×count ms; …". */
  private String segments(long now) {
    if (segs == 0) {
      return "";
    }
    Integer[] order = new Integer[segs];
    for (int i = 0; i < segs; i++) {
      order[i] = i;
    }
    java.util.Arrays.sort(order, (x, y) -> Long.compare(segNanos[y], segNanos[x]));
    StringBuilder sb = new StringBuilder();
    for (int i : order) {
      sb.append(String.format(Locale.ROOT, "%s ×%d %.2f ms; ", segNames[i], segCounts[i], segNanos[i] / 1e6));
    }
    sb.append(String.format(Locale.ROOT, "after the last mark %.2f ms", (now - lastMark) / 1e6));
    return sb.toString();
  }

  /** Forgets what was measured (a benchmark's warm-up). */
  void reset() {
    count = 0;
    totalNanos = 0;
    maxNanos = 0;
    maxWhere = "";
    maxCpuNanos = 0;
    maxCpuWhere = "";
    maxCpuSegments = "";
    bySite.clear();
  }

  /** The longest hold in wall and in CPU time, where each was taken, how many holds, their total. */
  static final class Report {
    private final long maxNanos;
    private final String maxWhere;
    private final long maxCpuNanos;
    private final String maxCpuWhere;
    private final String maxCpuSegments;
    private final long count;
    private final long totalNanos;

    Report(long maxNanos, String maxWhere, long maxCpuNanos, String maxCpuWhere, String maxCpuSegments, long count,
        long totalNanos) {
      this.maxNanos = maxNanos;
      this.maxWhere = maxWhere;
      this.maxCpuNanos = maxCpuNanos;
      this.maxCpuWhere = maxCpuWhere;
      this.maxCpuSegments = maxCpuSegments;
      this.count = count;
      this.totalNanos = totalNanos;
    }

    public long maxNanos() {
      return maxNanos;
    }

    public String maxWhere() {
      return maxWhere;
    }

    public long maxCpuNanos() {
      return maxCpuNanos;
    }

    public String maxCpuWhere() {
      return maxCpuWhere;
    }

    public String maxCpuSegments() {
      return maxCpuSegments;
    }

    public long count() {
      return count;
    }

    public long totalNanos() {
      return totalNanos;
    }

    @Override
    public boolean equals(Object o) {
      if (o == this) {
        return true;
      }
      if (!(o instanceof Report)) {
        return false;
      }
      Report that = (Report) o;
      return maxNanos == that.maxNanos
          && Objects.equals(maxWhere, that.maxWhere)
          && maxCpuNanos == that.maxCpuNanos
          && Objects.equals(maxCpuWhere, that.maxCpuWhere)
          && Objects.equals(maxCpuSegments, that.maxCpuSegments)
          && count == that.count
          && totalNanos == that.totalNanos;
    }

    @Override
    public int hashCode() {
      return Objects.hash(maxNanos, maxWhere, maxCpuNanos, maxCpuWhere, maxCpuSegments, count, totalNanos);
    }

    @Override
    public String toString() {
      return "Report[maxNanos=" + maxNanos
          + ", maxWhere=" + maxWhere
          + ", maxCpuNanos=" + maxCpuNanos
          + ", maxCpuWhere=" + maxCpuWhere
          + ", maxCpuSegments=" + maxCpuSegments
          + ", count=" + count
          + ", totalNanos=" + totalNanos + "]";
    }
  }

  Report report() {
    return new Report(maxNanos, maxWhere, maxCpuNanos, maxCpuWhere, maxCpuSegments, count, totalNanos);
  }

  /** Per site: holds, longest (wall, CPU) and total, in ms. */
  String bySite() {
    StringBuilder sb = new StringBuilder();
    bySite.forEach((k, v) -> sb.append(String.format(Locale.ROOT,
        "%s: %,d holds (%,d over 10 ms of CPU), longest %.2f ms wall / %.2f ms CPU, %.1f ms in all; ", k, v[0], v[4],
        v[2] / 1e6, v[3] / 1e6, v[1] / 1e6)));
    return sb.toString();
  }

  /** The longest hold (wall and CPU, where, the CPU hold's segments), how many, their total, and per site. */
  String describe() {
    return String.format(Locale.ROOT,
        "longest %.3f ms wall (%s), %.3f ms CPU (%s: %s) over %,d holds, %.1f ms in all [%s]", maxNanos / 1e6,
        maxWhere, maxCpuNanos / 1e6, maxCpuWhere, maxCpuSegments, count, totalNanos / 1e6, bySite());
  }
}
