package io.dataloc.it;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/** Seeded cluster topologies and split placements shared by the MockRM tests. */
final class Scenarios {
  private Scenarios() {}

  /** Hosts h1..hn, the first half on /r1, the rest on /r2. */
  static Map<String, String> twoRacks(int hosts) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 1; i <= hosts; i++) {
      m.put("h" + i, i <= (hosts + 1) / 2 ? "/r1" : "/r2");
    }
    return m;
  }

  /** Every split on {@code replicas} distinct hosts drawn uniformly. */
  static List<List<String>> spread(int splits, int hosts, int replicas, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    List<List<String>> out = new ArrayList<>();
    for (int s = 0; s < splits; s++) {
      out.add(pick(rnd, hosts, replicas, hosts));
    }
    return out;
  }

  /** Most splits (80%) only on the first {@code hot} hosts. */
  static List<List<String>> skewed(int splits, int hosts, int hot, int replicas, long seed) {
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
