package io.dataloc.yarn;

/**
 * How long the scheduler's monitor is held: each outermost hold is timed (nested holds by the same
 * thread count once), and the longest is kept with where it was taken. Every method is called with
 * the monitor held, so the fields need no other guard; readers take the monitor too.
 */
final class LockHolds {
  private int depth;
  private long since;
  private long count;
  private long totalNanos;
  private long maxNanos;
  private String maxWhere = "";

  void enter() {
    if (depth++ == 0) {
      since = System.nanoTime();
    }
  }

  void exit(String where) {
    if (--depth == 0) {
      long d = System.nanoTime() - since;
      count++;
      totalNanos += d;
      if (d > maxNanos) {
        maxNanos = d;
        maxWhere = where;
      }
    }
  }

  /** Forgets what was measured (a benchmark's warm-up). */
  void reset() {
    count = 0;
    totalNanos = 0;
    maxNanos = 0;
    maxWhere = "";
  }

  /** The longest hold, how many, their total, and where the longest was taken. */
  record Report(long maxNanos, String maxWhere, long count, long totalNanos) {}

  Report report() {
    return new Report(maxNanos, maxWhere, count, totalNanos);
  }
}
