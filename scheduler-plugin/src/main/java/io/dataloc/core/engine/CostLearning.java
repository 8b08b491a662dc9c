package io.dataloc.core.engine;

import io.dataloc.core.model.CostModel;
import java.math.BigInteger;

/**
 * Plan costs learned from how long finished tasks took.
 *
 * <p>A plan trades locality for balance at the price its cost model puts on a task away from its
 * data ({@code cost.rack}, {@code cost.remote} against {@code cost.local}). Configured, that price
 * is a guess. On a cluster whose links are slow, the guess is too low. The plan then moves tasks
 * off their data to spread the work, and they run several times slower than it assumed.
 *
 * <p>Rule. Let {@code d̄ℓ} be the mean duration of the finished tasks that ran at level {@code ℓ}
 * (local, rack, remote). Once there are at least {@code minSamples} local tasks and at least
 * {@code minSamples} rack-local tasks, the rack cost becomes
 * {@code max(cost.rack, cost.local · d̄rack / d̄local)}. The same rule holds for remote tasks
 * once they have samples. Remote never costs less than rack. Learning can only raise a configured
 * cost, never lower it: where a remote read costs nothing (loopback, a test), plans keep the
 * configured preference for locality. Exact integer arithmetic, rounded down; the congestion term
 * stays as configured. {@code minSamples = 0} turns learning off.
 */
public final class CostLearning {
  private final long[] sumTicks = new long[3];
  private final long[] count = new long[3];
  private final int minSamples;

  public CostLearning(int minSamples) {
    if (minSamples < 0) {
      throw new IllegalArgumentException("minSamples must be >= 0, got " + minSamples);
    }
    this.minSamples = minSamples;
  }

  /** A task that ran {@code ticks} at a level (0 local, 1 rack, 2 remote) has finished. */
  public void observe(int level, long ticks) {
    sumTicks[level] += Math.max(1, ticks);
    count[level]++;
  }

  private boolean enough(int level) {
    return minSamples > 0 && count[level] >= minSamples;
  }

  /** The configured costs, raised by what has been learned (the configured ones until then). */
  public CostModel costs(CostModel configured) {
    if (!enough(0) || !(enough(1) || enough(2))) {
      return configured;
    }
    long rack = configured.rack();
    if (enough(1)) {
      rack = Math.max(rack, scaled(configured.local(), 1));
    }
    long remote = Math.max(configured.remote(), rack);
    if (enough(2)) {
      remote = Math.max(remote, scaled(configured.local(), 2));
    }
    return CostModel.of(configured.local(), rack, remote, configured.remotePerRemoteTask());
  }

  /** {@code local · d̄level / d̄local} = {@code local · sum[level] · count[0] / (count[level] · sum[0])}. */
  private long scaled(long local, int level) {
    BigInteger num = BigInteger.valueOf(local).multiply(BigInteger.valueOf(sumTicks[level]))
        .multiply(BigInteger.valueOf(count[0]));
    BigInteger den = BigInteger.valueOf(count[level]).multiply(BigInteger.valueOf(sumTicks[0]));
    BigInteger q = num.divide(den);
    return q.bitLength() < 63 ? q.longValue() : Long.MAX_VALUE / 4;
  }

  @Override
  public String toString() {
    return "samples local/rack/remote " + count[0] + "/" + count[1] + "/" + count[2];
  }
}
