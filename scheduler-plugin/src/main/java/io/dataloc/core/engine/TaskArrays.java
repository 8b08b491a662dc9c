package io.dataloc.core.engine;

/**
 * Empty per-task arrays for {@code capacity} tasks, to be {@linkplain EngineState#adopt adopted} later:
 * allocating (and zeroing) them takes far longer than copying into them, so a caller about to
 * add many tasks allocates them first without the engine's lock.
 */
public final class TaskArrays {
  final JobState[] job;
  final int[][] replicas;
  final int[] indexInJob;
  final TaskState[] state;
  final int[] host;
  final long[] queuedAt;
  final int[] generation;

  public TaskArrays(int capacity) {
    job = new JobState[capacity];
    replicas = new int[capacity][];
    indexInJob = new int[capacity];
    state = new TaskState[capacity];
    host = new int[capacity];
    queuedAt = new long[capacity];
    generation = new int[capacity];
  }
}
