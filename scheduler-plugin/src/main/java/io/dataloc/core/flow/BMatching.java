package io.dataloc.core.flow;

import io.dataloc.core.model.Problem;
import java.util.Arrays;

/**
 * An incremental bipartite b-matching between tasks and their replica servers: each task matched
 * at most once, server {@code s} holding at most {@code cap[s]} tasks. It is the max-flow engine
 * the offline assigners share (source → task, cap 1 → replica server → sink, cap {@code cap[s]}),
 * specialised to unit task capacities so that a flow is just {@code serverOf[t]}.
 *
 * <p>Augmentation is by breadth-first alternating paths, from a task ({@link #augmentFromTask}) or
 * from a server ({@link #augmentFromServer}). Within one <em>phase</em> (capacities fixed), a
 * search that fails marks every node it visited dead: a dead region has no residual path to spare
 * capacity (resp. to an unmatched task), no later augmenting path can enter it, so it stays dead
 * until capacities change (the classic "try every vertex once" lemma of Kuhn's algorithm,
 * extended to b-matching). Hence failed searches cost {@code O(|E|)} per phase in total.
 *
 * <p>Capacities may only grow between phases ({@link #setCapacity} then {@link #newPhase}), so a
 * maximum matching for the old capacities is extended, never rebuilt (Fischer et al., Alg. 2 line
 * 6). Deterministic: ties follow index order.
 */
public final class BMatching {
  private final Problem p;
  private final int[] serverOf;
  private final int[] count;
  private final long[] cap;
  private final int[] seenServer;
  private final int[] seenTask;
  private final int[] deadServer;
  private final int[] viaTask;
  private final int[] viaServer;
  private final int[] queue;
  private int stamp;
  private int phase = 1;
  private int matched;

  public BMatching(Problem p) {
    this.p = p;
    int n = p.servers();
    int m = p.tasks();
    serverOf = new int[m];
    Arrays.fill(serverOf, -1);
    count = new int[n];
    cap = new long[n];
    seenServer = new int[n];
    seenTask = new int[m];
    deadServer = new int[n];
    viaTask = new int[n];
    viaServer = new int[m];
    queue = new int[Math.max(n, m) + 1];
  }

  public void setCapacity(int server, long capacity) {
    cap[server] = capacity;
  }

  public long capacity(int server) {
    return cap[server];
  }

  /** Starts a new phase: forgets dead marks (call after raising capacities). */
  public void newPhase() {
    phase++;
  }

  public int serverOf(int task) {
    return serverOf[task];
  }

  public int count(int server) {
    return count[server];
  }

  public int matched() {
    return matched;
  }

  /** A copy of the task→server array ({@code -1} = unmatched). */
  public int[] snapshot() {
    return serverOf.clone();
  }

  /** Matches task t directly to a server with spare capacity, if t has one; least-filled first. */
  public boolean matchDirect(int task) {
    int[] srv = p.replicaServers();
    int best = -1;
    for (int e = p.replicaStart(task); e < p.replicaEnd(task); e++) {
      int s = srv[e];
      if (count[s] < cap[s] && (best < 0 || count[s] < count[best])) {
        best = s;
      }
    }
    if (best < 0) {
      return false;
    }
    serverOf[task] = best;
    count[best]++;
    matched++;
    return true;
  }

  /**
   * Finds an alternating path from unmatched task {@code t0} to a server with spare capacity and
   * flips it, so t0 becomes matched and one server's count grows by one.
   *
   * @return false if no such path exists in this phase (the visited region is then dead)
   */
  public boolean augmentFromTask(int t0) {
    if (matchDirect(t0)) {
      return true;
    }
    int[] srv = p.replicaServers();
    int[] loc = p.localTasks();
    stamp++;
    int head = 0;
    int tail = 0;
    queue[tail++] = t0;
    seenTask[t0] = stamp;
    while (head < tail) {
      int t = queue[head++];
      for (int e = p.replicaStart(t); e < p.replicaEnd(t); e++) {
        int s = srv[e];
        if (seenServer[s] == stamp || deadServer[s] == phase) {
          continue;
        }
        seenServer[s] = stamp;
        viaTask[s] = t;
        if (count[s] < cap[s]) {
          flipFromTaskSide(s);
          count[s]++;
          matched++;
          return true;
        }
        for (int i = p.localStart(s); i < p.localEnd(s); i++) {
          int t2 = loc[i];
          if (serverOf[t2] == s && seenTask[t2] != stamp) {
            seenTask[t2] = stamp;
            queue[tail++] = t2;
          }
        }
      }
    }
    markDead(tail);
    return false;
  }

  private void flipFromTaskSide(int free) {
    int s = free;
    while (true) {
      int t = viaTask[s];
      int prev = serverOf[t];
      serverOf[t] = s;
      if (prev < 0) {
        return;
      }
      s = prev;
    }
  }

  /**
   * Finds an alternating path from server {@code s0} to an unmatched task local to some server on
   * the path, and flips it: s0 gains one task, every other server keeps its count (BAR's BAA step).
   * Capacities are not consulted.
   *
   * @return false if none exists in this phase (the visited region is then dead)
   */
  public boolean augmentFromServer(int s0) {
    if (deadServer[s0] == phase) {
      return false;
    }
    int[] loc = p.localTasks();
    stamp++;
    int head = 0;
    int tail = 0;
    queue[tail++] = s0;
    seenServer[s0] = stamp;
    while (head < tail) {
      int s = queue[head++];
      for (int i = p.localStart(s); i < p.localEnd(s); i++) {
        int t = loc[i];
        if (seenTask[t] == stamp) {
          continue;
        }
        seenTask[t] = stamp;
        viaServer[t] = s;
        int owner = serverOf[t];
        if (owner < 0) {
          flipFromServerSide(t, s0);
          count[s0]++;
          matched++;
          return true;
        }
        if (owner != s && seenServer[owner] != stamp && deadServer[owner] != phase) {
          seenServer[owner] = stamp;
          viaTask[owner] = t;
          queue[tail++] = owner;
        }
      }
    }
    // Every server in the queue is dead for this phase.
    for (int i = 0; i < tail; i++) {
      deadServer[queue[i]] = phase;
    }
    return false;
  }

  private void flipFromServerSide(int freeTask, int s0) {
    int t = freeTask;
    while (true) {
      int s = viaServer[t];
      serverOf[t] = s;
      if (s == s0) {
        return;
      }
      t = viaTask[s];
    }
  }

  private void markDead(int queuedTasks) {
    // The servers seen by the failed task-side search are the replicas of the queued tasks that
    // carry this search's stamp.
    int[] srv = p.replicaServers();
    for (int i = 0; i < queuedTasks; i++) {
      int t = queue[i];
      for (int e = p.replicaStart(t); e < p.replicaEnd(t); e++) {
        int s = srv[e];
        if (seenServer[s] == stamp) {
          deadServer[s] = phase;
        }
      }
    }
  }

  /** Assigns task t to server s outside the matching (e.g. a remote placement); count grows. */
  public void forceAssign(int task, int server) {
    if (serverOf[task] >= 0) {
      count[serverOf[task]]--;
    } else {
      matched++;
    }
    serverOf[task] = server;
    count[server]++;
  }
}
