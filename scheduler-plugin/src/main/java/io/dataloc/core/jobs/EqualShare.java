package io.dataloc.core.jobs;

/**
 * Whether a job holds more than an equal share of the cluster, or stands in the way of a job of a
 * higher priority that waits for maps, and so loses the precedence its last phase otherwise has.
 *
 * <p><b>The rule.</b> A job whose maps all run or are done asks for what finishes it (its
 * reduces). Serving that before the maps of other jobs ends it sooner, and for the many small
 * jobs of a production mix (one map, one reduce) it is the shortest-remaining-work rule. A job that
 * holds more than {@code total / jobs} of the cluster ({@code jobs} the applications that share
 * it) keeps no such precedence: its last phase is served after the other jobs' maps, and still
 * takes any room they leave, so the rule is work-conserving. Without the cap a large job's
 * reduces, asked for as its maps end, take every slot that frees, one after another, and a job
 * that arrives meanwhile waits for a slot until the shuffle ends; the FairScheduler gives a freed
 * container to the application furthest below its share, which this cap approximates with the
 * equal share alone (no weights, no minimum shares).
 *
 * <p><b>Priorities.</b> Only a job of the lowest application priority among the running ones
 * yields ({@link #yields}): a job that yields lets every job's maps go ahead of it, and none of
 * those may rank below it. Its share is counted among the jobs of that priority; and while a job
 * of a higher priority asks for maps, it yields whatever it holds, so that job's maps are served
 * first, as the CapacityScheduler serves a queue's applications in priority order (otherwise a job
 * alone at the lowest priority, its equal share the whole cluster, would take every slot that
 * frees for its reduces while the higher job's maps wait). Meanwhile the maps of jobs of its own
 * priority go ahead of it too, even within its share. A job between two priorities never yields
 * (the jobs below it would go ahead): its reduces still come before a higher job's maps. Where no
 * job sets a priority, every job is of the lowest.
 *
 * <p><b>Exactness.</b> {@code held · jobs > total} is decided as {@code held > ⌊total / jobs⌋},
 * which is the same in integers (if {@code held ≥ ⌊total / jobs⌋ + 1} then {@code held · jobs >
 * total}; if not, {@code held · jobs ≤ total}) and cannot overflow. Nothing is over its share
 * while it holds nothing, or when it is the only job.
 */
public final class EqualShare {
  private EqualShare() {}

  /**
   * Whether a job past its maps of application priority {@code priority}, holding {@code held} of
   * {@code total}, yields its precedence: it is of the lowest priority among the running jobs
   * ({@code lowestPriority}) and holds something while a job of a higher priority asks for maps
   * ({@code higherWantsMaps}), or more than an equal share among the {@code jobsAtLowest} jobs of
   * that priority.
   */
  public static boolean yields(long held, long total, int priority, int lowestPriority, int jobsAtLowest,
      boolean higherWantsMaps) {
    return priority <= lowestPriority && (held > 0 && higherWantsMaps || over(held, total, jobsAtLowest));
  }

  /**
   * Whether {@code held} of {@code total} (one unit, e.g. MB) is more than an equal share among
   * {@code jobs} applications.
   */
  public static boolean over(long held, long total, int jobs) {
    if (held <= 0 || jobs <= 1) {
      return false;
    }
    return total < 0 || held > total / jobs;
  }
}
