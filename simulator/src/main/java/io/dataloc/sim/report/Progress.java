package io.dataloc.sim.report;

import java.io.PrintStream;

/** Progress of a long run on one line per step, throttled (no wall-clock decisions elsewhere). */
public final class Progress {
  private final PrintStream out;
  private long lastPrint;
  private final long everyMillis;

  public Progress(PrintStream out, long everyMillis) {
    this.out = out;
    this.everyMillis = everyMillis;
  }

  public static Progress silent() {
    return new Progress(null, 0);
  }

  /** Reports {@code done} of {@code total} steps with a label; prints at most every few seconds. */
  public void step(String label, long done, long total) {
    if (out == null) {
      return;
    }
    long now = System.currentTimeMillis();
    if (done == total || now - lastPrint >= everyMillis) {
      lastPrint = now;
      out.printf("  [%3d%%] %s (%d/%d)%n", total == 0 ? 100 : 100 * done / total, label, done, total);
    }
  }

  public void note(String line) {
    if (out != null) {
      out.println(line);
    }
  }
}
