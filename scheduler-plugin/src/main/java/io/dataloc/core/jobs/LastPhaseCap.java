package io.dataloc.core.jobs;

import io.dataloc.core.model.Units;

/**
 * Whether a job holds too much of the cluster to take more containers for its last phase (the
 * requests other than its maps and its AM: a MapReduce job's reduces), even where one is free. Only
 * a job with a map phase has a last phase: an application that never asks for maps (Spark's
 * executors, Tez's tasks) is not a job here.
 *
 * <p><b>The problem.</b> A large job asks for its reduces as its maps end (MapReduce's slow-start
 * and ramp-up) and, with no other job asking at that moment, a work-conserving scheduler gives them
 * every slot that frees. They hold those slots through the shuffle, which on a busy network is
 * bound by the links, not by the number of reduces: a node's NIC carries the fetches of all the
 * reduces on it, so reduces beyond those that fill the links add no speed. A job that arrives
 * meanwhile finds no slot, and without preemption (the standalone scheduler has none) it waits for
 * the shuffle to end, tens of seconds for a job whose own work takes a few. {@link EqualShare}
 * cannot help: it orders the requests of jobs that wait, and here nobody waited when the reduces
 * were placed.
 *
 * <p><b>The rule.</b> While more than one application runs, a job of the lowest application
 * priority among them that holds more than a fraction {@code f} of the cluster, its AM container
 * aside, gets no container for its last phase; its maps and AM are not limited, and its last phase
 * resumes as soon as it holds {@code f} or less, or runs alone. The rule refuses new containers
 * only: what the job took while it ran alone it keeps. No job is stopped for good: its maps end
 * (the front end never holds back a retried map), and one whose maps are done and that runs
 * nothing of its last phase holds nothing that counts, so it gets a container. The rule is not work-conserving, by design: it keeps
 * {@code 1 − f} of the cluster out of one job's last phase for the jobs that arrive. The price is a
 * job whose last phase is bound by its reduces' CPU, not by the links, running on {@code f} of the
 * cluster while the rest idles; {@code f = 1} turns the rule off. In the replay of the Facebook 2010
 * trace on a busy cluster, {@code f = 1/2} made the mean job time 3–6% shorter on three block
 * placements and the jobs of more than 500 maps 0.5–2% longer ({@code docs/replay.md}).
 *
 * <p><b>Priorities.</b> As for {@link EqualShare}: a job of a higher priority than some running job
 * is never capped, so no job of lower priority takes what the rule holds back from it.
 *
 * <p><b>Exactness.</b> {@code held > f · total}, with {@code f} in thousandths ({@link Units}), is
 * decided as {@code held · 1000 > permille · total} on 128-bit products ({@link Math#multiplyHigh}),
 * exact for every pair of non-negative {@code long}s.
 */
public final class LastPhaseCap {
  private LastPhaseCap() {}

  /**
   * Whether a job of application priority {@code priority}, holding {@code held} of {@code total}
   * (one unit, e.g. MB; its AM container aside), takes no container for its last phase: more than one application runs
   * ({@code applications}), the job is of the lowest priority among them ({@code lowestPriority}),
   * and it holds more than {@code permille} thousandths of the total.
   */
  public static boolean capped(long held, long total, long permille, int priority, int lowestPriority,
      int applications) {
    return applications > 1 && priority <= lowestPriority && over(held, total, permille);
  }

  /**
   * Whether {@code held} is more than {@code permille} thousandths of {@code total} (both
   * non-negative); never for {@code permille} of a whole or more.
   */
  public static boolean over(long held, long total, long permille) {
    if (held < 0 || total < 0 || permille < 0) {
      throw new IllegalArgumentException("held, total and permille must not be negative: " + held + ", " + total
          + ", " + permille);
    }
    if (permille >= Units.SCALE) {
      return false;
    }
    return compare(held, Units.SCALE, permille, total) > 0;
  }

  /** Compares {@code a · b} with {@code c · d}, all non-negative, exactly. */
  static int compare(long a, long b, long c, long d) {
    int high = Long.compare(Math.multiplyHigh(a, b), Math.multiplyHigh(c, d));
    return high != 0 ? high : Long.compareUnsigned(a * b, c * d);
  }
}
