package io.dataloc.core.model;

import java.util.Arrays;

/**
 * One assignment problem at server level: the cluster expanded into servers (one per slot), the
 * placement graph over those servers, and the cost model. Immutable; all arrays are shared
 * read-only with the assigners, which index tasks {@code 0..m-1} and servers {@code 0..n-1}.
 *
 * <p>Servers are numbered slot-major: the first slot of every host, then the second slot of every
 * host with two or more, and so on. Every assigner breaks ties by server index, so equal choices
 * spread over hosts before they stack on one. Server→task lists are in ascending task order.
 */
public final class Problem {
  private final Cluster cluster;
  private final PlacementGraph graph;
  private final CostModel cost;

  private final int[] serverHost;
  private final int[][] hostServers;
  private final long[] initialLoad;
  private final int[] taskOff;
  private final int[] taskSrv;
  private final int[] srvOff;
  private final int[] srvTask;
  private final int[] taskRackOff;
  private final int[] taskRacks;
  private final int[] rackOff;
  private final int[] rackSrv;
  private final long[] linkCost;

  private Problem(Cluster cluster, PlacementGraph graph, CostModel cost) {
    this.cluster = cluster;
    this.graph = graph;
    this.cost = cost;
    int hosts = cluster.hostCount();
    int n = cluster.serverCount();
    int m = graph.taskCount();
    serverHost = new int[n];
    hostServers = new int[hosts][];
    initialLoad = new long[n];
    int maxSlots = 0;
    for (int h = 0; h < hosts; h++) {
      hostServers[h] = new int[cluster.slots(h)];
      maxSlots = Math.max(maxSlots, cluster.slots(h));
    }
    for (int k = 0, s = 0; k < maxSlots; k++) {
      for (int h = 0; h < hosts; h++) {
        if (k < cluster.slots(h)) {
          hostServers[h][k] = s;
          serverHost[s] = h;
          initialLoad[s] = cluster.initialLoad(h);
          s++;
        }
      }
    }

    taskOff = new int[m + 1];
    for (int t = 0; t < m; t++) {
      int deg = 0;
      for (int i = 0; i < graph.replicaCount(t); i++) {
        deg += cluster.slots(graph.replica(t, i));
      }
      taskOff[t + 1] = taskOff[t] + deg;
    }
    taskSrv = new int[taskOff[m]];
    int[] srvDeg = new int[n + 1];
    for (int t = 0, e = 0; t < m; t++) {
      for (int i = 0; i < graph.replicaCount(t); i++) {
        int h = graph.replica(t, i);
        for (int s : hostServers[h]) {
          taskSrv[e++] = s;
          srvDeg[s + 1]++;
        }
      }
    }
    srvOff = new int[n + 1];
    for (int s = 0; s < n; s++) {
      srvOff[s + 1] = srvOff[s] + srvDeg[s + 1];
    }
    srvTask = new int[taskSrv.length];
    int[] fill = Arrays.copyOf(srvOff, n);
    for (int t = 0; t < m; t++) {
      for (int e = taskOff[t]; e < taskOff[t + 1]; e++) {
        srvTask[fill[taskSrv[e]]++] = t;
      }
    }

    int racks = cluster.rackCount();
    taskRackOff = new int[m + 1];
    int[] tmp = new int[Math.max(1, graph.edgeCount())];
    int count = 0;
    if (racks > 0) {
      for (int t = 0; t < m; t++) {
        int start = count;
        for (int i = 0; i < graph.replicaCount(t); i++) {
          int r = cluster.rackOf(graph.replica(t, i));
          boolean dup = false;
          for (int j = start; j < count; j++) {
            dup |= tmp[j] == r;
          }
          if (!dup) {
            tmp[count++] = r;
          }
        }
        taskRackOff[t + 1] = count;
      }
    }
    taskRacks = Arrays.copyOf(tmp, count);
    rackOff = new int[racks + 1];
    rackSrv = new int[racks > 0 ? n : 0];
    if (racks > 0) {
      for (int s = 0; s < n; s++) {
        rackOff[cluster.rackOf(serverHost[s]) + 1]++;
      }
      for (int r = 0; r < racks; r++) {
        rackOff[r + 1] += rackOff[r];
      }
      int[] rf = Arrays.copyOf(rackOff, racks);
      for (int s = 0; s < n; s++) {
        rackSrv[rf[cluster.rackOf(serverHost[s])]++] = s;
      }
    }

    linkCost = new long[m];
    if (cost.perSharedRead() > 0) {
      for (int t = 0; t < m; t++) {
        long least = Long.MAX_VALUE;
        for (int i = 0; i < graph.replicaCount(t); i++) {
          least = Math.min(least, cluster.readsOut(graph.replica(t, i)));
        }
        linkCost[t] = least == Long.MAX_VALUE ? 0 : Math.multiplyExact(cost.perSharedRead(), least);
      }
    }
  }

  public static Problem of(Cluster cluster, PlacementGraph graph, CostModel cost) {
    return new Problem(cluster, graph, cost);
  }

  public Cluster cluster() {
    return cluster;
  }

  public PlacementGraph graph() {
    return graph;
  }

  public CostModel cost() {
    return cost;
  }

  /**
   * What task t pays on top of its level's cost when it is not node-local: {@link
   * CostModel#perSharedRead} times the reads already on the least shared link among its replica
   * hosts. 0 when plans ignore the links.
   */
  public long linkCost(int task) {
    return linkCost[task];
  }

  /** The cost of task t at {@code level} when {@code nonLocal} tasks in all are not node-local: its level's, its link's. */
  public long cost(int task, Level level, long nonLocal) {
    return cost.cost(level, nonLocal) + (level == Level.LOCAL ? 0 : linkCost[task]);
  }

  /** Number of tasks {@code m}. */
  public int tasks() {
    return taskOff.length - 1;
  }

  /** Number of servers {@code n} (host slots). */
  public int servers() {
    return serverHost.length;
  }

  public int hostOf(int server) {
    return serverHost[server];
  }

  /** The servers (slots) of a host. */
  public int[] serversOf(int host) {
    return hostServers[host].clone();
  }

  /** {@code φ_s}, scaled. */
  public long initialLoad(int server) {
    return initialLoad[server];
  }

  public int rackOfServer(int server) {
    return cluster.rackOf(serverHost[server]);
  }

  public boolean hasRacks() {
    return cluster.hasRacks();
  }

  /** Replica servers of task t: {@code replicaServers()[replicaStart(t) .. replicaEnd(t))}. */
  public int replicaStart(int task) {
    return taskOff[task];
  }

  public int replicaEnd(int task) {
    return taskOff[task + 1];
  }

  /** The shared edge array; read only. */
  public int[] replicaServers() {
    return taskSrv;
  }

  public int degree(int task) {
    return taskOff[task + 1] - taskOff[task];
  }

  /** Tasks local to server s: {@code localTasks()[localStart(s) .. localEnd(s))}, ascending. */
  public int localStart(int server) {
    return srvOff[server];
  }

  public int localEnd(int server) {
    return srvOff[server + 1];
  }

  /** The shared server→task array; read only. */
  public int[] localTasks() {
    return srvTask;
  }

  /** Servers of rack r: {@code rackServers()[rackStart(r) .. rackEnd(r))}. */
  public int rackStart(int rack) {
    return rackOff[rack];
  }

  public int rackEnd(int rack) {
    return rackOff[rack + 1];
  }

  public int[] rackServers() {
    return rackSrv;
  }

  /** Distinct racks holding a replica of task t (empty without racks). */
  public int taskRackStart(int task) {
    return taskRackOff[task];
  }

  public int taskRackEnd(int task) {
    return taskRackOff[task + 1];
  }

  public int[] taskRacks() {
    return taskRacks;
  }

  public boolean isLocal(int task, int server) {
    int h = serverHost[server];
    for (int i = 0; i < graph.replicaCount(task); i++) {
      if (graph.replica(task, i) == h) {
        return true;
      }
    }
    return false;
  }

  /** The locality level of running task t on server s. */
  public Level level(int task, int server) {
    if (isLocal(task, server)) {
      return Level.LOCAL;
    }
    if (cluster.hasRacks()) {
      int r = rackOfServer(server);
      for (int i = taskRackOff[task]; i < taskRackOff[task + 1]; i++) {
        if (taskRacks[i] == r) {
          return Level.RACK;
        }
      }
    }
    return Level.REMOTE;
  }

  public String taskId(int task) {
    return graph.taskId(task);
  }

  public String hostName(int server) {
    return cluster.hostName(serverHost[server]);
  }
}
