package io.dataloc.core.jobs;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The job orderings by name.
 *
 * <ul>
 *   <li>{@code fifo}: earliest arrival first — Hadoop's FIFO scheduler.
 *   <li>{@code fair}: fewest running tasks first — naive fair sharing (Zaharia et al.), the
 *       per-job sub-queue rule of Wang et al.'s simulations.
 *   <li>{@code bid}: highest bid first, {@code bid = (1 / TotalUserTime) · (WaitTime /
 *       EstimatedExecTime)} — Song et al.'s job level: users who consumed less, jobs that waited
 *       longer and short jobs go first, and waiting raises every bid, so nothing starves.
 *       {@code TotalUserTime} counts one tick at least; bids are compared exactly by
 *       cross-multiplication.
 * </ul>
 *
 * <p>Under {@code fair} and {@code bid} a job past its maps yields its precedence beyond an equal
 * share ({@link JobOrdering#sharesLastPhase}); under {@code fifo} arrival alone decides.
 */
public final class JobOrderings {
  private static final Map<String, Supplier<JobOrdering>> REGISTRY = new LinkedHashMap<>();

  static {
    REGISTRY.put("fifo", () -> simple("fifo", (a, b, now, u) -> 0, false));
    REGISTRY.put("fair", () -> simple("fair", (a, b, now, u) -> Integer.compare(a.running(), b.running()), true));
    REGISTRY.put("bid", () -> simple("bid", JobOrderings::compareBids, true));
  }

  private JobOrderings() {}

  public static List<String> names() {
    return List.copyOf(REGISTRY.keySet());
  }

  public static JobOrdering create(String name) {
    Supplier<JobOrdering> s = REGISTRY.get(name);
    if (s == null) {
      throw new IllegalArgumentException("unknown job ordering '" + name + "'; known: " + String.join(", ", names()));
    }
    return s.get();
  }

  private interface Primary {
    int compare(JobView a, JobView b, long now, JobOrdering.UserUsage usage);
  }

  private static JobOrdering simple(String name, Primary primary, boolean sharesLastPhase) {
    return new JobOrdering() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public boolean sharesLastPhase() {
        return sharesLastPhase;
      }

      @Override
      public int compare(JobView a, JobView b, long now, UserUsage usage) {
        int c = primary.compare(a, b, now, usage);
        return c != 0 ? c : Integer.compare(a.index(), b.index());
      }
    };
  }

  /** Higher bid first: bid_a > bid_b ⇔ wait_a·user_b·est_b > wait_b·user_a·est_a. */
  private static int compareBids(JobView a, JobView b, long now, JobOrdering.UserUsage usage) {
    long waitA = Math.max(0, now - a.arrival());
    long waitB = Math.max(0, now - b.arrival());
    long userA = Math.max(1, usage.totalTime(a.user()));
    long userB = Math.max(1, usage.totalTime(b.user()));
    long estA = Math.max(1, a.estimatedWork());
    long estB = Math.max(1, b.estimatedWork());
    java.math.BigInteger left = java.math.BigInteger.valueOf(waitA).multiply(java.math.BigInteger.valueOf(userB))
        .multiply(java.math.BigInteger.valueOf(estB));
    java.math.BigInteger right = java.math.BigInteger.valueOf(waitB).multiply(java.math.BigInteger.valueOf(userA))
        .multiply(java.math.BigInteger.valueOf(estA));
    return right.compareTo(left);
  }
}
