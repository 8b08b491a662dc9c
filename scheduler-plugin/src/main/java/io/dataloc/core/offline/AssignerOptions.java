package io.dataloc.core.offline;

import java.util.Objects;

/**
 * Typed settings shared by the assigners, validated once here.
 *
 * @param seed breaks ties where an algorithm leaves a choice open
 * @param lablThreshold when LABL's Phase II (remote placements) runs: {@code -1} = always (Thm 1),
 *     {@code k ≥ 0} = while {@code l ≤ l** + k·w_loc}; {@code 0} is "first iteration only" (Thm 2)
 * @param songWeights weights {@code (c, d, n)} of Song et al.'s cost {@code c·CPU + d·Disk + n·Net}
 *     for the {@code hungarian} assigner, or null for the plain locality cost
 * @param exactMaxTasks the largest job {@code exact} accepts
 * @param flowFirstOfLeast {@code flow} keeps the first threshold of least makespan (the paper's rule)
 *     instead of the cheapest of them
 */
public final class AssignerOptions {
  private final long seed;
  private final int lablThreshold;
  private final SongWeights songWeights;
  private final int exactMaxTasks;
  private final boolean flowFirstOfLeast;

  public AssignerOptions(long seed, int lablThreshold, SongWeights songWeights, int exactMaxTasks,
      boolean flowFirstOfLeast) {
    if (lablThreshold < LABL_ALWAYS) {
      throw new IllegalArgumentException("labl threshold must be 'always' or >= 0, got " + lablThreshold);
    }
    if (exactMaxTasks < 1 || exactMaxTasks > 20) {
      throw new IllegalArgumentException("exact max tasks must be in 1..20, got " + exactMaxTasks);
    }
    this.seed = seed;
    this.lablThreshold = lablThreshold;
    this.songWeights = songWeights;
    this.exactMaxTasks = exactMaxTasks;
    this.flowFirstOfLeast = flowFirstOfLeast;
  }

  public long seed() {
    return seed;
  }

  public int lablThreshold() {
    return lablThreshold;
  }

  public SongWeights songWeights() {
    return songWeights;
  }

  public int exactMaxTasks() {
    return exactMaxTasks;
  }

  public boolean flowFirstOfLeast() {
    return flowFirstOfLeast;
  }

  public static final int LABL_ALWAYS = -1;

  public static AssignerOptions defaults() {
    return new AssignerOptions(1L, 0, null, 14, false);
  }

  public AssignerOptions withSeed(long s) {
    return new AssignerOptions(s, lablThreshold, songWeights, exactMaxTasks, flowFirstOfLeast);
  }

  public AssignerOptions withLablThreshold(int t) {
    return new AssignerOptions(seed, t, songWeights, exactMaxTasks, flowFirstOfLeast);
  }

  public AssignerOptions withSongWeights(SongWeights w) {
    return new AssignerOptions(seed, lablThreshold, w, exactMaxTasks, flowFirstOfLeast);
  }

  public AssignerOptions withFlowFirstOfLeast(boolean first) {
    return new AssignerOptions(seed, lablThreshold, songWeights, exactMaxTasks, first);
  }

  /** Non-negative weights of CPU, disk and network in Song et al.'s task cost. */
  public static final class SongWeights {
    private final long cpu;
    private final long disk;
    private final long net;

    public SongWeights(long cpu, long disk, long net) {
      if (cpu < 0 || disk < 0 || net < 0) {
        throw new IllegalArgumentException("song weights must be >= 0");
      }
      this.cpu = cpu;
      this.disk = disk;
      this.net = net;
    }

    public long cpu() {
      return cpu;
    }

    public long disk() {
      return disk;
    }

    public long net() {
      return net;
    }

    @Override
    public boolean equals(Object o) {
      if (o == this) {
        return true;
      }
      if (!(o instanceof SongWeights)) {
        return false;
      }
      SongWeights that = (SongWeights) o;
      return cpu == that.cpu
          && disk == that.disk
          && net == that.net;
    }

    @Override
    public int hashCode() {
      return Objects.hash(cpu, disk, net);
    }

    @Override
    public String toString() {
      return "SongWeights[cpu=" + cpu
          + ", disk=" + disk
          + ", net=" + net + "]";
    }
  }

  @Override
  public boolean equals(Object o) {
    if (o == this) {
      return true;
    }
    if (!(o instanceof AssignerOptions)) {
      return false;
    }
    AssignerOptions that = (AssignerOptions) o;
    return seed == that.seed
        && lablThreshold == that.lablThreshold
        && Objects.equals(songWeights, that.songWeights)
        && exactMaxTasks == that.exactMaxTasks
        && flowFirstOfLeast == that.flowFirstOfLeast;
  }

  @Override
  public int hashCode() {
    return Objects.hash(seed, lablThreshold, songWeights, exactMaxTasks, flowFirstOfLeast);
  }

  @Override
  public String toString() {
    return "AssignerOptions[seed=" + seed
        + ", lablThreshold=" + lablThreshold
        + ", songWeights=" + songWeights
        + ", exactMaxTasks=" + exactMaxTasks
        + ", flowFirstOfLeast=" + flowFirstOfLeast + "]";
  }
}
