package io.dataloc.sim.offline;

import io.dataloc.core.model.Assignment;
import io.dataloc.core.model.Evaluation;
import io.dataloc.core.model.LowerBounds;
import io.dataloc.core.model.Problem;
import io.dataloc.core.offline.Assigner;
import io.dataloc.core.offline.AssignerOptions;
import io.dataloc.core.offline.Assigners;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/** Shared helpers for the offline experiments: seeds, timed runs, means by key. */
final class OfflineRuns {
  private OfflineRuns() {}

  /** A deterministic seed for one point of an experiment, derived from the base seed. */
  static long seed(long base, long... coordinates) {
    long s = base;
    for (long c : coordinates) {
      s = new SplittableRandom(s * 31 + c).nextLong();
    }
    return s;
  }

  /** One timed plan. */
  record Run(String algorithm, Evaluation eval, long lowerBound, double planMillis) {}

  static Run run(String algorithm, Problem p, long lowerBound, long seed) {
    Assigner a = Assigners.create(algorithm, AssignerOptions.defaults().withSeed(seed));
    long t0 = System.nanoTime();
    Assignment as = a.assign(p);
    double ms = (System.nanoTime() - t0) / 1e6;
    return new Run(algorithm, Evaluation.of(p, as, lowerBound), lowerBound, ms);
  }

  static long lowerBound(Problem p) {
    return LowerBounds.of(p).best();
  }

  /** Running means grouped by a key. */
  static final class Means {
    private final Map<String, double[]> sums = new LinkedHashMap<>();

    void add(String key, double... values) {
      double[] s = sums.computeIfAbsent(key, k -> new double[values.length + 1]);
      for (int i = 0; i < values.length; i++) {
        s[i] += values[i];
      }
      s[values.length]++;
    }

    double mean(String key, int i) {
      double[] s = sums.get(key);
      return s == null ? Double.NaN : s[i] / s[s.length - 1];
    }

    List<String> keys() {
      return new ArrayList<>(sums.keySet());
    }
  }
}
