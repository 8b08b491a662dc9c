package io.dataloc.yarn;

import io.dataloc.core.model.Assignment;
import io.dataloc.core.model.Problem;
import java.util.Arrays;

/**
 * Makes a plan survive the MapReduce AM's matching rule. The scheduler decides how many
 * containers of a job each host gets; the AM runs, in each, the first pending task of that host's
 * list (then of its rack's, then any). A plan's per-host counts can therefore pull tasks planned
 * for one host onto another and leave a later host with no local task. This repair replays the
 * AM on the plan's per-host counts (hosts taking containers in index order, one wave of free slots
 * at a time), and while some host gets a task that is not local to it, moves one unit of count
 * from that host to the least-loaded replica host of that task, never above the plan's largest
 * count (balance is kept). The replayed assignment, not the raw plan, is what the engine queues.
 */
final class AmConsistentPlan {
  private AmConsistentPlan() {}

  /**
   * @param p the planning problem (hosts with slots)
   * @param plan the assigner's plan
   * @param maxRounds bound on repair moves
   * @return the AM-consistent assignment with the same or better locality and no host above the
   *     plan's largest per-host count
   */
  static Assignment repair(Problem p, Assignment plan, int maxRounds) {
    int hosts = p.cluster().hostCount();
    int[] quota = new int[hosts];
    for (int t = 0; t < p.tasks(); t++) {
      quota[p.hostOf(plan.server(t))]++;
    }
    int cap = Arrays.stream(quota).max().orElse(0);
    int[] hostOf = replay(p, quota);
    for (int round = 0; round < maxRounds; round++) {
      int moved = -1;
      for (int t = 0; t < p.tasks() && moved < 0; t++) {
        int h = hostOf[t];
        if (isLocalHost(p, t, h)) {
          continue;
        }
        int best = -1;
        for (int i = 0; i < p.graph().replicaCount(t); i++) {
          int r = p.graph().replica(t, i);
          if (quota[r] < cap && (best < 0 || quota[r] < quota[best])) {
            best = r;
          }
        }
        if (best >= 0) {
          quota[h]--;
          quota[best]++;
          moved = t;
        }
      }
      if (moved < 0) {
        break;
      }
      int[] next = replay(p, quota);
      if (local(p, next) < local(p, hostOf)) {
        break;
      }
      hostOf = next;
    }
    int[] slotCursor = new int[hosts];
    int[] serverOf = new int[p.tasks()];
    for (int t = 0; t < p.tasks(); t++) {
      int[] servers = p.serversOf(hostOf[t]);
      serverOf[t] = servers[slotCursor[hostOf[t]]++ % servers.length];
    }
    return Assignment.of(p, serverOf);
  }

  /** The AM's matching on per-host container counts, hosts in index order, wave by wave. */
  static int[] replay(Problem p, int[] quota) {
    int m = p.tasks();
    int hosts = quota.length;
    int[] hostOf = new int[m];
    Arrays.fill(hostOf, -1);
    int[] left = quota.clone();
    int[] cursor = new int[hosts];
    int[][] list = hostLists(p);
    int anyCursor = 0;
    int assigned = 0;
    while (assigned < m) {
      boolean progress = false;
      for (int h = 0; h < hosts; h++) {
        int take = Math.min(left[h], p.cluster().slots(h));
        for (int k = 0; k < take && assigned < m; k++) {
          int t = -1;
          while (cursor[h] < list[h].length && hostOf[list[h][cursor[h]]] >= 0) {
            cursor[h]++;
          }
          if (cursor[h] < list[h].length) {
            t = list[h][cursor[h]];
          } else {
            t = firstInRack(p, h, hostOf);
            if (t < 0) {
              while (hostOf[anyCursor] >= 0) {
                anyCursor++;
              }
              t = anyCursor;
            }
          }
          hostOf[t] = h;
          left[h]--;
          assigned++;
          progress = true;
        }
      }
      if (!progress) {
        break;
      }
    }
    for (int t = 0; t < m; t++) {
      if (hostOf[t] < 0) {
        hostOf[t] = p.hostOf(0);
      }
    }
    return hostOf;
  }

  private static int[][] hostLists(Problem p) {
    int hosts = p.cluster().hostCount();
    int[] count = new int[hosts];
    for (int t = 0; t < p.tasks(); t++) {
      for (int i = 0; i < p.graph().replicaCount(t); i++) {
        count[p.graph().replica(t, i)]++;
      }
    }
    int[][] list = new int[hosts][];
    for (int h = 0; h < hosts; h++) {
      list[h] = new int[count[h]];
      count[h] = 0;
    }
    for (int t = 0; t < p.tasks(); t++) {
      for (int i = 0; i < p.graph().replicaCount(t); i++) {
        int h = p.graph().replica(t, i);
        list[h][count[h]++] = t;
      }
    }
    return list;
  }

  private static int firstInRack(Problem p, int h, int[] hostOf) {
    if (!p.hasRacks()) {
      return -1;
    }
    int rack = p.cluster().rackOf(h);
    for (int t = 0; t < p.tasks(); t++) {
      if (hostOf[t] < 0) {
        for (int i = 0; i < p.graph().replicaCount(t); i++) {
          if (p.cluster().rackOf(p.graph().replica(t, i)) == rack) {
            return t;
          }
        }
      }
    }
    return -1;
  }

  private static boolean isLocalHost(Problem p, int t, int h) {
    for (int i = 0; i < p.graph().replicaCount(t); i++) {
      if (p.graph().replica(t, i) == h) {
        return true;
      }
    }
    return false;
  }

  private static int local(Problem p, int[] hostOf) {
    int n = 0;
    for (int t = 0; t < hostOf.length; t++) {
      n += isLocalHost(p, t, hostOf[t]) ? 1 : 0;
    }
    return n;
  }
}
