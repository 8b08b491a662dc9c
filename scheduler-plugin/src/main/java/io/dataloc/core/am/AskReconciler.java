package io.dataloc.core.am;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.PriorityQueue;

/**
 * Ask reconciliation: how a job's pending maps in the engine follow what its ApplicationMaster
 * asks for now. A pure function of the asks and the engine's pending tasks, to a {@link Delta} the
 * adapter applies; YARN owns the asks, the engine the tasks, and this class neither.
 *
 * <p><b>Planned jobs</b> trust their plan and the AM replay. Not asking for maps at all: the
 * pending tasks go (the AM has what it needs). Asking for more than the plan still holds (it asks
 * again for maps whose containers were lost): the difference is added, built from the asks, but
 * never beyond the plan's size plus the per-job bound. Asking for fewer: nothing changes (the AM
 * may cap its asks with {@code mapreduce.job.running.map.limit}).
 *
 * <p><b>Online jobs</b> hold exactly as many pending tasks as the AM asks for, at most the per-job
 * bound at a time: surplus tasks go newest first; missing ones are added, built from the asks;
 * above the bound, the queue is topped up only once half of it has gone, so an AM asking for a
 * million maps costs one batch at a time, and the ask count never sizes anything.
 *
 * <p><b>Tasks from asks</b> ({@link #tasksFromAsks}). Host-level asks say how many pending maps
 * want each host, not which hosts belong to one map. Demand the pending tasks already cover is
 * claimed first (one per replica host); each new task then takes up to three hosts with the most
 * unclaimed demand (ties by name), each host's demand falling by one. {@code O(asked hosts +
 * pending replicas + count · log asked hosts)}.
 */
public final class AskReconciler {
  private AskReconciler() {}

  /**
   * What to do with a job's pending tasks.
   *
   * @param dropAll drop every pending task
   * @param dropNewest drop this many, newest first
   * @param add add this many, built from the asks
   */
  public static final class Delta {
    private final boolean dropAll;
    private final int dropNewest;
    private final int add;

    public Delta(boolean dropAll, int dropNewest, int add) {
      this.dropAll = dropAll;
      this.dropNewest = dropNewest;
      this.add = add;
    }

    public boolean dropAll() {
      return dropAll;
    }

    public int dropNewest() {
      return dropNewest;
    }

    public int add() {
      return add;
    }

    public static final Delta NONE = new Delta(false, 0, 0);

    public boolean isNone() {
      return equals(NONE);
    }

    @Override
    public boolean equals(Object o) {
      if (o == this) {
        return true;
      }
      if (!(o instanceof Delta)) {
        return false;
      }
      Delta that = (Delta) o;
      return dropAll == that.dropAll
          && dropNewest == that.dropNewest
          && add == that.add;
    }

    @Override
    public int hashCode() {
      return Objects.hash(dropAll, dropNewest, add);
    }

    @Override
    public String toString() {
      return "Delta[dropAll=" + dropAll
          + ", dropNewest=" + dropNewest
          + ", add=" + add + "]";
    }
  }

  /**
   * A planned job.
   *
   * @param asking whether the AM asks for maps at all
   * @param wanted the maps it asks for (its {@code *} ask)
   * @param pending the job's pending tasks in the engine
   * @param planTasks the plan's size
   * @param bound the per-job bound ({@code online.max-pending-per-job})
   */
  public static Delta planned(boolean asking, int wanted, int pending, int planTasks, int bound) {
    if (!asking) {
      return pending > 0 ? new Delta(true, 0, 0) : Delta.NONE;
    }
    if (wanted > pending) {
      // At most one batch of the per-job bound at a time, as for an online job: the tasks are
      // built under the scheduler's lock.
      long extra = Math.min(Math.min(wanted, (long) planTasks + bound) - pending, bound);
      return extra > 0 ? new Delta(false, 0, (int) extra) : Delta.NONE;
    }
    return Delta.NONE;
  }

  /** A job served online; arguments as for {@link #planned}. */
  public static Delta online(boolean asking, int wanted, int pending, int bound) {
    int target = Math.min(asking ? wanted : 0, bound);
    if (pending < target && wanted > bound && pending > bound / 2) {
      return Delta.NONE; // above the bound: top up once half the batch has gone
    }
    if (pending > target) {
      return new Delta(false, pending - target, 0);
    }
    if (pending < target) {
      return new Delta(false, 0, target - pending);
    }
    return Delta.NONE;
  }

  /**
   * {@code count} new tasks' hosts from host-level asks.
   *
   * @param demand host → maps asked for there (hosts the engine knows, counts above zero)
   * @param pendingHosts each pending task's replica hosts (their demand is claimed first)
   */
  public static List<List<String>> tasksFromAsks(Map<String, Integer> demand, List<List<String>> pendingHosts,
      int count) {
    Map<String, Integer> left = new HashMap<>(demand);
    for (List<String> hosts : pendingHosts) {
      for (String h : hosts) {
        left.computeIfPresent(h, (k, v) -> v > 1 ? v - 1 : null);
      }
    }
    PriorityQueue<Map.Entry<String, Integer>> byDemand = new PriorityQueue<>(
        Map.Entry.<String, Integer>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
    left.forEach((h, c) -> byDemand.add(new AbstractMap.SimpleEntry<>(h, c)));
    List<List<String>> tasks = new ArrayList<>(count);
    List<Map.Entry<String, Integer>> taken = new ArrayList<>(3);
    for (int i = 0; i < count; i++) {
      taken.clear();
      while (taken.size() < 3 && !byDemand.isEmpty()) {
        taken.add(byDemand.poll());
      }
      List<String> hosts = new ArrayList<>(taken.size());
      for (Map.Entry<String, Integer> e : taken) {
        hosts.add(e.getKey());
        if (e.getValue() > 1) {
          e.setValue(e.getValue() - 1);
          byDemand.add(e);
        }
      }
      tasks.add(hosts);
    }
    return tasks;
  }
}
