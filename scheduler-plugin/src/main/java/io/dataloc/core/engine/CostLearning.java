package io.dataloc.core.engine;

import io.dataloc.core.model.CostModel;
import io.dataloc.core.model.Level;
import io.dataloc.core.model.ObservedDurations;
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
 * (local, rack, remote), from the engine's {@link ObservedDurations}. Once there are at least {@code minSamples} local tasks and at least
 * {@code minSamples} rack-local tasks, the rack cost becomes
 * {@code max(cost.rack, cost.local · d̄rack / d̄local)}. The same rule holds for remote tasks
 * once they have samples. Remote never costs less than rack. Learning can only raise a configured
 * cost, never lower it: where a remote read costs nothing (loopback, a test), plans keep the
 * configured preference for locality. Exact integer arithmetic, rounded down; the congestion term
 * stays as configured. {@code minSamples = 0} turns learning off.
 */
public final class CostLearning {
  private final int minSamples;

  public CostLearning(int minSamples) {
    if (minSamples < 0) {
      throw new IllegalArgumentException("minSamples must be >= 0, got " + minSamples);
    }
    this.minSamples = minSamples;
  }

  private boolean enough(ObservedDurations d, Level level) {
    return minSamples > 0 && d.count(level) >= minSamples;
  }

  /** The configured costs, raised by what {@code d} shows (the configured ones until it shows enough). */
  public CostModel costs(CostModel configured, ObservedDurations d) {
    if (!enough(d, Level.LOCAL) || !(enough(d, Level.RACK) || enough(d, Level.REMOTE))) {
      return configured;
    }
    long rack = configured.rack();
    if (enough(d, Level.RACK)) {
      rack = Math.max(rack, scaled(configured.local(), d, Level.RACK));
    }
    long remote = Math.max(configured.remote(), rack);
    if (enough(d, Level.REMOTE)) {
      remote = Math.max(remote, scaled(configured.local(), d, Level.REMOTE));
    }
    return configured.withAwayCosts(rack, remote);
  }

  /** {@code local · d̄level / d̄local} = {@code local · sum[level] · count[local] / (count[level] · sum[local])}. */
  private static long scaled(long local, ObservedDurations d, Level level) {
    BigInteger num = BigInteger.valueOf(local).multiply(BigInteger.valueOf(d.sumTicks(level)))
        .multiply(BigInteger.valueOf(d.count(Level.LOCAL)));
    BigInteger den = BigInteger.valueOf(d.count(level)).multiply(BigInteger.valueOf(d.sumTicks(Level.LOCAL)));
    BigInteger q = num.divide(den);
    return q.bitLength() < 63 ? q.longValue() : Long.MAX_VALUE / 4;
  }
}
