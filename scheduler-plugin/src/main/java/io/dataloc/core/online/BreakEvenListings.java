package io.dataloc.core.online;

import io.dataloc.core.jobs.JobView;
import java.util.Arrays;
import java.util.Set;
import java.util.function.IntPredicate;

/**
 * Where {@link BreakEven}'s waiting tasks are listed: a task routed freely at each of its replica
 * hosts (but one it avoids), at their racks and in the cluster's list; a task planned local to a
 * host at that host only (its pin) and in the cluster's list. Entries are never searched for
 * removal: each carries the task's stamp, a task leaving bumps it (its entries go stale), and the
 * {@link JobLists} drop stale entries as they meet them.
 */
final class BreakEvenListings {
  private final PolicyState s;
  private JobLists[] hosts = new JobLists[0];
  private int[] pinnedCount = new int[0];
  private JobLists[] racks = new JobLists[0];
  private final JobLists all = new JobLists();
  /** Per task: the stamp its live entries carry, its planned host (or -1), a host it avoids (or -1). */
  private int[] stamp = new int[0];
  private int[] pin = new int[0];
  private int[] avoid = new int[0];
  /** Per task: the hosts it is listed at; null if not listed. */
  private int[][] listedAt = new int[0][];
  /** Per task: the racks it is listed in; null if none. */
  private int[][] listedIn = new int[0][];

  BreakEvenListings(PolicyState s) {
    this.s = s;
  }

  /** Lists the task afresh: pinned to {@code planned} if that is a host (else -1), never at {@code avoidHost}. */
  void list(int task, int planned, int avoidHost) {
    grow(task);
    if (listedAt[task] != null) {
      leave(task);
    }
    stamp[task]++;
    pin[task] = planned;
    avoid[task] = avoidHost;
    JobView job = s.job(task);
    int[] at;
    int[] in = null;
    if (planned >= 0) {
      hostList(planned).add(job, task, stamp[task]);
      at = new int[] {planned};
      pinnedCount[planned]++;
    } else {
      int[] replicas = s.replicas(task);
      int[] hs = new int[replicas.length];
      int[] rs = new int[replicas.length];
      int n = 0;
      int k = 0;
      for (int h : replicas) {
        if (h != avoidHost) { // a host down now keeps its list: it may come back
          hostList(h).add(job, task, stamp[task]);
          hs[n++] = h;
        }
        int r = s.rackOf(h);
        if (r != PolicyState.NO_RACK && !contains(rs, k, r)) {
          rackList(r).add(job, task, stamp[task]);
          rs[k++] = r;
        }
      }
      at = Arrays.copyOf(hs, n);
      in = k == 0 ? null : Arrays.copyOf(rs, k);
    }
    all.add(job, task, stamp[task]);
    listedAt[task] = at;
    listedIn[task] = in;
  }

  /** The task is no longer listed anywhere: every entry of it goes stale, every count drops. */
  private void leave(int task) {
    int[] at = listedAt[task];
    if (at == null) {
      return;
    }
    JobView job = s.job(task);
    for (int h : at) {
      hosts[h].left(job, stamp, s);
      if (pin[task] == h) {
        pinnedCount[h]--;
      }
    }
    if (listedIn[task] != null) {
      for (int r : listedIn[task]) {
        racks[r].left(job, stamp, s);
      }
    }
    all.left(job, stamp, s);
    stamp[task]++;
    pin[task] = -1;
    avoid[task] = -1;
    listedAt[task] = null;
    listedIn[task] = null;
  }

  /** The task planned there, or -1. */
  int pin(int task) {
    return pin[task];
  }

  /** The host the task was refused by, or -1. */
  int avoid(int task) {
    return avoid[task];
  }

  /** The task is no longer listed (if it was). */
  void removed(int task) {
    if (task < listedAt.length) {
      leave(task);
    }
  }

  /** The first candidate of the list at {@code level} for {@code host} ({@link JobLists#first}), or -1. */
  int first(int host, int level, Set<JobView> excluded, IntPredicate ok) {
    JobLists list = at(host, level);
    return list == null ? -1 : list.first(s, stamp, excluded, ok);
  }

  /** Every job's candidate of the list at {@code level} for {@code host}, in the job order. */
  int[] ranked(int host, int level, IntPredicate ok) {
    JobLists list = at(host, level);
    return list == null ? new int[0] : list.ranked(s, stamp, ok);
  }

  /** The job's oldest task in the list at {@code level} for {@code host}, or -1. */
  int oldestOf(int host, int level, JobView job) {
    JobLists list = at(host, level);
    return list == null ? -1 : list.oldestOf(job, stamp, s);
  }

  /** The host's list, its rack's and the cluster's, by level 0, 1, 2; null for a host with no rack. */
  private JobLists at(int host, int level) {
    if (level == 0) {
      return hostList(host);
    }
    if (level == 1) {
      return s.rackOf(host) == PolicyState.NO_RACK ? null : rackList(s.rackOf(host));
    }
    return all;
  }

  /** The host the task is pinned to while it is listed, else -1. */
  int queueHostOf(int task) {
    return task < pin.length && listedAt[task] != null ? pin[task] : -1;
  }

  /** Visits the job's tasks pinned to {@code host} while {@code visit} says go on. */
  void forEachQueued(int host, JobView job, IntPredicate visit) {
    if (host >= 0 && host < hosts.length && hosts[host] != null) {
      hosts[host].forEach(job, stamp, s, t -> pin[t] != host || visit.test(t));
    }
  }

  /**
   * The tasks planned on the lost host, handed back to be routed again. The tasks merely listed
   * there stay listed: the host serves them if it comes back, and meanwhile they wait elsewhere.
   */
  int[] hostLost(int host) {
    if (host >= hosts.length || hosts[host] == null || pinnedCount[host] == 0) {
      return new int[0];
    }
    IntDeque planned = new IntDeque();
    hosts[host].forEachLive(stamp, s, t -> {
      if (pin[t] == host) {
        planned.add(t);
      }
    });
    int[] out = planned.toArray();
    for (int t : out) {
      leave(t);
    }
    return out;
  }

  /** How many tasks are pinned to the host. */
  int queuedFor(int host) {
    return host < pinnedCount.length ? pinnedCount[host] : 0;
  }

  private JobLists hostList(int h) {
    if (h >= hosts.length) {
      int n = Math.max(h + 1, 2 * hosts.length);
      hosts = Arrays.copyOf(hosts, n);
      pinnedCount = Arrays.copyOf(pinnedCount, n);
    }
    if (hosts[h] == null) {
      hosts[h] = new JobLists();
    }
    return hosts[h];
  }

  private JobLists rackList(int r) {
    if (r >= racks.length) {
      racks = Arrays.copyOf(racks, Math.max(r + 1, 2 * racks.length));
    }
    if (racks[r] == null) {
      racks[r] = new JobLists();
    }
    return racks[r];
  }

  private void grow(int task) {
    if (task >= stamp.length) {
      int n = Math.max(task + 1, Math.max(64, 2 * stamp.length));
      stamp = Arrays.copyOf(stamp, n);
      int old = pin.length;
      pin = Arrays.copyOf(pin, n);
      avoid = Arrays.copyOf(avoid, n);
      Arrays.fill(pin, old, n, -1);
      Arrays.fill(avoid, old, n, -1);
      listedAt = Arrays.copyOf(listedAt, n);
      listedIn = Arrays.copyOf(listedIn, n);
    }
  }

  private static boolean contains(int[] a, int n, int v) {
    for (int i = 0; i < n; i++) {
      if (a[i] == v) {
        return true;
      }
    }
    return false;
  }
}
