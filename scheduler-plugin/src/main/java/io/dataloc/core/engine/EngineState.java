package io.dataloc.core.engine;

import io.dataloc.core.jobs.JobOrdering;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The engine's bookkeeping, shared read-mostly with the online policies: hosts (index, rack,
 * slots, running count, alive, draining), tasks (job, replica hosts, state, where they run) and
 * the active jobs in arrival order. Only {@link DecisionEngine} mutates task states and counts.
 *
 * <p>Task numbers are reused: when a job ends its numbers are {@linkplain #free freed} and the
 * next tasks to arrive take them, so the arrays are as large as the most tasks ever live at once,
 * not as the tasks ever seen. A number's {@linkplain #generation generation} grows with each reuse,
 * so an index that keeps numbers lazily can tell a stale entry from the number's new task.
 */
public final class EngineState implements io.dataloc.core.online.PolicyState {

  private final List<String> hostNames = new ArrayList<>();
  private final Map<String, Integer> hostIndex = new HashMap<>();
  private final Map<String, Integer> rackIndex = new HashMap<>();
  private final List<String> rackNames = new ArrayList<>();
  private int[] hostRack = new int[16];
  private int[] hostSlots = new int[16];
  private int[] hostRunning = new int[16];
  private boolean[] hostAlive = new boolean[16];
  private boolean[] hostDraining = new boolean[16];
  private final HostWants wants = new HostWants();

  private JobState[] taskJob = new JobState[64];
  private int[][] taskReplicas = new int[64][];
  private int[] taskIndexInJob = new int[64];
  private TaskState[] taskState = new TaskState[64];
  private int[] taskHost = new int[64];
  private long[] taskQueuedAt = new long[64];
  private int[] taskGeneration = new int[64];
  private int tasks;
  /** Freed task numbers, reused last-freed first. */
  private int[] free = new int[16];
  private int freeCount;

  final List<JobState> jobs = new ArrayList<>();
  private final SplittableRandom random;
  private final JobOrdering ordering;
  private final Map<String, Long> userTime = new HashMap<>();
  long now;

  EngineState(long seed, JobOrdering ordering) {
    this.random = new SplittableRandom(seed);
    this.ordering = ordering;
  }

  // ---- hosts ----

  int addHost(String name, String rack, int slots) {
    Integer existing = hostIndex.get(name);
    int h;
    if (existing != null) {
      h = existing;
    } else {
      h = hostNames.size();
      hostNames.add(name);
      hostIndex.put(name, h);
      if (h == hostRack.length) {
        int n = h * 2;
        hostRack = Arrays.copyOf(hostRack, n);
        hostSlots = Arrays.copyOf(hostSlots, n);
        hostRunning = Arrays.copyOf(hostRunning, n);
        hostAlive = Arrays.copyOf(hostAlive, n);
        hostDraining = Arrays.copyOf(hostDraining, n);
        wants.grow(n);
      }
    }
    hostRack[h] = rack == null ? NO_RACK : rackIndex.computeIfAbsent(rack, r -> {
      rackNames.add(r);
      return rackNames.size() - 1;
    });
    hostSlots[h] = slots;
    hostAlive[h] = true;
    hostDraining[h] = false;
    return h;
  }

  void setAlive(int host, boolean alive) {
    hostAlive[host] = alive;
  }

  void setDraining(int host, boolean draining) {
    hostDraining[host] = draining;
  }

  /** True while the host finishes its running tasks and takes no new ones (not alive meanwhile). */
  public boolean draining(int h) {
    return hostDraining[h];
  }

  void setSlots(int host, int slots) {
    hostSlots[host] = slots;
  }

  public int hostCount() {
    return hostNames.size();
  }

  public int rackCount() {
    return rackNames.size();
  }

  public String hostName(int h) {
    return hostNames.get(h);
  }

  public String rackName(int r) {
    return rackNames.get(r);
  }

  private Map<String, Integer> frozenIndex = Map.of();
  private int frozenHosts;

  /**
   * An immutable copy of the host index (names to indexes, which never change), for use outside
   * the engine; copied again only when hosts were added since the last call.
   */
  public Map<String, Integer> frozenHostIndex() {
    if (frozenHosts != hostNames.size()) {
      frozenIndex = Map.copyOf(hostIndex);
      frozenHosts = hostNames.size();
    }
    return frozenIndex;
  }

  /** The host's index, or -1. */
  public int hostIndex(String name) {
    Integer h = hostIndex.get(name);
    return h == null ? -1 : h;
  }

  public int rackOf(int h) {
    return hostRack[h];
  }

  public int slots(int h) {
    return hostSlots[h];
  }

  public int running(int h) {
    return hostRunning[h];
  }

  public boolean alive(int h) {
    return hostAlive[h];
  }

  // ---- tasks ----

  int addTask(JobState job, int indexInJob, int[] replicas) {
    if (freeCount > 0) {
      int t = free[--freeCount];
      taskGeneration[t]++;
      setTask(t, job, indexInJob, replicas);
      return t;
    }
    if (tasks == taskJob.length) {
      adopt(new TaskArrays(tasks * 2));
    }
    int t = tasks++;
    setTask(t, job, indexInJob, replicas);
    return t;
  }

  private void setTask(int t, JobState job, int indexInJob, int[] replicas) {
    taskJob[t] = job;
    taskReplicas[t] = replicas;
    taskIndexInJob[t] = indexInJob;
    taskState[t] = TaskState.FREE;
    move(t, TaskState.QUEUED);
    taskHost[t] = -1;
    taskQueuedAt[t] = now;
  }

  /** Room for this many task numbers without growing. */
  public int capacity() {
    return taskJob.length;
  }

  /** Moves the tasks into larger arrays (ignored if they are not larger). */
  void adopt(TaskArrays a) {
    if (a.job.length <= taskJob.length) {
      return;
    }
    System.arraycopy(taskJob, 0, a.job, 0, tasks);
    System.arraycopy(taskReplicas, 0, a.replicas, 0, tasks);
    System.arraycopy(taskIndexInJob, 0, a.indexInJob, 0, tasks);
    System.arraycopy(taskState, 0, a.state, 0, tasks);
    System.arraycopy(taskHost, 0, a.host, 0, tasks);
    System.arraycopy(taskQueuedAt, 0, a.queuedAt, 0, tasks);
    System.arraycopy(taskGeneration, 0, a.generation, 0, tasks);
    taskJob = a.job;
    taskReplicas = a.replicas;
    taskIndexInJob = a.indexInJob;
    taskState = a.state;
    taskHost = a.host;
    taskQueuedAt = a.queuedAt;
    taskGeneration = a.generation;
  }

  /** The task's job has ended: its number is free for reuse. Idempotent. */
  void free(int task) {
    if (taskState[task] == TaskState.FREE) {
      return;
    }
    if (taskHost[task] >= 0) {
      stopOn(task);
    }
    move(task, TaskState.FREE);
    taskJob[task] = null;
    taskReplicas[task] = null;
    if (freeCount == free.length) {
      free = Arrays.copyOf(free, freeCount * 2);
    }
    free[freeCount++] = task;
  }

  /**
   * One more than the highest task number in use so far: task numbers are below it (some may be
   * {@linkplain TaskState#FREE free}).
   */
  public int taskCount() {
    return tasks;
  }

  /** Tasks that belong to a job now (not free). */
  public int liveTasks() {
    return tasks - freeCount;
  }

  /** How many times the number {@code task} has been reused. */
  public int generation(int task) {
    return taskGeneration[task];
  }

  public JobState job(int task) {
    return taskJob[task];
  }

  public int[] replicas(int task) {
    return taskReplicas[task];
  }

  void setIndexInJob(int task, int index) {
    taskIndexInJob[task] = index;
  }

  /** The task's place in its job's task list (fixed for planned tasks; see DecisionEngine#release). */
  public int indexInJob(int task) {
    return taskIndexInJob[task];
  }

  public TaskState state(int task) {
    return taskState[task];
  }

  public boolean queued(int task) {
    return taskState[task] == TaskState.QUEUED;
  }

  /** The host running the task, or -1. */
  public int hostOf(int task) {
    return taskHost[task];
  }

  public long queuedAt(int task) {
    return taskQueuedAt[task];
  }

  void setState(int task, TaskState s) {
    move(task, s);
  }

  /** The one writer of a task's state: keeps the hosts' demand equal to the live tasks' replicas. */
  private void move(int task, TaskState s) {
    boolean was = live(taskState[task]);
    taskState[task] = s;
    if (was != live(s)) {
      wants.live(taskReplicas[task], was ? -1 : 1);
    }
  }

  private static boolean live(TaskState s) {
    return s == TaskState.QUEUED || s == TaskState.RUNNING;
  }

  /** The host's demand: live tasks of the engine's jobs with a replica on it ({@link HostWants}). */
  public int demand(int h) {
    return wants.demand(h);
  }

  /** Running tasks away from their data that may read from host h ({@link HostWants}). */
  @Override
  public int readsOut(int h) {
    return wants.readsOut(h);
  }

  void startOn(int task, int host) {
    move(task, TaskState.RUNNING);
    taskHost[task] = host;
    hostRunning[host]++;
    if (!isLocal(task, host)) {
      wants.away(taskReplicas[task], 1);
    }
  }

  void stopOn(int task) {
    if (taskHost[task] >= 0) {
      hostRunning[taskHost[task]]--;
      if (!isLocal(task, taskHost[task])) {
        wants.away(taskReplicas[task], -1);
      }
      taskHost[task] = -1;
    }
  }

  void requeue(int task) {
    move(task, TaskState.QUEUED);
    taskQueuedAt[task] = now;
  }

  /** True if a replica of the task lives on host h. */
  public boolean isLocal(int task, int host) {
    for (int r : taskReplicas[task]) {
      if (r == host) {
        return true;
      }
    }
    return false;
  }

  /** True if a replica of the task lives in host h's rack (racks known). */
  public boolean isRackLocal(int task, int host) {
    int rack = hostRack[host];
    if (rack == NO_RACK) {
      return false;
    }
    for (int r : taskReplicas[task]) {
      if (hostRack[r] == rack) {
        return true;
      }
    }
    return false;
  }

  public io.dataloc.core.model.Level level(int task, int host) {
    return isLocal(task, host) ? io.dataloc.core.model.Level.LOCAL
        : isRackLocal(task, host) ? io.dataloc.core.model.Level.RACK : io.dataloc.core.model.Level.REMOTE;
  }

  // ---- jobs, time, randomness ----

  public List<JobState> activeJobs() {
    return jobs;
  }

  public long now() {
    return now;
  }

  public SplittableRandom random() {
    return random;
  }

  public JobOrdering ordering() {
    return ordering;
  }

  /** Compares two jobs: higher priority first, then the configured ordering at the current time. */
  @Override
  public int compareJobs(io.dataloc.core.jobs.JobView a, io.dataloc.core.jobs.JobView b) {
    if (a.priority() != b.priority()) {
      return Integer.compare(b.priority(), a.priority());
    }
    return ordering.compare(a, b, now, this::userTime);
  }

  /** Work consumed so far per user, in ticks (what {@code bid} divides by). */
  public JobOrdering.UserUsage userUsage() {
    return this::userTime;
  }

  long userTime(String user) {
    return userTime.getOrDefault(user, 0L);
  }

  void chargeUser(String user, long ticks) {
    userTime.merge(user, ticks, Long::sum);
  }
}
