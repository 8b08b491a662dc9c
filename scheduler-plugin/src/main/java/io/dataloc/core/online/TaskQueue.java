package io.dataloc.core.online;

import io.dataloc.core.jobs.JobView;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One scheduling queue (a host's local queue, a rack queue, the common queue) split into per-job
 * sub-queues, as in Wang et al.'s simulations: {@link #peek} names the head of the sub-queue of
 * the job the engine's ordering ranks first (with {@code fair}, the job with the fewest running tasks).
 * Entries are removed lazily: an entry counts only while its task is queued, still belongs here
 * ({@code owner[task] == id}) and still belongs to the sub-queue's job (task numbers are reused:
 * a stale entry's number may now be another job's task queued here); {@link #size} is kept exact
 * by the owner.
 */
public final class TaskQueue {
  private final int id;
  private final Map<JobView, IntDeque> sub = new LinkedHashMap<>();
  private final Map<JobView, int[]> counts = new LinkedHashMap<>();
  private int size;

  public TaskQueue(int id) {
    this.id = id;
  }

  public int id() {
    return id;
  }

  public int size() {
    return size;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  public void add(PolicyState s, int task, int[] owner) {
    JobView j = s.job(task);
    sub.computeIfAbsent(j, k -> new IntDeque()).add(task);
    counts.computeIfAbsent(j, k -> new int[1])[0]++;
    owner[task] = id;
    size++;
  }

  /** Accounts for a task that left this queue by other means (owner already cleared by the caller). */
  public void forget(PolicyState s, int task) {
    JobView j = s.job(task);
    int[] c = counts.get(j);
    if (c != null && --c[0] == 0) {
      counts.remove(j);
      sub.remove(j);
    }
    size--;
  }

  /**
   * The task {@link #peek} named runs (owner already cleared by the caller): its entry, at the head
   * of its job's sub-queue, goes with it, as a poll would have taken it.
   */
  public void take(PolicyState s, int task) {
    IntDeque q = sub.get(s.job(task));
    if (q != null && !q.isEmpty() && q.peek() == task) {
      q.poll();
    }
    forget(s, task);
  }

  /**
   * The next task by job ordering, skipping the excluded jobs, or -1; it stays queued (the caller
   * takes it with {@link #take} once it runs). Changes nothing a later call sees: only stale
   * entries in front of the chosen sub-queue go.
   */
  public int peek(PolicyState s, int[] owner, java.util.Set<JobView> excluded) {
    JobView best = null;
    for (JobView j : counts.keySet()) {
      if (excluded.contains(j)) {
        continue;
      }
      if (best == null || s.compareJobs(j, best) < 0) {
        best = j;
      }
    }
    if (best == null) {
      return -1;
    }
    IntDeque q = sub.get(best);
    while (!q.isEmpty()) {
      int t = q.peek();
      if (live(s, t, owner, best)) {
        return t;
      }
      q.poll();
    }
    throw new IllegalStateException("queue " + id + " lost track of " + best);
  }

  /**
   * The head of one job's sub-queue, or -1 if the job has nothing queued here: what {@link #peek}
   * would name were every other job excluded, in amortised {@code O(1)} (only stale entries in
   * front go, as in {@link #peek}).
   */
  public int peekJob(PolicyState s, int[] owner, JobView job) {
    IntDeque q = sub.get(job);
    if (q == null) {
      return -1;
    }
    while (!q.isEmpty()) {
      int t = q.peek();
      if (live(s, t, owner, job)) {
        return t;
      }
      q.poll();
    }
    throw new IllegalStateException("queue " + id + " lost track of " + job);
  }

  /**
   * Visits the live entries of one job, oldest first, until {@code visit} returns false (an entry
   * may be visited twice if its task left and came back). Stale entries in front go, as in
   * {@link #peek}, so finding a job's first live entry costs amortised {@code O(1)}.
   */
  public void forEachQueued(PolicyState s, JobView job, int[] owner, java.util.function.IntPredicate visit) {
    IntDeque q = sub.get(job);
    if (q == null) {
      return;
    }
    while (!q.isEmpty() && !live(s, q.peek(), owner, job)) {
      q.poll();
    }
    for (int i = 0; i < q.size(); i++) {
      int t = q.get(i);
      if (live(s, t, owner, job) && !visit.test(t)) {
        return;
      }
    }
  }

  private boolean live(PolicyState s, int t, int[] owner, JobView job) {
    return s.queued(t) && owner[t] == id && s.job(t) == job;
  }

  /** Removes every live entry, returning the tasks (for re-routing). */
  public int[] drain(PolicyState s, int[] owner) {
    IntDeque out = new IntDeque();
    for (Map.Entry<JobView, IntDeque> e : sub.entrySet()) {
      IntDeque q = e.getValue();
      while (!q.isEmpty()) {
        int t = q.poll();
        if (live(s, t, owner, e.getKey())) {
          owner[t] = -1;
          out.add(t);
        }
      }
    }
    sub.clear();
    counts.clear();
    size = 0;
    return out.toArray();
  }
}
