package io.dataloc.it.replay;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The story of a few chosen jobs in one replay ({@code --follow}): when each got its AM, where each
 * task ran and at which locality, when each ended, and under Dataloc why its pending maps waited
 * (the scheduler's own wait report, each time it changes). At most {@link #MAX_LINES} lines; past
 * them one line says how many were left out.
 */
public final class Follow {
  /** Bound on the lines kept for one scheduler's run. */
  public static final int MAX_LINES = 100_000;

  private final Set<String> jobs;
  private final List<String> lines = new ArrayList<>();
  private final Map<String, String> lastWait = new HashMap<>();
  private long dropped;

  public Follow(Set<String> jobs) {
    this.jobs = Set.copyOf(jobs);
  }

  /** Follows no job. */
  public static Follow none() {
    return new Follow(Set.of());
  }

  public boolean follows(String job) {
    return jobs.contains(job);
  }

  /**
   * Records {@code what} happened to {@code job} at virtual second {@code t}, if it is followed;
   * the text is made only then (a replay reports every task of every job here).
   */
  public void at(double t, String job, Supplier<String> what) {
    if (!follows(job)) {
      return;
    }
    if (lines.size() >= MAX_LINES) {
      dropped++;
      return;
    }
    lines.add(String.format(Locale.ROOT, "%9.1f %s %s", t, job, what.get()));
  }

  /** Records why {@code job}'s maps wait, when it says something else than the last time. */
  public void waiting(double t, String job, String why) {
    if (follows(job) && !why.equals(lastWait.put(job, why))) {
      at(t, job, () -> "waits: " + why);
    }
  }

  /** The lines, in the order recorded, and a last one for those left out. */
  public List<String> lines() {
    List<String> out = new ArrayList<>(lines);
    if (dropped > 0) {
      out.add("… " + dropped + " more lines left out (at most " + MAX_LINES + " are kept)");
    }
    return out;
  }
}
