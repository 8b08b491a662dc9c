package io.dataloc.core.online;

import io.dataloc.core.jobs.JobView;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.IntPredicate;

/**
 * One list of waiting tasks (a host's, a rack's, the cluster's) split by job, each job's part in
 * the order its tasks were listed, for policies that list a task in several places at once. An
 * entry is a (task, stamp) pair and counts while the task is queued and its stamp is the one the
 * policy gave it when it listed it ({@code stamp[task]}; the policy changes the stamp when the task
 * leaves, so every other entry of it goes stale at once). The policy says when a listed task
 * leaves ({@link #left}); each job's count of live entries is then exact, a job with none is
 * dropped with its entries, and a job's part is compacted when stale entries outnumber live ones,
 * so the list never holds more than about twice its live entries.
 */
final class JobLists {
  private static final class Part {
    final IntDeque entries = new IntDeque();
    int live;
  }

  private final Map<JobView, Part> parts = new LinkedHashMap<>();

  /** Lists {@code task} of {@code job} with {@code stamp}. */
  void add(JobView job, int task, int stamp) {
    Part p = parts.computeIfAbsent(job, k -> new Part());
    p.entries.add(task);
    p.entries.add(stamp);
    p.live++;
  }

  /** A task of {@code job} listed here has left (its entry is stale now). */
  void left(JobView job, int[] stamps, PolicyState s) {
    Part p = parts.get(job);
    if (p == null) {
      return;
    }
    if (--p.live <= 0) {
      parts.remove(job);
    } else if (p.entries.size() > 4 * p.live + 32) {
      compact(p, stamps, s);
    }
  }

  /**
   * The first job in the engine's order, among jobs not excluded whose oldest live task here passes
   * {@code ok}: that task, or -1 if no job's does. Stale entries at the front of a job's part are
   * dropped on the way.
   */
  int first(PolicyState s, int[] stamps, Set<JobView> excluded, IntPredicate ok) {
    JobView best = null;
    int bestTask = -1;
    for (Map.Entry<JobView, Part> e : parts.entrySet()) {
      JobView j = e.getKey();
      if (excluded.contains(j) || (best != null && s.compareJobs(j, best) >= 0)) {
        continue;
      }
      int t = oldest(e.getValue(), stamps, s);
      if (t >= 0 && ok.test(t)) {
        best = j;
        bestTask = t;
      }
    }
    return bestTask;
  }

  /**
   * Every job's oldest live task here that passes {@code ok}, first job in the engine's order
   * first: what {@link #first} returns, and, as more and more jobs are excluded, returns next.
   * {@code O(jobs · log jobs)}.
   */
  int[] ranked(PolicyState s, int[] stamps, IntPredicate ok) {
    JobView[] jobs = new JobView[parts.size()];
    int[] tasks = new int[parts.size()];
    int n = 0;
    for (Map.Entry<JobView, Part> e : parts.entrySet()) {
      int t = oldest(e.getValue(), stamps, s);
      if (t >= 0 && ok.test(t)) {
        jobs[n] = e.getKey();
        tasks[n++] = t;
      }
    }
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    // Stable, so jobs the order ties keep the list's order, as first's scan does.
    Arrays.sort(order, (a, b) -> s.compareJobs(jobs[a], jobs[b]));
    int[] out = new int[n];
    for (int i = 0; i < n; i++) {
      out[i] = tasks[order[i]];
    }
    return out;
  }

  /** The oldest live task of {@code job} here, or -1: amortised {@code O(1)}. */
  int oldestOf(JobView job, int[] stamps, PolicyState s) {
    Part p = parts.get(job);
    return p == null ? -1 : oldest(p, stamps, s);
  }

  /** Visits the live tasks of {@code job}, oldest first, until {@code visit} returns false. */
  void forEach(JobView job, int[] stamps, PolicyState s, IntPredicate visit) {
    Part p = parts.get(job);
    if (p != null) {
      visitLive(p, stamps, s, visit);
    }
  }

  /** Visits every live task here, job by job (each job's oldest first). */
  void forEachLive(int[] stamps, PolicyState s, java.util.function.IntConsumer visit) {
    for (Part p : parts.values()) {
      visitLive(p, stamps, s, t -> {
        visit.accept(t);
        return true;
      });
    }
  }

  /** Visits a part's live tasks in order until {@code visit} returns false. */
  private static void visitLive(Part p, int[] stamps, PolicyState s, IntPredicate visit) {
    for (int i = 0; i < p.entries.size(); i += 2) {
      int t = p.entries.get(i);
      if (isLive(t, p.entries.get(i + 1), stamps, s) && !visit.test(t)) {
        return;
      }
    }
  }

  /** The oldest live entry of a part, or -1; stale entries in front go. */
  private static int oldest(Part p, int[] stamps, PolicyState s) {
    IntDeque q = p.entries;
    while (!q.isEmpty() && !isLive(q.get(0), q.get(1), stamps, s)) {
      q.poll();
      q.poll();
    }
    return q.isEmpty() ? -1 : q.get(0);
  }

  private static void compact(Part p, int[] stamps, PolicyState s) {
    int n = p.entries.size();
    for (int i = 0; i < n; i += 2) {
      int t = p.entries.poll();
      int stamp = p.entries.poll();
      if (isLive(t, stamp, stamps, s)) {
        p.entries.add(t);
        p.entries.add(stamp);
      }
    }
  }

  private static boolean isLive(int t, int stamp, int[] stamps, PolicyState s) {
    return t < stamps.length && stamps[t] == stamp && s.queued(t);
  }
}
