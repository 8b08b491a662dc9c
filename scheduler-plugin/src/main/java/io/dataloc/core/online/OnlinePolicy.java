package io.dataloc.core.online;

import io.dataloc.core.model.Level;
import java.util.Objects;

/**
 * An online policy: where a pending task waits, and what a host with a free slot runs next. The
 * engine owns task states; a policy owns its queues and indexes and must only hand out tasks that
 * are {@linkplain PolicyState#queued queued}. Policies are deterministic given the engine's seeded
 * random source and never read a clock.
 */
public interface OnlinePolicy {
  String name();

  /** Called once, before any other method. */
  void attach(PolicyState state, ServiceRates rates);

  /** Host h joined (or rejoined) the cluster. */
  default void hostAdded(int host) {}

  /** A task became pending with no plan: route it. */
  void route(int task);

  /**
   * A planned task: the offline plan put it on {@code host} at {@code level}. Queue-based policies
   * put local tasks in the host's local queue and the others where their model keeps remote work;
   * the default ignores the plan.
   */
  default void enqueuePlanned(int task, int host, Level level) {
    route(task);
  }

  /** The task left the pending set without running (its job was removed); forget it. */
  void removed(int task);

  /**
   * Host h has a free slot: the task to run there, or null to leave the slot idle. A proposal: it
   * changes nothing a later call sees (stale entries of lazy queues may go), so asking twice gives
   * the same answer; the task leaves its queues only when the engine commits it ({@link #taken}).
   */
  Pick pick(int host);

  /**
   * As {@link #pick(int)}, but never a task of the {@code excluded} jobs (the caller found they
   * cannot use this host now). The default ignores the exclusion; callers bound their retries.
   */
  default Pick pick(int host, java.util.Set<io.dataloc.core.jobs.JobView> excluded) {
    return pick(host);
  }

  /**
   * One free slot is served now, perhaps by several {@link #pick(int, java.util.Set)}s on one host,
   * each with the jobs excluded before and more; until {@link #endSlot} only the excluded jobs'
   * tasks change. A policy may remember what it found for the slot; the default remembers nothing.
   */
  default void beginSlot() {}

  /** The slot begun by {@link #beginSlot} is served or given up: forget what was remembered. */
  default void endSlot() {}

  /**
   * The task {@code job} would run in a free slot on {@code host}, or null: for a front end that
   * chose the job itself (the CapacityScheduler's queues choose it), asked on every visit, so it
   * changes nothing a later call sees, ticks no clock and hears no pass. The default is
   * {@link #pick(int, java.util.Set)} with every other job excluded ({@code O(jobs queued here)});
   * queue-based policies answer in amortised {@code O(1)} from the job's own sub-queues.
   */
  default Pick pickFor(int host, io.dataloc.core.jobs.JobView job) {
    return pick(host, everyJobBut(job));
  }

  /** The exclusion of every job but {@code job}, for {@link #pick(int, java.util.Set)}: not enumerable. */
  static java.util.Set<io.dataloc.core.jobs.JobView> everyJobBut(io.dataloc.core.jobs.JobView job) {
    return new java.util.AbstractSet<io.dataloc.core.jobs.JobView>() {
      @Override
      public boolean contains(Object o) {
        return o != job;
      }

      @Override
      public boolean isEmpty() {
        return false;
      }

      @Override
      public java.util.Iterator<io.dataloc.core.jobs.JobView> iterator() {
        throw new UnsupportedOperationException("every job but one: not enumerable");
      }

      @Override
      public int size() {
        return Integer.MAX_VALUE;
      }
    };
  }

  /**
   * The engine runs {@code pick}, this policy's latest answer for {@code host} (nothing having
   * changed since): the task leaves the pending set, with whatever else choosing it implies. The
   * default is {@link #removed}.
   */
  default void taken(int host, Pick pick) {
    removed(pick.task());
  }

  /** The engine leaves a free slot on {@code host} idle: no task was picked there. */
  default void passed(int host) {}

  /** Routes a pending task anywhere but {@code avoid} (which cannot run it well now). */
  default void routeAvoiding(int task, int avoid) {
    route(task);
  }

  /** The host whose own queue holds this queued task, or -1 (a shared queue, or no queues). */
  default int queueHostOf(int task) {
    return -1;
  }

  /**
   * Host h is gone: return the tasks queued specifically for it (to be routed again); the engine
   * re-routes them with {@link #route}.
   */
  int[] hostLost(int host);

  /** Tasks waiting specifically for host h (its local queue), for plans' initial loads. */
  int queuedFor(int host);

  /**
   * Visits the tasks of {@code job} queued for {@code host} until {@code visit} returns false;
   * returns false if this policy keeps no per-host queues to visit (the caller then scans).
   */
  default boolean forEachQueued(int host, io.dataloc.core.jobs.JobView job,
      java.util.function.IntPredicate visit) {
    return false;
  }

  /**
   * A choice made by {@link #pick}: the task, its level on the host, why, and the host whose
   * local queue it came from (-1: a shared queue or no queue).
   */
  static final class Pick {
    private final int task;
    private final Level level;
    private final String reason;
    private final int queue;

    public Pick(int task, Level level, String reason, int queue) {
      this.task = task;
      this.level = level;
      this.reason = reason;
      this.queue = queue;
    }

    public int task() {
      return task;
    }

    public Level level() {
      return level;
    }

    public String reason() {
      return reason;
    }

    public int queue() {
      return queue;
    }

    public Pick(int task, Level level, String reason) {
      this(task, level, reason, -1);
    }

    @Override
    public boolean equals(Object o) {
      if (o == this) {
        return true;
      }
      if (!(o instanceof Pick)) {
        return false;
      }
      Pick that = (Pick) o;
      return task == that.task
          && Objects.equals(level, that.level)
          && Objects.equals(reason, that.reason)
          && queue == that.queue;
    }

    @Override
    public int hashCode() {
      return Objects.hash(task, level, reason, queue);
    }

    @Override
    public String toString() {
      return "Pick[task=" + task
          + ", level=" + level
          + ", reason=" + reason
          + ", queue=" + queue + "]";
    }
  }
}
