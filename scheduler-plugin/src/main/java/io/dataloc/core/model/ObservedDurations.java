package io.dataloc.core.model;

/**
 * How long finished tasks took, by the locality level they ran at: a count and a sum of ticks per
 * level. The engine keeps one and feeds it every finished task; what is derived from it — the
 * online policies' service rates and the plans' learned costs — reads it and keeps no copy.
 */
public final class ObservedDurations {
  private final long[] sumTicks = new long[Level.values().length];
  private final long[] count = new long[Level.values().length];

  /** A task that ran {@code ticks} (at least one is counted) at {@code level} has finished. */
  public void observe(Level level, long ticks) {
    sumTicks[level.ordinal()] += Math.max(1, ticks);
    count[level.ordinal()]++;
  }

  /** Finished tasks at a level. */
  public long count(Level level) {
    return count[level.ordinal()];
  }

  /** Their ticks in all. */
  public long sumTicks(Level level) {
    return sumTicks[level.ordinal()];
  }

  @Override
  public String toString() {
    return "samples local/rack/remote " + count[0] + "/" + count[1] + "/" + count[2];
  }
}
