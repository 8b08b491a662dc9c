package io.dataloc.core.online;

import io.dataloc.core.jobs.JobView;
import io.dataloc.core.model.Level;
import java.util.SplittableRandom;

/**
 * What an online policy reads of the cluster and the tasks (the engine's state implements it): hosts
 * by index with their racks, slots and liveness; tasks by number with their replicas, their job
 * and whether they are queued; the job ordering; the seeded random source. Read-only: a policy
 * changes only its own queues. Keeps the {@code online} package free of the engine's.
 */
public interface PolicyState {
  /** A host whose rack is unknown. */
  int NO_RACK = -1;

  int hostCount();

  boolean alive(int host);

  int slots(int host);

  /** Running tasks away from their data that may read a block from this host (its link's reads). */
  int readsOut(int host);

  /** The host's rack index, or {@link #NO_RACK}. */
  int rackOf(int host);

  /** Task numbers in use are below this. */
  int taskCount();

  /** The hosts holding the task's data (engine host indexes). */
  int[] replicas(int task);

  boolean queued(int task);

  /** When the task last became queued (virtual time, ticks). */
  long queuedAt(int task);

  /** The engine's virtual time now (ticks). */
  long now();

  /** Bumped each time the task number is reused, so a stale queue entry is told from a live one. */
  int generation(int task);

  /** The locality level of running {@code task} on {@code host}. */
  Level level(int task, int host);

  /** The job a task belongs to. */
  JobView job(int task);

  /** Which job a free slot serves first: higher application priority, then the job ordering. */
  int compareJobs(JobView a, JobView b);

  /** The engine's seeded random source (ties). */
  SplittableRandom random();
}
