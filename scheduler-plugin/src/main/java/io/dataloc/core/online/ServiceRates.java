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
  private final long configuredAlpha;
  private final long configuredBeta;
  private final long configuredGamma;
  private final int minSamples;
  private final long perSharedRead;
  private final long localCost;

  public ServiceRates(long alpha, long beta, long gamma, int minSamples) {
    this(alpha, beta, gamma, minSamples, 0, 1);
  }

  /**
   * Rates that also know what a read sharing its link costs: {@code perSharedRead} against a local
   * task's {@code localCost} (the plan's cost model, {@link io.dataloc.core.model.CostModel}).
   */
  public ServiceRates(long alpha, long beta, long gamma, int minSamples, long perSharedRead, long localCost) {
    check(alpha, beta, gamma);
    if (perSharedRead < 0 || localCost <= 0) {
      throw new IllegalArgumentException("need perSharedRead >= 0 and localCost > 0, got " + perSharedRead + " and "
          + localCost);
    }
    this.perSharedRead = perSharedRead;
    this.localCost = localCost;
    this.alpha = alpha;
    this.beta = beta;
    this.gamma = gamma;
    this.configuredAlpha = alpha;
    this.configuredBeta = beta;
    this.configuredGamma = gamma;
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

  /**
   * Whole ticks a read away from its data loses to {@code reads} reads already on its link: per
   * read, a local task's time {@code 1/α} scaled by {@code perSharedRead / localCost}, rounded up;
   * 0 when reads are not priced.
   */
  public long sharedReadTicks(long reads) {
    if (reads <= 0 || perSharedRead == 0) {
      return 0;
    }
    long num = Math.multiplyExact(Math.multiplyExact(reads, perSharedRead), 1000L);
    long den = localCost * alpha;
    return (num + den - 1) / den;
  }

  /** The rate of a level: 0 local, 1 rack, 2 remote. */
  public long rate(int level) {
    return level == 0 ? alpha : level == 1 ? beta : gamma;
  }

  /**
   * Follows the durations observed so far (when {@code minSamples > 0}). Once local tasks have
   * {@code minSamples} samples, {@code α = 1 / their mean duration} in thousandths (at most 1), and
   * a level with samples of its own gets {@code 1 / its mean}; until then a level keeps its
   * configured ratio to {@code α} — the configured rates give the ratios, the local tasks the time
   * scale (for a policy that reads rates as times, such as {@link BreakEven}: in the
   * ResourceManager a tick is a second, and the configured {@code α = 0.8} alone would say a local
   * map takes 1.25 s). {@code β} is the midpoint of the other two while only it lacks samples.
   * Kept ordered ({@code γ ≤ β ≤ α}, each at least 1). The ratio-only policies (MaxWeight's
   * {@code α·Q_m ≥ γ·Q̄}, Balanced-PANDAS's workloads) decide the same under a common scale, up to
   * rounding.
   */
  public void update(ObservedDurations d) {
    long n0 = d.count(Level.LOCAL);
    long n1 = d.count(Level.RACK);
    long n2 = d.count(Level.REMOTE);
    if (minSamples <= 0 || n0 < minSamples) {
      return;
    }
    long a = Math.min(1000, Math.max(1, 1000 * n0 / d.sumTicks(Level.LOCAL)));
    long g = n2 >= minSamples ? Math.min(a, Math.max(1, 1000 * n2 / d.sumTicks(Level.REMOTE)))
        : Math.min(a, Math.max(1, a * configuredGamma / configuredAlpha));
    long b;
    if (n1 >= minSamples) {
      b = Math.max(g, Math.min(a, 1000 * n1 / d.sumTicks(Level.RACK)));
    } else if (n2 >= minSamples) {
      b = Math.max(g, Math.min(a, (a + g) / 2));
    } else {
      b = Math.max(g, Math.min(a, a * configuredBeta / configuredAlpha));
    }
    alpha = a;
    beta = b;
    gamma = g;
  }

  @Override
  public String toString() {
    return "α=" + alpha / 1000.0 + " β=" + beta / 1000.0 + " γ=" + gamma / 1000.0;
  }
}
