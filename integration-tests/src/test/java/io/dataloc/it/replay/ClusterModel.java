package io.dataloc.it.replay;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The simulated cluster: hosts on racks, where each input file's blocks live, and the links a read
 * crosses. Every constant is in {@link Constants} and in {@code docs/replay.md}.
 *
 * <p>Hosts {@code h1..hN} fill racks {@code /r1..} in order. Each host has a NIC link each way;
 * each rack an uplink each way to the core, of {@code hostsPerRack × nic / oversubscription}. A
 * read from host s to host d crosses s's NIC out and d's NIC in, and, across racks, s's rack
 * uplink out and d's rack uplink in. Blocks are placed as HDFS's default policy places a file
 * written from outside the cluster: the first replica on a random host, the second on a host of
 * another rack, the third on another host of the second's rack. A file (one per input path of the
 * trace) is placed once per seed, block by block as jobs read further into it, so jobs that read
 * one path read the same blocks.
 */
public final class ClusterModel {
  /**
   * The model's constants (rates in bytes per second, sizes in bytes, times in seconds).
   *
   * @param blockBytes HDFS block: one map per block ({@code dfs.blocksize}'s default, 128 MiB)
   * @param nicRate each host's NIC, each way (1 Gbit/s)
   * @param oversubscription rack uplink = hosts per rack × NIC / this (4:1)
   * @param diskRate a data-local map's read (one disk's sequential rate, not shared)
   * @param mapCpuRate bytes a map's function processes per second
   * @param reduceCpuRate bytes a reduce's function processes per second
   * @param writeRate output written per second per task (local disk)
   * @param amStartSeconds from an AM's container to its first ask (JVM start, registration)
   * @param taskStartSeconds from a task's container to its first read (JVM start)
   * @param bytesPerReduce shuffle bytes per reduce (Hive's classic 1 GB per reducer), at most 999 reduces
   * @param slowStart fraction of maps done before reduces are asked (MapReduce's default 0.05)
   * @param nodeMb memory per NodeManager (8 containers of 1 GB; an AM, like a task, takes one)
   * @param traceNodes the size of the cluster the trace came from (bytes are scaled by nodes / this)
   * @param sharedCores 0: every host has CPU of its own and a JVM starts in its start time; else the
   *     whole cluster shares this many cores (every "host" a process on one machine, as on the
   *     namespaced cluster), and each JVM start is that many core-seconds of work, at most one core
   *     each, the cores shared max-min fairly among the starts under way
   * @param cpuSpread each map's processing time is scaled by its own factor, uniform in {@code [1 -
   *     cpuSpread, 1 + cpuSpread]} ({@link ClusterModel#cpuFactor}), as map times vary on a real
   *     cluster (0.2); 0: every map of a job processes its bytes at {@code mapCpuRate}, and a large
   *     job's maps on their data start and end in waves
   * @param shuffleCopies a reduce fetches from at most this many hosts at once, one flow each
   *     ({@code mapreduce.reduce.shuffle.parallelcopies}'s default, 5), the next host as one ends
   */
  public record Constants(long blockBytes, double nicRate, int oversubscription, double diskRate,
      double mapCpuRate, double reduceCpuRate, double writeRate, double amStartSeconds, double taskStartSeconds,
      long bytesPerReduce, double slowStart, int nodeMb, int traceNodes, double sharedCores, double cpuSpread,
      int shuffleCopies) {
    public Constants {
      if (shuffleCopies < 1) {
        throw new IllegalArgumentException("shuffleCopies must be at least 1, not " + shuffleCopies);
      }
    }

    public static Constants defaults() {
      return new Constants(128L << 20, 125e6, 4, 100e6, 50e6, 50e6, 100e6, 2, 1, 1L << 30, 0.05, 8192,
          3000, 0, 0.2, 5);
    }

    /** These constants with each reduce fetching from at most {@code copies} hosts at once ({@code shuffleCopies}). */
    public Constants withShuffleCopies(int copies) {
      return toBuilder().shuffleCopies(copies).build();
    }

    /** These constants with another network: each host's NIC and the rack uplinks' oversubscription. */
    public Constants withNetwork(double nic, int oversubscribed) {
      return toBuilder().nicRate(nic).oversubscription(oversubscribed).build();
    }

    /** These constants with the trace's bytes scaled from a cluster of {@code nodes} ({@code traceNodes}). */
    public Constants withTraceNodes(int nodes) {
      return toBuilder().traceNodes(nodes).build();
    }

    /** These constants with each map's processing time spread by {@code spread} ({@code cpuSpread}). */
    public Constants withCpuSpread(double spread) {
      return toBuilder().cpuSpread(spread).build();
    }

    /** A builder that starts from these constants, to change any of them by name. */
    public Builder toBuilder() {
      return new Builder(this);
    }

    /** Constants changed by name from a starting set ({@link Constants#toBuilder}); each setter names its component. */
    public static final class Builder {
      private long blockBytes;
      private double nicRate;
      private int oversubscription;
      private double diskRate;
      private double mapCpuRate;
      private double reduceCpuRate;
      private double writeRate;
      private double amStartSeconds;
      private double taskStartSeconds;
      private long bytesPerReduce;
      private double slowStart;
      private int nodeMb;
      private int traceNodes;
      private double sharedCores;
      private double cpuSpread;
      private int shuffleCopies;

      private Builder(Constants c) {
        blockBytes = c.blockBytes;
        nicRate = c.nicRate;
        oversubscription = c.oversubscription;
        diskRate = c.diskRate;
        mapCpuRate = c.mapCpuRate;
        reduceCpuRate = c.reduceCpuRate;
        writeRate = c.writeRate;
        amStartSeconds = c.amStartSeconds;
        taskStartSeconds = c.taskStartSeconds;
        bytesPerReduce = c.bytesPerReduce;
        slowStart = c.slowStart;
        nodeMb = c.nodeMb;
        traceNodes = c.traceNodes;
        sharedCores = c.sharedCores;
        cpuSpread = c.cpuSpread;
        shuffleCopies = c.shuffleCopies;
      }

      public Builder blockBytes(long v) {
        blockBytes = v;
        return this;
      }

      public Builder nicRate(double v) {
        nicRate = v;
        return this;
      }

      public Builder oversubscription(int v) {
        oversubscription = v;
        return this;
      }

      public Builder diskRate(double v) {
        diskRate = v;
        return this;
      }

      public Builder mapCpuRate(double v) {
        mapCpuRate = v;
        return this;
      }

      public Builder reduceCpuRate(double v) {
        reduceCpuRate = v;
        return this;
      }

      public Builder writeRate(double v) {
        writeRate = v;
        return this;
      }

      public Builder amStartSeconds(double v) {
        amStartSeconds = v;
        return this;
      }

      public Builder taskStartSeconds(double v) {
        taskStartSeconds = v;
        return this;
      }

      public Builder bytesPerReduce(long v) {
        bytesPerReduce = v;
        return this;
      }

      public Builder slowStart(double v) {
        slowStart = v;
        return this;
      }

      public Builder nodeMb(int v) {
        nodeMb = v;
        return this;
      }

      public Builder traceNodes(int v) {
        traceNodes = v;
        return this;
      }

      public Builder sharedCores(double v) {
        sharedCores = v;
        return this;
      }

      public Builder cpuSpread(double v) {
        cpuSpread = v;
        return this;
      }

      public Builder shuffleCopies(int v) {
        shuffleCopies = v;
        return this;
      }

      public Constants build() {
        return new Constants(blockBytes, nicRate, oversubscription, diskRate, mapCpuRate, reduceCpuRate,
            writeRate, amStartSeconds, taskStartSeconds, bytesPerReduce, slowStart, nodeMb, traceNodes,
            sharedCores, cpuSpread, shuffleCopies);
      }
    }
  }

  public final Constants k;
  public final int nodes;
  public final int racks;
  private final long seed;
  private final Map<String, String> rackOf = new LinkedHashMap<>();
  private final Map<String, Integer> index = new HashMap<>();
  private final Map<String, List<List<String>>> files = new HashMap<>();
  private final Map<String, SplittableRandom> fileRandom = new HashMap<>();
  private final List<String> hosts = new ArrayList<>();
  private final List<List<String>> byRack = new ArrayList<>();

  public ClusterModel(int nodes, int racks, long seed, Constants k) {
    if (nodes < 1 || racks < 1 || racks > nodes) {
      throw new IllegalArgumentException("--nodes " + nodes + " --racks " + racks + ": need 1 <= racks <= nodes");
    }
    this.k = k;
    this.nodes = nodes;
    this.racks = racks;
    this.seed = seed;
    for (int r = 0; r < racks; r++) {
      byRack.add(new ArrayList<>());
    }
    for (int i = 0; i < nodes; i++) {
      String h = "h" + (i + 1);
      int r = (int) ((long) i * racks / nodes);
      rackOf.put(h, "/r" + (r + 1));
      index.put(h, i);
      hosts.add(h);
      byRack.get(r).add(h);
    }
  }

  /**
   * The factor by which map {@code task} of job {@code job} takes longer than {@code mapCpuRate}
   * says to process its bytes: exactly 1 when {@code cpuSpread} is 0, else uniform in {@code [1 -
   * cpuSpread, 1 + cpuSpread]}, drawn from the seed, the job's name and the task alone, so every
   * scheduler of a run sees the same task take the same time wherever it runs.
   */
  public double cpuFactor(String job, int task) {
    if (k.cpuSpread() == 0) {
      return 1;
    }
    long key = seed * 0x9E3779B97F4A7C15L + ((long) job.hashCode() << 32 ^ (task & 0xFFFFFFFFL));
    return 1 - k.cpuSpread() + 2 * k.cpuSpread() * new SplittableRandom(key).nextDouble();
  }

  /** The seed that placed the blocks (and orders the heartbeats of a replay). */
  public long seed() {
    return seed;
  }

  /** Host → rack, in host order. */
  public Map<String, String> topology() {
    return rackOf;
  }

  public List<String> hosts() {
    return hosts;
  }

  public String rackOf(String host) {
    return rackOf.get(host);
  }

  /**
   * Link capacities: host i's NIC out (2i) and in (2i+1), then rack r's uplink out (2N+2r) and in
   * (2N+2r+1), then, with shared cores, the cores ({@link #cpuLink}, in core-seconds per second).
   */
  public double[] linkCapacities() {
    double[] cap = new double[2 * nodes + 2 * racks + (k.sharedCores() > 0 ? 1 : 0)];
    if (k.sharedCores() > 0) {
      cap[cpuLink()] = k.sharedCores();
    }
    for (int i = 0; i < 2 * nodes; i++) {
      cap[i] = k.nicRate();
    }
    for (int r = 0; r < racks; r++) {
      double uplink = byRack.get(r).size() * k.nicRate() / k.oversubscription();
      cap[2 * nodes + 2 * r] = uplink;
      cap[2 * nodes + 2 * r + 1] = uplink;
    }
    return cap;
  }

  /** The links a transfer from {@code src} to {@code dst} crosses (none when they are one host). */
  public int[] path(String src, String dst) {
    int s = index.get(src);
    int d = index.get(dst);
    if (s == d) {
      return new int[0];
    }
    int rs = rackIndex(src);
    int rd = rackIndex(dst);
    if (rs == rd) {
      return new int[] {2 * s, 2 * d + 1};
    }
    return new int[] {2 * s, 2 * nodes + 2 * rs, 2 * nodes + 2 * rd + 1, 2 * d + 1};
  }

  /** Whether a link index is a rack uplink. */
  public boolean isUplink(int link) {
    return link >= 2 * nodes && link < 2 * nodes + 2 * racks;
  }

  /** The shared cores' "link" (only with {@link Constants#sharedCores} above 0): JVM starts flow over it. */
  public int cpuLink() {
    return 2 * nodes + 2 * racks;
  }

  private int rackIndex(String host) {
    return Integer.parseInt(rackOf.get(host).substring(2)) - 1;
  }

  /** Trace bytes scaled to this cluster (as SWIM scales a trace to a smaller cluster: by the ratio of sizes). */
  public long scale(long traceBytes) {
    return Math.round(traceBytes * ((double) nodes / k.traceNodes()));
  }

  /** Maps for scaled input bytes: one per block, at least one. */
  public int maps(long inputBytes) {
    return (int) Math.max(1, Math.min(100_000, (inputBytes + k.blockBytes() - 1) / k.blockBytes()));
  }

  /** Reduces for scaled shuffle bytes: none without a shuffle, else one per {@code bytesPerReduce}, 1..999. */
  public int reduces(long shuffleBytes) {
    return shuffleBytes == 0 ? 0 : (int) Math.max(1, Math.min(999, (shuffleBytes + k.bytesPerReduce() - 1)
        / k.bytesPerReduce()));
  }

  /**
   * Job {@code job}'s contention-free time (s) from scaled bytes: its AM start; its longest map
   * data-local on an idle node (JVM start, read, processing at its {@link #cpuFactor}, write); with
   * reduces, a reduce's JVM start, its fetch at one NIC's rate, processing and write. No scheduler
   * can beat it.
   */
  public double floor(String job, long input, long shuffle, long output, int maps, int reduces) {
    double map = 0;
    for (int t = 0; t < Math.max(1, maps); t++) {
      long block = Math.max(0, Math.min(k.blockBytes(), input - t * k.blockBytes()));
      map = Math.max(map, k.taskStartSeconds() + block / k.diskRate() + block / k.mapCpuRate() * cpuFactor(job, t));
      if (k.cpuSpread() == 0) {
        break; // the first block is the largest
      }
    }
    if (reduces == 0) {
      return k.amStartSeconds() + map + (double) output / maps / k.writeRate();
    }
    double perReduce = (double) shuffle / reduces;
    return k.amStartSeconds() + map + (double) shuffle / maps / k.writeRate() + k.taskStartSeconds()
        + perReduce / k.nicRate() + perReduce / k.reduceCpuRate() + (double) output / reduces / k.writeRate();
  }

  /**
   * Puts the file at {@code path} where a real cluster had it (one list of replica hosts per
   * block), instead of HDFS's default policy: the calibration replays a real run's input.
   */
  public void pin(String path, List<List<String>> blocks) {
    for (List<String> b : blocks) {
      if (b.isEmpty() || !index.keySet().containsAll(b)) {
        throw new IllegalArgumentException(path + ": a block on hosts the model does not have: " + b);
      }
    }
    files.put(path, new ArrayList<>(blocks));
    fileRandom.put(path, new SplittableRandom(seed * 1_000_003L + path.hashCode()));
  }

  /** The replica hosts of the first {@code blocks} blocks of the file at {@code path}. */
  public List<List<String>> blocks(String path, int blocks) {
    List<List<String>> file = files.computeIfAbsent(path, p -> new ArrayList<>());
    SplittableRandom rnd = fileRandom.computeIfAbsent(path, p -> new SplittableRandom(seed * 1_000_003L + p.hashCode()));
    while (file.size() < blocks) {
      file.add(place(rnd));
    }
    return List.copyOf(file.subList(0, blocks));
  }

  private List<String> place(SplittableRandom rnd) {
    String first = hosts.get(rnd.nextInt(nodes));
    List<String> reps = new ArrayList<>(List.of(first));
    if (racks == 1) {
      while (reps.size() < Math.min(3, nodes)) {
        String h = hosts.get(rnd.nextInt(nodes));
        if (!reps.contains(h)) {
          reps.add(h);
        }
      }
      return List.copyOf(reps);
    }
    int firstRack = rackIndex(first);
    int other = rnd.nextInt(racks - 1);
    other = other >= firstRack ? other + 1 : other;
    List<String> rack = byRack.get(other);
    String second = rack.get(rnd.nextInt(rack.size()));
    reps.add(second);
    if (rack.size() > 1) {
      String third;
      do {
        third = rack.get(rnd.nextInt(rack.size()));
      } while (third.equals(second));
      reps.add(third);
    }
    return List.copyOf(reps);
  }
}
