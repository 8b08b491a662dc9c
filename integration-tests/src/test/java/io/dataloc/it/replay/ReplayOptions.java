package io.dataloc.it.replay;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@code bin/dataloc-replay}'s options (its {@code --help} says what each is), each bounded, a bad one named. */
public record ReplayOptions(Path trace, int fromHour, int toHour, int nodes, int racks,
    List<String> schedulers, long seed, Path out, double amPercent, double drainSeconds, double quantum,
    ClusterModel.Constants constants, java.util.Map<String, String> dataloc, java.util.Map<String, String> capacity,
    Set<String> follow) {

  /** Bound on the jobs {@code --follow} may name. */
  public static final int MAX_FOLLOWED = 100;

  public static final Set<String> SCHEDULERS = Set.of("dataloc", "capacity", "capacity-tuned", "capacity-dataloc",
      "fair");

  public static ReplayOptions parse(String[] args) {
    Map<String, String> m = new HashMap<>();
    Set<String> known = Set.of("trace", "hours", "nodes", "racks", "schedulers", "seed", "out", "am-percent",
        "drain-hours", "quantum", "nic-mbit", "oversubscription", "trace-nodes", "cpu-spread", "shuffle-copies", "dataloc",
        "capacity", "follow");
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (!a.startsWith("--") || !known.contains(a.substring(2))) {
        throw new IllegalArgumentException("unknown option '" + a + "'");
      }
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException(a + " needs a value");
      }
      m.put(a.substring(2), args[++i]);
    }
    Path trace = Path.of(m.getOrDefault("trace", "examples/swim/FB-2010_samples_24_times_1hr_withInputPaths_0.tsv"));
    String[] hours = m.getOrDefault("hours", "1-1").split("-");
    int from = intIn("hours", hours[0], 1, 10_000);
    int to = hours.length > 1 ? intIn("hours", hours[1], from, 10_000) : from;
    int nodes = intIn("nodes", m.getOrDefault("nodes", "100"), 2, 5000);
    int racks = intIn("racks", m.getOrDefault("racks", Integer.toString(Math.max(1, (nodes + 39) / 40))), 1, nodes);
    List<String> schedulers = List.of(m.getOrDefault("schedulers",
        "dataloc,capacity,capacity-tuned,capacity-dataloc,fair").split(","));
    for (String s : schedulers) {
      if (!SCHEDULERS.contains(s)) {
        throw new IllegalArgumentException("--schedulers: unknown scheduler '" + s + "' (one of " + SCHEDULERS + ")");
      }
    }
    long seed;
    try {
      seed = Long.parseLong(m.getOrDefault("seed", "1").trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--seed: not a whole number: '" + m.get("seed") + "'");
    }
    double am = doubleIn("am-percent", m.getOrDefault("am-percent", "0.1"), 1e-6, 1);
    double drain = doubleIn("drain-hours", m.getOrDefault("drain-hours", "2"), 0, 48) * 3600;
    double quantum = doubleIn("quantum", m.getOrDefault("quantum", "0.1"), 0, 1);
    double nic = doubleIn("nic-mbit", m.getOrDefault("nic-mbit", "1000"), 100, 100_000) * 1e6 / 8;
    int over = intIn("oversubscription", m.getOrDefault("oversubscription", "4"), 1, 64);
    int traceNodes = intIn("trace-nodes", m.getOrDefault("trace-nodes", "3000"), 1, 1_000_000);
    ClusterModel.Constants d = ClusterModel.Constants.defaults();
    double cpuSpread = doubleIn("cpu-spread", m.getOrDefault("cpu-spread", String.valueOf(d.cpuSpread())), 0, 0.9);
    int copies = intIn("shuffle-copies", m.getOrDefault("shuffle-copies", String.valueOf(d.shuffleCopies())), 1, 5000);
    ClusterModel.Constants k = d.withNetwork(nic, over).withTraceNodes(traceNodes).withCpuSpread(cpuSpread)
        .withShuffleCopies(copies);
    return new ReplayOptions(trace, from, to, nodes, racks, schedulers, seed,
        Path.of(m.getOrDefault("out", "target/replay")), am, drain, quantum, k, datalocSettings(m.getOrDefault("dataloc", "")),
        capacitySettings(m.getOrDefault("capacity", "")), follow(m.getOrDefault("follow", "")));
  }

  /** {@code --follow JOB,...}: the trace's job names (as in the jobs CSV), at most {@link #MAX_FOLLOWED}. */
  static Set<String> follow(String v) {
    Set<String> out = new java.util.TreeSet<>();
    for (String job : v.split(",")) {
      if (job.isBlank()) {
        continue;
      }
      if (!job.matches("[A-Za-z0-9_.-]{1,64}")) {
        throw new IllegalArgumentException("--follow: expected job names such as job12 (letters, digits and ._-), not '"
            + job + "'");
      }
      out.add(job);
    }
    if (out.size() > MAX_FOLLOWED) {
      throw new IllegalArgumentException("--follow: " + out.size() + " jobs named; at most " + MAX_FOLLOWED);
    }
    return out;
  }

  /** {@code KEY=VALUE,...}: Dataloc's settings without their {@code yarn.scheduler.dataloc.} prefix (checked by Dataloc at start). */
  public static java.util.Map<String, String> datalocSettings(String v) {
    return settings("dataloc", v);
  }

  /** {@code KEY=VALUE,...}: the CapacityScheduler's settings without their {@code yarn.scheduler.capacity.} prefix. */
  public static java.util.Map<String, String> capacitySettings(String v) {
    return settings("capacity", v);
  }

  /**
   * {@code KEY=VALUE,...} of option {@code --option}: settings without their {@code
   * yarn.scheduler.OPTION.} prefix (checked by the scheduler at start).
   */
  static java.util.Map<String, String> settings(String option, String v) {
    java.util.Map<String, String> out = new java.util.TreeMap<>();
    for (String kv : v.split(",")) {
      if (kv.isBlank()) {
        continue;
      }
      int eq = kv.indexOf('=');
      if (eq <= 0 || !kv.substring(0, eq).matches("[a-z][a-z0-9.-]*")) {
        throw new IllegalArgumentException("--" + option + ": expected KEY=VALUE[,KEY=VALUE...], not '" + kv + "'");
      }
      out.put(kv.substring(0, eq), kv.substring(eq + 1));
    }
    return out;
  }

  private static int intIn(String key, String v, int lo, int hi) {
    try {
      int x = Integer.parseInt(v.trim());
      if (x < lo || x > hi) {
        throw new IllegalArgumentException("--" + key + ": " + x + " is outside " + lo + ".." + hi);
      }
      return x;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--" + key + ": not a whole number: '" + v + "'");
    }
  }

  private static double doubleIn(String key, String v, double lo, double hi) {
    try {
      double x = Double.parseDouble(v.trim());
      if (!(x >= lo && x <= hi)) {
        throw new IllegalArgumentException("--" + key + ": " + x + " is outside " + lo + ".." + hi);
      }
      return x;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--" + key + ": not a number: '" + v + "'");
    }
  }
}
