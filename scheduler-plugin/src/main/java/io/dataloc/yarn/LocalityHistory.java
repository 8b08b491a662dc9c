package io.dataloc.yarn;

import java.util.Arrays;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.NodeType;

/**
 * Map containers by locality level, counted once for both front ends: the metrics' totals and, for
 * the page's chart, per minute of the front end's clock over the last {@value #MINUTES} minutes (a
 * ring of {@value #MINUTES} buckets: bounded whatever the rate). Its own leaf lock: counted under
 * the plan lock, read by the page without it.
 */
final class LocalityHistory {
  static final int MINUTES = 60;
  private static final long MINUTE_MS = 60_000;

  private final DatalocMetrics metrics;
  /** Per bucket: the minute it holds (clock ms / 60 000; -1 if none yet), and its counts by level. */
  private final long[] minute = new long[MINUTES];
  private final long[][] counts = new long[MINUTES][3];

  LocalityHistory(DatalocMetrics metrics) {
    this.metrics = metrics;
    Arrays.fill(minute, -1);
  }

  /** A map container of this locality was allocated at {@code nowMillis}. */
  void count(NodeType type, long nowMillis) {
    int level;
    switch (type) {
      case NODE_LOCAL:
        metrics.mapsNodeLocal.incr();
        level = 0;
        break;
      case RACK_LOCAL:
        metrics.mapsRackLocal.incr();
        level = 1;
        break;
      default:
        metrics.mapsOffSwitch.incr();
        level = 2;
    }
    long m = Math.floorDiv(nowMillis, MINUTE_MS);
    int b = (int) Math.floorMod(m, (long) MINUTES);
    synchronized (this) {
      if (minute[b] != m) {
        minute[b] = m;
        Arrays.fill(counts[b], 0);
      }
      counts[b][level]++;
    }
  }

  /**
   * The last {@value #MINUTES} minutes up to the one holding {@code nowMillis}, oldest first: per
   * minute the node-local, rack-local and off-switch map containers (zeros for a minute with none).
   */
  synchronized long[][] lastHour(long nowMillis) {
    long now = Math.floorDiv(nowMillis, MINUTE_MS);
    long[][] out = new long[MINUTES][3];
    for (int i = 0; i < MINUTES; i++) {
      long m = now - (MINUTES - 1) + i;
      int b = (int) Math.floorMod(m, (long) MINUTES);
      if (minute[b] == m) {
        out[i] = counts[b].clone();
      }
    }
    return out;
  }
}
