package io.dataloc.sim.online;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Wang et al.'s cluster and arrivals. 1,000 machines. <b>Uniform</b>: every chunk has 3 replicas
 * on distinct machines chosen uniformly among the first 800 ("data spread uniformly over 800 of
 * them"); no racks. <b>Hot spot</b>: 25 racks of 40 machines (machine i in rack i mod 25), and
 * each replica independently lands on one of the 150 hot machines (15%, spread over every rack)
 * with probability 0.8, else on any machine.
 *
 * <p>Arrivals: in every slot the number of jobs is Poisson with mean {@code λ / 10}, and each job
 * has a number of tasks uniform in 1…19 (mean 10), so tasks arrive at rate λ per slot. (The paper
 * mimics a production trace it does not publish; this keeps its total rate, its small jobs and
 * its burstiness.)
 */
public final class WangWorkload {
  public static final int MACHINES = 1000;
  public static final int DATA_MACHINES = 800;
  public static final int RACKS = 25;
  public static final int HOT = 150;
  private static final double MEAN_TASKS = 10;

  private final boolean hotspot;
  private final double lambda;
  private final SplittableRandom rnd;
  private long nextJob;

  public WangWorkload(boolean hotspot, double lambda, long seed) {
    this.hotspot = hotspot;
    this.lambda = lambda;
    this.rnd = new SplittableRandom(seed);
  }

  private static final String[] NAMES = new String[MACHINES];

  static {
    for (int i = 0; i < MACHINES; i++) {
      NAMES[i] = "m" + i;
    }
  }

  public static String host(int i) {
    return NAMES[i];
  }

  /** The rack of machine i in the hot-spot cluster, or null for the uniform one. */
  public static String rack(boolean hotspot, int i) {
    return hotspot ? "/rack" + (i % RACKS) : null;
  }

  public List<SlottedSimulator.Arrival> arrivals(int slot) {
    int jobs = poisson(rnd, lambda / MEAN_TASKS);
    List<SlottedSimulator.Arrival> out = new ArrayList<>(jobs);
    for (int j = 0; j < jobs; j++) {
      int tasks = 1 + rnd.nextInt(19);
      List<List<String>> reps = new ArrayList<>(tasks);
      for (int t = 0; t < tasks; t++) {
        reps.add(replicas());
      }
      long id = nextJob++;
      out.add(new SlottedSimulator.Arrival(id, "u" + (id % 4), reps));
    }
    return out;
  }

  private List<String> replicas() {
    int[] pick = new int[3];
    for (int i = 0; i < 3; i++) {
      int m;
      boolean dup;
      do {
        if (!hotspot) {
          m = rnd.nextInt(DATA_MACHINES);
        } else if (rnd.nextInt(10) < 8) {
          m = hotMachine(rnd.nextInt(HOT));
        } else {
          m = rnd.nextInt(MACHINES);
        }
        dup = false;
        for (int k = 0; k < i; k++) {
          dup |= pick[k] == m;
        }
      } while (dup);
      pick[i] = m;
    }
    return List.of(host(pick[0]), host(pick[1]), host(pick[2]));
  }

  /** The k-th hot machine: every 1000/150-th machine, so hot machines sit in every rack. */
  static int hotMachine(int k) {
    return (int) ((long) k * MACHINES / HOT);
  }

  /** A Poisson draw of the given mean from {@code rnd} (Knuth's method, in chunks of at most 30). */
  static int poisson(SplittableRandom rnd, double mean) {
    int n = 0;
    double remaining = mean;
    while (remaining > 0) {
      double m = Math.min(30, remaining);
      remaining -= m;
      double limit = Math.exp(-m);
      double p = rnd.nextDouble();
      while (p > limit) {
        n++;
        p *= rnd.nextDouble();
      }
    }
    return n;
  }
}
