package io.dataloc.core.online;

/**
 * Service rates per locality level in thousandths of a task per tick: {@code α} (local),
 * {@code β} (rack-local) and {@code γ} (remote), {@code 0 < γ ≤ β ≤ α ≤ 1000}. MaxWeight compares
 * {@code α·Q_m} with {@code γ·Q̄} and Balanced-PANDAS weighs workloads by {@code 1/rate}, all in
 * exact integer arithmetic. Mutable only through {@link #learn}, which the engine calls with
 * observed task durations when learning is on.
 */
public final class ServiceRates {
  private long alpha;
  private long beta;
  private long gamma;
  private final long[] sumTicks = new long[3];
  private final long[] count = new long[3];
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
   * Records a finished task's duration at a level (0 local, 1 rack, 2 remote); once every level
   * has {@code minSamples} samples (and {@code minSamples > 0}), the rates become
   * {@code 1 / mean duration}, kept ordered ({@code γ ≤ β ≤ α}).
   */
  public void learn(int level, long ticks) {
    sumTicks[level] += Math.max(1, ticks);
    count[level]++;
    if (minSamples <= 0 || count[0] < minSamples || count[2] < minSamples) {
      return;
    }
    long a = Math.min(1000, Math.max(1, 1000 * count[0] / sumTicks[0]));
    long g = Math.min(a, Math.max(1, 1000 * count[2] / sumTicks[2]));
    long b = count[1] >= minSamples ? Math.max(g, Math.min(a, 1000 * count[1] / sumTicks[1])) : Math.max(g, Math.min(a, (a + g) / 2));
    alpha = a;
    beta = b;
    gamma = g;
  }

  @Override
  public String toString() {
    return "α=" + alpha / 1000.0 + " β=" + beta / 1000.0 + " γ=" + gamma / 1000.0;
  }
}
