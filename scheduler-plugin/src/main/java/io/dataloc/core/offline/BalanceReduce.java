package io.dataloc.core.offline;

import io.dataloc.core.flow.BMatching;
import io.dataloc.core.model.Assignment;
import io.dataloc.core.model.Cancellation;
import io.dataloc.core.model.Level;
import io.dataloc.core.model.Problem;

/**
 * BAR, Balance-Reduce — Jin, Luo, Song, Dong and Xiong (CCGrid 2011). Handles initial loads and a
 * congestion-dependent remote cost.
 *
 * <p><b>Balance</b> (their BAA): repeatedly take the least-loaded server ({@code φ_s + count_s·w_loc},
 * ties by index) and search an augmenting path from it to an unplaced task through the residual
 * graph (this may move placed tasks between their replica servers), {@link
 * BMatching#augmentFromServer}; on success it gains one task; on failure its whole search region
 * is dead for good (no residual path to an unplaced task can ever enter it). The result is a
 * balanced all-local allocation, whose makespan is the least among all all-local allocations
 * (their Thm 1; checked against brute force in the tests). {@code O(m·|E|)} worst case, near
 * {@code O(|E| log n)} in practice since most searches end at the first server.
 *
 * <p><b>Reduce</b>: trade locality for makespan one task at a time. Take a task from the most
 * loaded active server of the local allocation {@code Lp} into the remote pool {@code P};
 * {@code M_exp} = makespan of {@code Lp}; place the task where it finishes first (its replica
 * servers at {@code w_loc}, the least-loaded server of a replica rack at {@code w_rack(|P|)}, the
 * least-loaded server anywhere at {@code w_rem(|P|)}). If the new allocation {@code R} exceeds
 * {@code M_exp}, stop and keep the better of {@code R} and the previous one. This is an
 * incremental form of the paper's loop: earlier pool tasks keep their place instead of being
 * re-placed from scratch each round, which makes a round {@code O(log n)} instead of
 * {@code O(|P| log n)}; every pool task is charged the pessimistic congestion {@code w(|P|)}.
 * Makespans here are over active servers, the paper's definition.
 *
 * <p><b>Links.</b> BAR's "according to network state": a pool task placed off its data also pays
 * its link cost ({@link Problem#linkCost}: reads already sharing the least shared link among its
 * replica hosts), so where the data hosts' links are busy the reduce phase moves fewer tasks off
 * them, and stops sooner.
 */
public final class BalanceReduce implements Assigner {
  @Override
  public String name() {
    return "bar";
  }

  @Override
  public Assignment assign(Problem p) {
    int[] serverOf = balance(p);
    new Reducer(p, serverOf).run();
    return Assignment.of(p, serverOf);
  }

  /** The balance phase alone: a balanced all-local allocation. */
  public static int[] balance(Problem p) {
    BMatching bm = new BMatching(p);
    ServerHeap heap = new ServerHeap(p.servers());
    long wLoc = p.cost().local();
    for (int s = 0; s < p.servers(); s++) {
      heap.push(s, p.initialLoad(s));
    }
    while (bm.matched() < p.tasks() && !heap.isEmpty()) {
      Cancellation.check();
      long load = heap.peekKey();
      int s = heap.pop();
      if (bm.augmentFromServer(s)) {
        heap.push(s, load + wLoc);
      }
    }
    return bm.snapshot();
  }

  /** The reduce phase over a balanced allocation, in place. */
  private static final class Reducer {
    private final Problem p;
    private final int[] serverOf;
    private final long wLoc;
    private final long perRemote;
    private final boolean[] pooled;
    private final Level[] pooledLevel;
    // Lp: local allocation without the pool.
    private final long[] lpLoad;
    private final int[] lpCount;
    private final ServerHeap lpMax;
    // R: Lp plus the placed pool; non-local pool tasks pay perRemote·|P| on top of rBase.
    private final long[] rBase;
    private final int[] rNl;
    private final int[] rCount;
    private final GroupedLoads all;
    private final GroupedLoads[] byRack;
    private int pool;

    Reducer(Problem p, int[] serverOf) {
      this.p = p;
      this.serverOf = serverOf;
      int n = p.servers();
      wLoc = p.cost().local();
      perRemote = p.cost().remotePerRemoteTask();
      pooled = new boolean[p.tasks()];
      pooledLevel = new Level[p.tasks()];
      lpLoad = new long[n];
      lpCount = new int[n];
      rBase = new long[n];
      rNl = new int[n];
      rCount = new int[n];
      for (int s = 0; s < n; s++) {
        lpLoad[s] = p.initialLoad(s);
      }
      for (int t = 0; t < p.tasks(); t++) {
        lpLoad[serverOf[t]] += wLoc;
        lpCount[serverOf[t]]++;
      }
      lpMax = new ServerHeap(n);
      all = new GroupedLoads(rBase, rNl, rCount);
      byRack = new GroupedLoads[p.cluster().rackCount()];
      for (int r = 0; r < byRack.length; r++) {
        byRack[r] = new GroupedLoads(rBase, rNl, rCount);
      }
      for (int s = 0; s < n; s++) {
        rBase[s] = lpLoad[s];
        rCount[s] = lpCount[s];
        touch(s);
        if (lpCount[s] > 0) {
          lpMax.push(s, -lpLoad[s]);
        }
      }
    }

    private void touch(int s) {
      all.touch(s);
      if (byRack.length > 0) {
        byRack[p.rackOfServer(s)].touch(s);
      }
    }

    private int lpMostLoaded() {
      while (!lpMax.isEmpty()) {
        int s = lpMax.peek();
        if (lpCount[s] > 0 && -lpMax.peekKey() == lpLoad[s]) {
          return s;
        }
        lpMax.pop();
      }
      return -1;
    }

    private long rMakespan() {
      int s = all.maxActive(perRemote * pool);
      return s < 0 ? 0 : all.load(s, perRemote * pool);
    }

    void run() {
      long previous = rMakespan();
      while (true) {
        Cancellation.check();
        int from = lpMostLoaded();
        if (from < 0) {
          return;
        }
        int t = lastLocalTask(from);
        // Move t from Lp into the pool.
        pooled[t] = true;
        pool++;
        lpLoad[from] -= wLoc;
        lpCount[from]--;
        lpMax.push(from, -lpLoad[from]);
        rBase[from] -= wLoc;
        rCount[from]--;
        touch(from);
        int at = lpMostLoaded();
        long mExp = at < 0 ? 0 : lpLoad[at];
        place(t);
        long now = rMakespan();
        if (now > mExp) {
          if (now >= previous) {
            undo(t, from);
          }
          return;
        }
        previous = now;
      }
    }

    private int lastLocalTask(int s) {
      int[] loc = p.localTasks();
      for (int i = p.localEnd(s) - 1; i >= p.localStart(s); i--) {
        int t = loc[i];
        if (serverOf[t] == s && !pooled[t]) {
          return t;
        }
      }
      throw new IllegalStateException("server " + s + " has no local task in Lp");
    }

    private void place(int t) {
      long k = perRemote * pool;
      long cRack = p.cost().rackCost(pool) + p.linkCost(t);
      long cRem = p.cost().remoteCost(pool) + p.linkCost(t);
      int bestServer = -1;
      long bestFinish = Long.MAX_VALUE;
      Level bestLevel = Level.REMOTE;
      int[] srv = p.replicaServers();
      for (int e = p.replicaStart(t); e < p.replicaEnd(t); e++) {
        int s = srv[e];
        long f = all.load(s, k) + wLoc;
        if (f < bestFinish || (f == bestFinish && s < bestServer)) {
          bestServer = s;
          bestFinish = f;
          bestLevel = Level.LOCAL;
        }
      }
      int[] racks = p.taskRacks();
      for (int i = p.taskRackStart(t); i < p.taskRackEnd(t); i++) {
        int s = byRack[racks[i]].min(k);
        long f = all.load(s, k) + (p.isLocal(t, s) ? wLoc : cRack);
        if (f < bestFinish) {
          bestServer = s;
          bestFinish = f;
          bestLevel = p.level(t, s);
        }
      }
      int s = all.min(k);
      Level level = p.level(t, s);
      long f = all.load(s, k) + (level == Level.LOCAL ? wLoc : level == Level.RACK ? cRack : cRem);
      if (f < bestFinish) {
        bestServer = s;
        bestLevel = level;
      }
      assignPooled(t, bestServer, bestLevel, +1);
    }

    private void assignPooled(int t, int s, Level level, int sign) {
      pooledLevel[t] = level;
      long base = level == Level.LOCAL ? wLoc
          : (level == Level.RACK ? p.cost().rack() : p.cost().remote()) + p.linkCost(t);
      rBase[s] += sign * base;
      rCount[s] += sign;
      if (level != Level.LOCAL) {
        rNl[s] += sign;
      }
      if (sign > 0) {
        serverOf[t] = s;
      }
      touch(s);
    }

    private void undo(int t, int from) {
      assignPooled(t, serverOf[t], pooledLevel[t], -1);
      pooled[t] = false;
      pool--;
      serverOf[t] = from;
      lpLoad[from] += wLoc;
      lpCount[from]++;
      lpMax.push(from, -lpLoad[from]);
      rBase[from] += wLoc;
      rCount[from]++;
      touch(from);
    }
  }
}
