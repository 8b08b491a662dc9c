package io.dataloc.core.workload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Seeded cluster topologies (host → rack) and split placements (each split's hosts): the one
 * workload source of the MockRM tests, the RM benchmark and the simulator's plan-mode runs.
 */
public final class Scenarios {
  private Scenarios() {}

  /** Hosts h1..hn, the first half on /r1, the rest on /r2. */
  public static Map<String, String> twoRacks(int hosts) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 1; i <= hosts; i++) {
      m.put("h" + i, i <= (hosts + 1) / 2 ? "/r1" : "/r2");
    }
    return m;
  }

  /** Hosts h1..hn on racks of {@code perRack} hosts each (/r1, /r2, ...). */
  public static Map<String, String> racks(int hosts, int perRack) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 1; i <= hosts; i++) {
      m.put("h" + i, "/r" + (1 + (i - 1) / perRack));
    }
    return m;
  }

  /**
   * HDFS's default block placement: the first replica on a random host, the second on a host of
   * another rack, the third on another host of the second's rack.
   */
  public static List<List<String>> hdfs(int splits, Map<String, String> topology, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    List<String> hosts = new ArrayList<>(topology.keySet());
    Map<String, List<String>> byRack = new LinkedHashMap<>();
    topology.forEach((h, r) -> byRack.computeIfAbsent(r, k -> new ArrayList<>()).add(h));
    List<List<String>> out = new ArrayList<>(splits);
    for (int s = 0; s < splits; s++) {
      String first = hosts.get(rnd.nextInt(hosts.size()));
      List<String> reps = new ArrayList<>(List.of(first));
      if (byRack.size() > 1) {
        String second;
        do {
          second = hosts.get(rnd.nextInt(hosts.size()));
        } while (topology.get(second).equals(topology.get(first)));
        reps.add(second);
        List<String> rack = byRack.get(topology.get(second));
        if (rack.size() > 1) {
          String third;
          do {
            third = rack.get(rnd.nextInt(rack.size()));
          } while (third.equals(second));
          reps.add(third);
        }
      }
      out.add(reps);
    }
    return out;
  }

  /** Every split on {@code replicas} distinct hosts drawn uniformly. */
  public static List<List<String>> spread(int splits, int hosts, int replicas, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    List<List<String>> out = new ArrayList<>();
    for (int s = 0; s < splits; s++) {
      out.add(pick(rnd, hosts, replicas, hosts));
    }
    return out;
  }

  /** Most splits (80%) only on the first {@code hot} hosts. */
  public static List<List<String>> skewed(int splits, int hosts, int hot, int replicas, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    List<List<String>> out = new ArrayList<>();
    for (int s = 0; s < splits; s++) {
      out.add(rnd.nextInt(10) < 8 ? pick(rnd, hot, Math.min(replicas, hot), hosts) : pick(rnd, hosts, replicas, hosts));
    }
    return out;
  }

  private static List<String> pick(SplittableRandom rnd, int pool, int k, int hosts) {
    List<String> hs = new ArrayList<>();
    while (hs.size() < k) {
      String h = "h" + (1 + rnd.nextInt(pool));
      if (!hs.contains(h)) {
        hs.add(h);
      }
    }
    return hs;
  }
}
