package io.dataloc.it.replay;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Synthetic workloads beside the trace, in its terms (bytes as on a 3,000-node cluster, scaled
 * like it): {@code uniform}, every job reading a file of its own, and {@code zipf}, jobs reading
 * one of 100 paths with Zipf popularity (exponent 1: the most popular path is read by a fifth of
 * the jobs), so hot data is the rule. Jobs arrive as a Poisson process, 1,000 an hour (the
 * Facebook sample's rate); input sizes are log-uniform from one block to 10,000 blocks on the
 * 3,000-node cluster (mostly small jobs, as in the trace); half the jobs shuffle a quarter of
 * their input; output is a tenth of it. Seeded: the same seed gives the same jobs.
 */
public final class SyntheticTrace {
  private SyntheticTrace() {}

  private static final int PATHS = 100;
  private static final double JOBS_PER_HOUR = 1000;

  /** The jobs of hours {@code fromHour}..{@code toHour}, submit times from the start of {@code fromHour}. */
  public static List<SwimTrace.Job> generate(String kind, int fromHour, int toHour, long seed) {
    if (!kind.equals("uniform") && !kind.equals("zipf")) {
      throw new IllegalArgumentException("--trace: a file, or 'uniform' or 'zipf', not '" + kind + "'");
    }
    SplittableRandom rnd = new SplittableRandom(seed * 7919 + kind.hashCode());
    double[] cumulative = new double[PATHS];
    double sum = 0;
    for (int p = 0; p < PATHS; p++) {
      sum += 1.0 / (p + 1);
      cumulative[p] = sum;
    }
    long block = 128L << 20;
    List<SwimTrace.Job> out = new ArrayList<>();
    double t = 0;
    int n = 0;
    double end = 3600.0 * toHour;
    while (true) {
      t += -Math.log(1 - rnd.nextDouble()) * 3600 / JOBS_PER_HOUR;
      if (t >= end) {
        return out;
      }
      double blocks = Math.exp(rnd.nextDouble() * Math.log(10_000));
      long input = (long) (blocks * block);
      long shuffle = rnd.nextBoolean() ? input / 4 : 0;
      String path;
      if (kind.equals("uniform")) {
        path = "uniform-" + n;
      } else {
        double u = rnd.nextDouble() * sum;
        int p = 0;
        while (cumulative[p] < u) {
          p++;
        }
        path = "zipf-" + p;
      }
      if (t >= 3600.0 * (fromHour - 1)) {
        out.add(new SwimTrace.Job("job" + n, (long) (t - 3600.0 * (fromHour - 1)), input, shuffle, input / 10, path));
      }
      n++;
    }
  }
}
