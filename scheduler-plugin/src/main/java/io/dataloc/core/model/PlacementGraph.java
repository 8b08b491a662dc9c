package io.dataloc.core.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The placement graph {@code G = (T ∪ S, E)} at host level: for each task, the hosts holding a
 * replica of its block, in compressed sparse rows ({@code offsets[t]..offsets[t+1]} index
 * {@code hosts}). Replica lists keep their input order (the order the MapReduce AM sees), with
 * duplicates removed. Every task has at least one replica.
 */
public final class PlacementGraph {
  private final String[] taskIds;
  private final int[] offsets;
  private final int[] hosts;

  private PlacementGraph(String[] taskIds, int[] offsets, int[] hosts) {
    this.taskIds = taskIds;
    this.offsets = offsets;
    this.hosts = hosts;
  }

  public static Builder builder(Cluster cluster) {
    return new Builder(cluster);
  }

  public int taskCount() {
    return taskIds.length;
  }

  public String taskId(int task) {
    return taskIds[task];
  }

  public int replicaCount(int task) {
    return offsets[task + 1] - offsets[task];
  }

  /** The {@code i}-th replica host of the task. */
  public int replica(int task, int i) {
    return hosts[offsets[task] + i];
  }

  public int[] replicas(int task) {
    return Arrays.copyOfRange(hosts, offsets[task], offsets[task + 1]);
  }

  public int edgeCount() {
    return hosts.length;
  }

  /** Builds a graph against a cluster; names the task or host at fault on bad input. */
  public static final class Builder {
    private final Cluster cluster;
    private final List<String> ids = new ArrayList<>();
    private final Set<String> seen = new HashSet<>();
    private int[] offsets = new int[16];
    private int[] hosts = new int[64];
    private int edges;

    private Builder(Cluster cluster) {
      this.cluster = cluster;
    }

    /** Adds a task by replica host names. */
    public Builder task(String id, List<String> replicaHosts) {
      int[] idx = new int[replicaHosts.size()];
      for (int i = 0; i < idx.length; i++) {
        String h = replicaHosts.get(i);
        idx[i] = cluster.hostIndex(h);
        if (idx[i] < 0) {
          throw new IllegalArgumentException("task '" + id + "' names unknown server '" + h + "'");
        }
      }
      return task(id, idx);
    }

    /** Adds a task by replica host indices. */
    public Builder task(String id, int... replicaHosts) {
      if (id == null || id.isEmpty()) {
        throw new IllegalArgumentException("a task has an empty id");
      }
      if (!seen.add(id)) {
        throw new IllegalArgumentException("task '" + id + "' is listed twice");
      }
      if (replicaHosts.length == 0) {
        throw new IllegalArgumentException("task '" + id + "' has no replicas");
      }
      int t = ids.size();
      ids.add(id);
      if (offsets.length < t + 2) {
        offsets = Arrays.copyOf(offsets, Math.max(t + 2, offsets.length * 2));
      }
      for (int h : replicaHosts) {
        if (h < 0 || h >= cluster.hostCount()) {
          throw new IllegalArgumentException("task '" + id + "' names unknown server #" + h);
        }
        boolean dup = false;
        for (int e = offsets[t]; e < edges; e++) {
          dup |= hosts[e] == h;
        }
        if (!dup) {
          if (edges == hosts.length) {
            hosts = Arrays.copyOf(hosts, hosts.length * 2);
          }
          hosts[edges++] = h;
        }
      }
      offsets[t + 1] = edges;
      return this;
    }

    public PlacementGraph build() {
      return new PlacementGraph(
          ids.toArray(new String[0]), Arrays.copyOf(offsets, ids.size() + 1), Arrays.copyOf(hosts, edges));
    }
  }
}
