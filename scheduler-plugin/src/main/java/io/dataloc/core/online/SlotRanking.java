package io.dataloc.core.online;

import io.dataloc.core.jobs.JobView;
import java.util.Set;

/**
 * What one free slot's picks may still choose, ranked once: for each of a policy's levels (for
 * break-even: the host's list, its rack's, the cluster's), every job's candidate task, first job
 * in the engine's order first.
 *
 * <p><b>Why.</b> When a proposal is refused, the front end asks again with the refused job excluded,
 * and may do so hundreds of times for one slot (on a busy cluster, the plan's non-local decline
 * refuses task after task that waited past break-even). A scan of every job per proposal then costs
 * {@code O(jobs · proposals)} under the scheduler's lock. Within a slot only the excluded jobs'
 * tasks change and the excluded set only grows, so the answer to each later pick is the first
 * ranked candidate whose job is not excluded, and a candidate skipped once is never the answer
 * again: one ranking, {@code O(jobs · log jobs)}, and a cursor per level that only moves forward
 * serve every pick of the slot.
 */
final class SlotRanking {
  private final int host;
  private final int[][] ranked;
  private final int[] next;

  /** {@code ranked[level]}: candidate tasks, in the job order ({@link JobLists#ranked}). */
  SlotRanking(int host, int[][] ranked) {
    this.host = host;
    this.ranked = ranked;
    this.next = new int[ranked.length];
  }

  int host() {
    return host;
  }

  /** The first candidate at {@code level} whose job is not excluded, or -1. */
  int first(int level, PolicyState s, Set<JobView> excluded) {
    int[] r = ranked[level];
    int i = next[level];
    while (i < r.length && excluded.contains(s.job(r[i]))) {
      i++;
    }
    next[level] = i;
    return i < r.length ? r[i] : -1;
  }
}
