package io.dataloc.core.jobs;

/**
 * Which job's task a free slot serves first, among jobs with something to run there. An ordering
 * is a total order at a given time (ties end by job index), so decisions are deterministic.
 */
public interface JobOrdering {
  String name();

  /** Negative if {@code a} goes before {@code b} at time {@code now}. */
  int compare(JobView a, JobView b, long now, UserUsage usage);

  /**
   * Whether a job past its maps gives up its precedence beyond an equal share ({@link
   * EqualShare#yields}): true unless arrival alone decides, as under FIFO, where the first job
   * keeps its precedence whatever it holds.
   */
  boolean sharesLastPhase();

  /** Work consumed so far per user (for orderings that share across users). */
  interface UserUsage {
    long totalTime(String user);
  }
}
