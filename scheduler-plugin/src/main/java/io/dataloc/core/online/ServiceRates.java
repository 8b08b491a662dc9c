package io.dataloc.core.online;

import io.dataloc.core.model.Level;
import io.dataloc.core.model.ObservedDurations;

/**
 * Service rates per locality level in thousandths of a task per tick: {@code α} (local),
 * {@code β} (rack-local) and {@code γ} (remote), {@code 0 < γ ≤ β ≤ α ≤ 1000}. MaxWeight compares
 * {@code α·Q_m} with {@code γ·Q̄} and Balanced-PANDAS weighs workloads by {@code 1/rate}, all in
 * exact integer arithmetic. Mutable only through {@link #update}, which the engine calls with
 * its observed task durations when learning is on.
 */
public final class ServiceRates {
  private long alpha;
  private long beta;
  private long gamma;
  private final int minSamples;

  public ServiceRates(long alpha, long beta, long gamma, int minSamples) {
    check(alpha, beta, gamma);
    this.alpha = alpha;
    this.beta = beta;
    this.gamma = gamma;
    this.minSamples = minSamples;
  }

  private static void check(long alpha, long beta, long gamma) {
    if (gamma <= 0 || beta < gamma || alpha < beta || alpha > 1000) {
      throw new IllegalArgumentException(
          "service rates need 0 < gamma <= beta <= alpha <= 1, got alpha=" + alpha / 1000.0 + " beta="
              + beta / 1000.0 + " gamma=" + gamma / 1000.0);
    }
  }

  public long alpha() {
    return alpha;
  }

  public long beta() {
    return beta;
  }

  public long gamma() {
    return gamma;
  }

  /** The rate of a level: 0 local, 1 rack, 2 remote. */
  public long rate(int level) {
    return level == 0 ? alpha : level == 1 ? beta : gamma;
  }

  /**
   * Follows the durations observed so far: once local and remote tasks each have
   * {@code minSamples} samples (and {@code minSamples > 0}), the rates become {@code 1 / mean
   * duration} in thousandths (local at most 1), kept ordered ({@code γ ≤ β ≤ α}); {@code β} is the
   * midpoint of the other two until rack-local tasks have samples of their own.
   */
  public void update(ObservedDurations d) {
    long n0 = d.count(Level.LOCAL);
    long n1 = d.count(Level.RACK);
    long n2 = d.count(Level.REMOTE);
    if (minSamples <= 0 || n0 < minSamples || n2 < minSamples) {
      return;
    }
    long a = Math.min(1000, Math.max(1, 1000 * n0 / d.sumTicks(Level.LOCAL)));
    long g = Math.min(a, Math.max(1, 1000 * n2 / d.sumTicks(Level.REMOTE)));
    long b = n1 >= minSamples ? Math.max(g, Math.min(a, 1000 * n1 / d.sumTicks(Level.RACK)))
        : Math.max(g, Math.min(a, (a + g) / 2));
    alpha = a;
    beta = b;
    gamma = g;
  }

  @Override
  public String toString() {
    return "α=" + alpha / 1000.0 + " β=" + beta / 1000.0 + " γ=" + gamma / 1000.0;
  }
}
