package io.dataloc.core.offline;

import io.dataloc.core.model.Assignment;
import io.dataloc.core.model.Cluster;
import io.dataloc.core.model.Problem;
import java.util.HashSet;
import java.util.Set;

/**
 * Independent reference computations for the tests: they read the cluster and placement graph
 * directly and share no code with the evaluator or the assigners.
 */
final class Oracle {
  private Oracle() {}

  /** Measures recomputed from scratch. */
  record Measures(long makespan, long activeMakespan, long resource, int local, int rack, int remote) {}

  static Measures measure(Problem p, int[] serverOf) {
    Cluster c = p.cluster();
    int m = serverOf.length;
    int[] level = new int[m];
    int local = 0;
    int rack = 0;
    for (int t = 0; t < m; t++) {
      int host = p.hostOf(serverOf[t]);
      Set<Integer> hosts = new HashSet<>();
      Set<Integer> racks = new HashSet<>();
      for (int h : p.graph().replicas(t)) {
        hosts.add(h);
        racks.add(c.rackOf(h));
      }
      if (hosts.contains(host)) {
        level[t] = 0;
        local++;
      } else if (c.hasRacks() && racks.contains(c.rackOf(host))) {
        level[t] = 1;
        rack++;
      } else {
        level[t] = 2;
      }
    }
    long r = m - local;
    long[] load = new long[p.servers()];
    boolean[] active = new boolean[p.servers()];
    long resource = 0;
    for (int t = 0; t < m; t++) {
      long leastShared = Long.MAX_VALUE;
      for (int h : p.graph().replicas(t)) {
        leastShared = Math.min(leastShared, c.readsOut(h));
      }
      long link = leastShared == Long.MAX_VALUE ? 0 : p.cost().perSharedRead() * leastShared;
      long cost = switch (level[t]) {
        case 0 -> p.cost().local();
        case 1 -> p.cost().rack() + p.cost().remotePerRemoteTask() * r + link;
        default -> p.cost().remote() + p.cost().remotePerRemoteTask() * r + link;
      };
      load[serverOf[t]] += cost;
      active[serverOf[t]] = true;
      resource += cost;
    }
    long makespan = 0;
    long activeMakespan = 0;
    for (int s = 0; s < p.servers(); s++) {
      long l = load[s] + c.initialLoad(p.hostOf(s));
      makespan = Math.max(makespan, l);
      if (active[s]) {
        activeMakespan = Math.max(activeMakespan, l);
      }
    }
    return new Measures(makespan, activeMakespan, resource, local, rack, m - local - rack);
  }

  /** The optimal makespan by full enumeration of the n^m assignments (tiny instances only). */
  static long bruteForceMakespan(Problem p) {
    int m = p.tasks();
    int n = p.servers();
    int[] a = new int[m];
    long best = Long.MAX_VALUE;
    while (true) {
      best = Math.min(best, measure(p, a).makespan());
      int i = 0;
      while (i < m && ++a[i] == n) {
        a[i++] = 0;
      }
      if (i == m) {
        return best;
      }
    }
  }

  /** The least all-local makespan by enumeration over each task's replica servers. */
  static long bruteForceAllLocal(Problem p) {
    int m = p.tasks();
    int[] idx = new int[m];
    int[] a = new int[m];
    long best = Long.MAX_VALUE;
    int[] srv = p.replicaServers();
    while (true) {
      for (int t = 0; t < m; t++) {
        a[t] = srv[p.replicaStart(t) + idx[t]];
      }
      best = Math.min(best, measure(p, a).makespan());
      int i = 0;
      while (i < m && ++idx[i] == p.degree(i)) {
        idx[i++] = 0;
      }
      if (i == m) {
        return best;
      }
    }
  }

  static Measures measure(Problem p, Assignment a) {
    return measure(p, a.toArray());
  }
}
