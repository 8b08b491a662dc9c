package io.dataloc.it;

import java.util.Arrays;

/**
 * Time spent inside the scheduler, measured around its own entry points (event handling and the
 * AM's allocate call), never around the harness: one sample per node heartbeat, and totals.
 * The benchmark drives one ResourceManager at a time; the clock is reset between runs.
 */
public final class SchedulerClock {
  private static long[] heartbeats = new long[1 << 16];
  private static int count;
  private static long handleNanos;
  private static long allocateNanos;
  /** CPU time of the scheduler's calls (the calling thread's), beside their wall time. */
  private static long cpuNanos;

  private SchedulerClock() {}

  static synchronized void reset() {
    cpuNanos = 0;
    count = 0;
    handleNanos = 0;
    allocateNanos = 0;
  }

  static synchronized void event(boolean nodeHeartbeat, long nanos) {
    handleNanos += nanos;
    if (nodeHeartbeat) {
      if (count == heartbeats.length) {
        heartbeats = Arrays.copyOf(heartbeats, count * 2);
      }
      heartbeats[count++] = nanos;
    }
  }

  static synchronized void allocate(long nanos) {
    allocateNanos += nanos;
  }

  static synchronized int heartbeats() {
    return count;
  }

  /** The q-quantile (0..1) of heartbeat times in microseconds. */
  static synchronized double heartbeatMicros(double q) {
    if (count == 0) {
      return 0;
    }
    long[] sorted = Arrays.copyOf(heartbeats, count);
    Arrays.sort(sorted);
    int rank = Math.max(1, (int) Math.ceil(q * count)); // nearest-rank quantile
    return sorted[Math.min(count, rank) - 1] / 1e3;
  }

  /** All time inside the scheduler (events and allocate calls), in seconds. */
  static synchronized void cpu(long nanos) {
    cpuNanos += nanos;
  }

  /** The scheduler's calls' CPU seconds (wall time less waiting for a core, a lock or a pause). */
  static synchronized double schedulerCpuSeconds() {
    return cpuNanos / 1e9;
  }

  static synchronized double schedulerSeconds() {
    return (handleNanos + allocateNanos) / 1e9;
  }
}
