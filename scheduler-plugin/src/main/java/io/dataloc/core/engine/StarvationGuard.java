package io.dataloc.core.engine;

import io.dataloc.core.online.OnlinePolicy;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * The starvation guard. A policy that weighs queues, such as MaxWeight, serves the longest queue
 * first: a job with one task queued for a host loses to another job's long common queue for as
 * long as that queue stays long. So before the policy picks, the job that has gone longest without
 * a container — more than {@code rounds} rounds of decisions, a round being as many decisions as
 * the live hosts have slots — runs its oldest task queued for the free host, else (among the first
 * {@value #SCAN} of its task list) one waiting in a shared queue, else one queued for another host
 * that has no slot for maps now: that host may stay full for as long as its containers run.
 *
 * <p>Bound: every job with work for a host that frees slots is served within {@code rounds} rounds
 * plus one decision per job ahead of it (the longest-waiting job goes first). Policies without
 * per-host queues are left alone. The guard keeps the engine's decision clock: each decision is a
 * tick, and a job's last container is stamped on it.
 *
 * <p>Cost: the jobs are kept oldest first (last container, then index), so a decision looks only
 * at the jobs that are starving, oldest first, and stops at the first with work for the host or at
 * the first that is not starving — not at every job. With many jobs starving at once and no work
 * for the host it still looks at each of them, {@value #SCAN} tasks at most each — once per free
 * slot, not once per proposal: while one slot is served ({@link #beginSlot} to {@link #endSlot}),
 * a front end that refuses a proposal excludes its job, and nothing else changes but the clock, so
 * a fruitless look is remembered and the next one starts where it stopped, at the jobs that began
 * to starve since (a slot refused by many jobs in turn would otherwise repeat the whole look for
 * each of them).
 */
final class StarvationGuard {
  /** Tasks of a job's list looked at for a shared queue or a full host (cost per decision). */
  static final int SCAN = 256;

  private final int rounds;
  private final EngineState state;
  private final OnlinePolicy policy;
  /** Decisions made so far. */
  private long decisions;
  /** The engine's jobs, longest without a container first (ties: lower index first). */
  private final java.util.TreeSet<JobState> byAge = new java.util.TreeSet<>(
      java.util.Comparator.comparingLong((JobState j) -> j.lastServed).thenComparingInt(JobState::index));
  /** Slots of the live hosts, recounted when hosts change (-1: to recount). */
  private long liveSlots = -1;
  /** One slot is being served: a fruitless look may be remembered. */
  private boolean slotOpen;
  /** The last look found nothing for {@link #memoHost}; it stopped at {@link #memoStop} (null: at the end). */
  private boolean memoValid;
  private int memoHost = -1;
  private JobState memoStop;
  /** Whether looks are remembered within a slot (off only to check that remembering changes nothing). */
  private boolean remember = true;

  StarvationGuard(int rounds, EngineState state, OnlinePolicy policy) {
    this.rounds = rounds;
    this.state = state;
    this.policy = policy;
  }

  /** One free slot is served now, perhaps by several proposals (see the class comment). */
  void beginSlot() {
    slotOpen = true;
    memoValid = false;
  }

  /** The slot is served, or given up. */
  void endSlot() {
    slotOpen = false;
    memoValid = false;
    memoStop = null;
  }

  /** Turns remembering off, for a test that compares the picks with and without it. */
  void forgetLooks() {
    remember = false;
  }

  /** Whether looks are remembered within a slot, by the guard and by the policy the engine tells of slots. */
  boolean remembers() {
    return remember;
  }

  /** A decision is being made: the clock advances. */
  void tick() {
    decisions++;
  }

  /** The job got a container now (or was just admitted: it starts its wait now). */
  void served(JobState j) {
    memoValid = false;
    byAge.remove(j); // by its old stamp
    j.lastServed = decisions;
    byAge.add(j);
  }

  /** The job left the engine. */
  void removed(JobState j) {
    memoValid = false;
    byAge.remove(j);
  }

  /** A host came, went or changed its slots: a round's length is recounted. */
  void hostsChanged() {
    memoValid = false;
    liveSlots = -1;
  }

  /** A task chosen for a starving job, and how many decisions the job had waited. */
  static final class Pick {
    private final int task;
    private final long waited;

    Pick(int task, long waited) {
      this.task = task;
      this.waited = waited;
    }

    public int task() {
      return task;
    }

    public long waited() {
      return waited;
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
          && waited == that.waited;
    }

    @Override
    public int hashCode() {
      return Objects.hash(task, waited);
    }

    @Override
    public String toString() {
      return "Pick[task=" + task
          + ", waited=" + waited + "]";
    }
  }

  /** The starving job's task for {@code host}, or null if no job is starving with work here. */
  Pick pick(int host, Set<io.dataloc.core.jobs.JobView> excluded, Function<JobState, List<Integer>> tasksOf) {
    if (rounds <= 0) {
      return null;
    }
    if (liveSlots < 0) {
      liveSlots = 0;
      for (int h = 0; h < state.hostCount(); h++) {
        liveSlots += state.alive(h) ? state.slots(h) : 0;
      }
    }
    long limit = (long) rounds * Math.max(1, liveSlots);
    Iterable<JobState> jobs = byAge;
    if (remember && slotOpen && memoValid && memoHost == host) {
      if (memoStop == null) {
        return null; // every job starved at the last look, and none had work here
      }
      jobs = byAge.tailSet(memoStop, true); // the jobs looked at before still have none
    }
    memoValid = false;
    for (JobState j : jobs) {
      if (decisions - j.lastServed <= limit) {
        look(host, j);
        return null; // it and every later one have had a container recently
      }
      if (j.pending == 0 || excluded.contains(j)) {
        continue;
      }
      int t = queuedHere(j, host, tasksOf);
      if (t >= 0) {
        return new Pick(t, decisions - j.lastServed);
      }
    }
    look(host, null);
    return null;
  }

  /** A fruitless look at {@code host} stopped at {@code stop} (null: it saw every job). */
  private void look(int host, JobState stop) {
    memoValid = slotOpen;
    memoHost = host;
    memoStop = stop;
  }

  /**
   * A task of the job queued for this host, else one in a shared queue, else one queued for another
   * host that has no slot for maps now (it may never have room: its containers may run for as long
   * as the cluster does), or -1.
   */
  private int queuedHere(JobState j, int host, Function<JobState, List<Integer>> tasksOf) {
    int[] found = {-1};
    boolean queues = policy.forEachQueued(host, j, t -> {
      found[0] = t;
      return false;
    });
    if (!queues || found[0] >= 0) {
      return found[0];
    }
    List<Integer> list = tasksOf.apply(j);
    int elsewhere = -1;
    for (int i = 0; i < list.size() && i < SCAN; i++) {
      int t = list.get(i);
      if (state.queued(t)) {
        int q = policy.queueHostOf(t);
        if (q < 0) {
          return t;
        }
        // Only from a host that cannot run maps now: a plan's tasks waiting for their own free
        // host wait on purpose (the policy's stealing rule decides when that stops paying).
        if (elsewhere < 0 && state.slots(q) == 0) {
          elsewhere = t;
        }
      }
    }
    return elsewhere;
  }
}
