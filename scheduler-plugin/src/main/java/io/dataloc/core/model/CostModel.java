package io.dataloc.core.model;

import java.util.Objects;

/**
 * The three-level cost of running one task, in scaled units ({@link Units}).
 *
 * <p>A node-local task costs {@code local}. A task that is not node-local costs its level's base
 * ({@code rack} or {@code remote}) plus congestion {@code remotePerRemoteTask · r}, where {@code r}
 * counts every task of the assignment that is not node-local (rack-local tasks cross the network
 * too, so they both add to and pay for congestion). With {@code remotePerRemoteTask = 0} the costs
 * are the uniform model of Fischer et al. and LABL; BAR's example {@code C_rem(r) = 1 + 0.1·r} is
 * {@code remote = 1, remotePerRemoteTask = 0.1}.
 *
 * <p><b>Link contention.</b> A task that is not node-local reads its block over a replica host's
 * link, which other reads may already share. It costs {@code perSharedRead · c} more, where
 * {@code c} is the least {@link Cluster#readsOut} over its replica hosts (the reads in flight on the
 * least shared link it could read through). With {@code perSharedRead = 0} plans ignore the links.
 *
 * <p>Invariants (checked by {@link #of}): all values ≥ 0, {@code local > 0},
 * {@code local ≤ rack ≤ remote}.
 */
public final class CostModel {
  private final long local;
  private final long rack;
  private final long remote;
  private final long remotePerRemoteTask;
  private final long perSharedRead;

  public CostModel(long local, long rack, long remote, long remotePerRemoteTask) {
    this(local, rack, remote, remotePerRemoteTask, 0);
  }

  public CostModel(long local, long rack, long remote, long remotePerRemoteTask, long perSharedRead) {
    if (local <= 0) {
      throw new IllegalArgumentException("cost.local must be > 0, got " + Units.format(local));
    }
    if (rack < 0 || remote < 0 || remotePerRemoteTask < 0 || perSharedRead < 0) {
      throw new IllegalArgumentException("costs must not be negative");
    }
    if (rack < local) {
      throw new IllegalArgumentException(
          "cost.rack (" + Units.format(rack) + ") must be >= cost.local (" + Units.format(local) + ")");
    }
    if (remote < rack) {
      throw new IllegalArgumentException(
          "cost.remote (" + Units.format(remote) + ") must be >= cost.rack (" + Units.format(rack) + ")");
    }
    this.local = local;
    this.rack = rack;
    this.remote = remote;
    this.remotePerRemoteTask = remotePerRemoteTask;
    this.perSharedRead = perSharedRead;
  }

  public long local() {
    return local;
  }

  public long rack() {
    return rack;
  }

  public long remote() {
    return remote;
  }

  public long remotePerRemoteTask() {
    return remotePerRemoteTask;
  }

  /** The extra cost of a non-local task per read already sharing its least shared source link. */
  public long perSharedRead() {
    return perSharedRead;
  }

  /** Validating factory; same checks as the constructor. */
  public static CostModel of(long local, long rack, long remote, long remotePerRemoteTask) {
    return new CostModel(local, rack, remote, remotePerRemoteTask);
  }

  /** Validating factory with link contention; same checks as the constructor. */
  public static CostModel of(long local, long rack, long remote, long remotePerRemoteTask, long perSharedRead) {
    return new CostModel(local, rack, remote, remotePerRemoteTask, perSharedRead);
  }

  /** The same costs with {@code rack} and {@code remote} replaced (learned costs keep the rest). */
  public CostModel withAwayCosts(long newRack, long newRemote) {
    return new CostModel(local, newRack, newRemote, remotePerRemoteTask, perSharedRead);
  }

  /** Uniform two-level costs in whole units: rack-local costs as much as remote. */
  public static CostModel uniform(long localUnits, long remoteUnits) {
    return new CostModel(Units.of(localUnits), Units.of(remoteUnits), Units.of(remoteUnits), 0);
  }

  /** The cost of a task at {@code level} when {@code nonLocal} tasks in total are not node-local. */
  public long cost(Level level, long nonLocal) {
    switch (level) {
      case LOCAL:
        return local;
      case RACK:
        return rack + remotePerRemoteTask * nonLocal;
      case REMOTE:
        return remote + remotePerRemoteTask * nonLocal;
    }
    throw new AssertionError(level);
  }

  /** {@code w_rem(r)}. */
  public long remoteCost(long nonLocal) {
    return remote + remotePerRemoteTask * nonLocal;
  }

  /** {@code w_rack(r)}. */
  public long rackCost(long nonLocal) {
    return rack + remotePerRemoteTask * nonLocal;
  }

  public boolean uniform() {
    return remotePerRemoteTask == 0;
  }

  @Override
  public boolean equals(Object o) {
    if (o == this) {
      return true;
    }
    if (!(o instanceof CostModel)) {
      return false;
    }
    CostModel that = (CostModel) o;
    return local == that.local
        && rack == that.rack
        && remote == that.remote
        && remotePerRemoteTask == that.remotePerRemoteTask
        && perSharedRead == that.perSharedRead;
  }

  @Override
  public int hashCode() {
    return Objects.hash(local, rack, remote, remotePerRemoteTask, perSharedRead);
  }

  @Override
  public String toString() {
    return "CostModel[local=" + local
        + ", rack=" + rack
        + ", remote=" + remote
        + ", remotePerRemoteTask=" + remotePerRemoteTask
        + ", perSharedRead=" + perSharedRead + "]";
  }
}
