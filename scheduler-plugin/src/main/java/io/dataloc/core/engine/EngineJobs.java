package io.dataloc.core.engine;

import io.dataloc.core.online.OnlinePolicy;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The engine's jobs and their task lists: the one owner of job ids, of each job's tasks in order
 * (a task's index in its job is the application's task number), of the jobs parked (asking for
 * nothing now), and of the tasks that arrived one at a time (forgotten as soon as they finish or
 * are dropped, so a job that lives long and runs many of them holds only its live ones). Task
 * numbers are the {@link EngineState}'s and are reused once freed. A removed job's tasks are
 * released {@value #RECLAIM_CHUNK} per call ({@link #reclaim}), the job parked meanwhile, so removing
 * a job of any size costs its caller a bounded part of the work.
 */
final class EngineJobs {
  private final EngineState state;
  private final OnlinePolicy policy;
  private final StarvationGuard guard;
  private final Map<Long, JobState> jobs = new LinkedHashMap<>();
  private final Map<JobState, List<Integer>> tasks = new HashMap<>();
  private final BitSet oneByOne = new BitSet();
  private final Set<JobState> parked = new HashSet<>();
  /** Removed jobs whose tasks are still being released, in order of removal, each with its cursor. */
  private final Map<JobState, Reclaim> dying = new LinkedHashMap<>();
  private int nextJobIndex;

  /** Tasks of removed jobs released per call of {@link #reclaim} (about 2-3 ms of CPU). */
  static final int RECLAIM_CHUNK = 2048;

  /** A removed job's task list and how far its release has come. */
  private static final class Reclaim {
    final List<Integer> tasks;
    int next;

    Reclaim(List<Integer> tasks) {
      this.tasks = tasks;
    }
  }

  EngineJobs(EngineState state, OnlinePolicy policy, StarvationGuard guard) {
    this.state = state;
    this.policy = policy;
    this.guard = guard;
  }

  JobState get(long jobId) {
    return jobs.get(jobId);
  }

  int count() {
    return jobs.size();
  }

  /** A new job (its wait for a container starts now). */
  JobState create(long jobId, String user) {
    if (jobs.containsKey(jobId)) {
      throw new IllegalArgumentException("job " + jobId + " already submitted");
    }
    JobState j = new JobState(nextJobIndex++, jobId, user == null ? "" : user, state.now);
    guard.served(j);
    jobs.put(jobId, j);
    tasks.put(j, new ArrayList<>());
    state.jobs.add(j);
    return j;
  }

  /** The job, created if new. */
  JobState getOrCreate(long jobId, String user) {
    JobState j = jobs.get(jobId);
    return j != null ? j : create(jobId, user);
  }

  /** A task of the job, pending; {@code reps}: distinct engine host indexes. */
  int addTask(JobState j, int[] reps) {
    List<Integer> list = tasks.get(j);
    int t = state.addTask(j, list.size(), reps);
    list.add(t);
    j.total++;
    j.pending++;
    return t;
  }

  /** A task arriving alone, with its replicas by host name (unknown names dropped). */
  int addOneByOne(JobState j, List<String> replicaHosts) {
    int t = addTask(j, replicaHosts.stream().mapToInt(state::hostIndex).filter(h -> h >= 0).distinct().toArray());
    oneByOne.set(t);
    return t;
  }

  /** The task finished or was dropped: one that arrived alone leaves its job's list and its number is freed. */
  void release(int t) {
    List<Integer> list = tasks.get(state.job(t));
    if (!oneByOne.get(t) || list == null) {
      return; // (a task of a removed job is released with it, by reclaim)
    }
    oneByOne.clear(t);
    int p = state.indexInJob(t);
    int last = list.get(list.size() - 1);
    list.set(p, last);
    state.setIndexInJob(last, p);
    list.remove(list.size() - 1);
    state.free(t);
  }

  /**
   * The job is gone: from now on it is not served, its pending tasks are dropped, its running ones
   * stop counting, and every one of its task numbers is freed for reuse — the first {@value
   * #RECLAIM_CHUNK} now, the rest by the next calls of {@link #reclaim}. Returns how many were
   * pending.
   */
  int remove(long jobId) {
    JobState j = jobs.remove(jobId);
    if (j == null) {
      return 0;
    }
    int pending = j.pending;
    state.jobs.remove(j);
    guard.removed(j);
    parked.add(j); // excluded from every decision while its tasks are released
    dying.put(j, new Reclaim(tasks.remove(j)));
    reclaim(RECLAIM_CHUNK);
    return pending;
  }

  /** Releases up to {@code max} tasks of removed jobs, the earliest removed first; whether any is left. */
  boolean reclaim(int max) {
    if (dying.isEmpty()) {
      return false;
    }
    int budget = max;
    for (java.util.Iterator<Map.Entry<JobState, Reclaim>> it = dying.entrySet().iterator(); it.hasNext();) {
      Map.Entry<JobState, Reclaim> e = it.next();
      Reclaim r = e.getValue();
      for (; budget > 0 && r.next < r.tasks.size(); budget--) {
        drop(r.tasks.get(r.next++));
      }
      if (r.next < r.tasks.size()) {
        return true;
      }
      parked.remove(e.getKey());
      it.remove();
    }
    return false;
  }

  /** Whether removed jobs' tasks are still being released. */
  boolean reclaiming() {
    return !dying.isEmpty();
  }

  /** A removed job's task: dropped if queued, stopped if running, its number freed. */
  private void drop(int t) {
    if (state.queued(t)) {
      state.setState(t, TaskState.CANCELLED);
      policy.removed(t);
    } else if (state.state(t) == TaskState.RUNNING) {
      state.stopOn(t);
      state.setState(t, TaskState.CANCELLED);
    }
    oneByOne.clear(t);
    state.free(t);
  }

  /** The job's tasks in order (live list: read only). */
  List<Integer> tasksOf(JobState j) {
    return tasks.get(j);
  }

  /** Pending (queued) tasks of a job, in task order. */
  List<Integer> pending(long jobId) {
    JobState j = jobs.get(jobId);
    List<Integer> out = new ArrayList<>();
    if (j != null) {
      for (int t : tasks.get(j)) {
        if (state.queued(t)) {
          out.add(t);
        }
      }
    }
    return out;
  }

  /** The engine task number of a job's i-th task, or -1. */
  int task(long jobId, int indexInJob) {
    JobState j = jobs.get(jobId);
    if (j == null) {
      return -1;
    }
    List<Integer> list = tasks.get(j);
    return indexInJob >= 0 && indexInJob < list.size() ? list.get(indexInJob) : -1;
  }

  void setParked(long jobId, boolean park) {
    JobState j = jobs.get(jobId);
    if (j != null) {
      if (park) {
        parked.add(j);
      } else {
        parked.remove(j);
      }
    }
  }

  void setPriority(long jobId, int priority) {
    JobState j = jobs.get(jobId);
    if (j != null) {
      j.priority = priority;
    }
  }

  boolean parked(long jobId) {
    JobState j = jobs.get(jobId);
    return j != null && parked.contains(j);
  }

  /**
   * The jobs a proposal must pass over: the parked ones and those of {@code jobIds} (those the
   * engine knows), as a view over both — no copy, so a proposal costs no more with many jobs
   * parked.
   */
  Set<io.dataloc.core.jobs.JobView> excluded(Set<Long> jobIds) {
    return new java.util.AbstractSet<>() {
      @Override
      public boolean contains(Object o) {
        if (!(o instanceof JobState)) {
          return false;
        }
        JobState j = (JobState) o;
        return parked.contains(j) || jobIds.contains(j.id()) && jobs.get(j.id()) == j;
      }

      @Override
      public boolean isEmpty() {
        return parked.isEmpty() && jobIds.stream().noneMatch(jobs::containsKey);
      }

      @Override
      public java.util.Iterator<io.dataloc.core.jobs.JobView> iterator() {
        return java.util.stream.Stream.concat(parked.stream(), jobIds.stream().map(jobs::get)
            .filter(j -> j != null && !parked.contains(j))).<io.dataloc.core.jobs.JobView>map(j -> j).iterator();
      }

      @Override
      public int size() {
        // Counted by its iterator: a stream over this set's own spliterator asks size() for its size.
        int n = 0;
        for (java.util.Iterator<io.dataloc.core.jobs.JobView> it = iterator(); it.hasNext(); it.next()) {
          n++;
        }
        return n;
      }
    };
  }

  /**
   * Routes the job's tasks queued for {@code host} again, anywhere but there, in the job's task
   * order; how many moved.
   */
  int releaseQueued(long jobId, int host) {
    List<Integer> here = queuedFor(jobId, host);
    for (int t : here) {
      policy.removed(t);
      policy.routeAvoiding(t, host);
    }
    return here.size();
  }

  /** Tasks of a job queued in {@code host}'s local queue, but for task {@code except}. */
  int queuedOn(long jobId, int host, int except) {
    List<Integer> here = queuedFor(jobId, host);
    return here.size() - (here.contains(except) ? 1 : 0);
  }

  /**
   * The job's tasks queued in {@code host}'s own queue, each once, in the job's task order. Read
   * from that queue where the policy can list a job's part of it ({@code O(k log k)} for {@code k}
   * such tasks: no more with a job of 100,000 maps; a lazy queue may list a task twice), else from
   * the job's pending tasks.
   */
  private List<Integer> queuedFor(long jobId, int host) {
    JobState j = jobs.get(jobId);
    List<Integer> here = new ArrayList<>();
    if (j == null) {
      return here;
    }
    if (!policy.forEachQueued(host, j, here::add)) {
      for (int t : pending(jobId)) {
        if (policy.queueHostOf(t) == host) {
          here.add(t);
        }
      }
      return here;
    }
    here.sort(java.util.Comparator.comparingInt(state::indexInJob)); // a task's index is its place in the job's list
    List<Integer> once = new ArrayList<>(here.size());
    for (int t : here) {
      if (once.isEmpty() || once.get(once.size() - 1) != t) {
        once.add(t);
      }
    }
    return once;
  }
}
