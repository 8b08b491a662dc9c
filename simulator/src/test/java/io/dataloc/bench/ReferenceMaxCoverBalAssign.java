package io.dataloc.bench;

import io.dataloc.core.model.Assignment;
import io.dataloc.core.model.Evaluation;
import io.dataloc.core.model.Problem;
import io.dataloc.core.offline.Assigner;
import java.util.Arrays;
import java.util.PriorityQueue;
import org.jgrapht.alg.flow.EdmondsKarpMFImpl;
import org.jgrapht.alg.flow.PushRelabelMFImpl;
import org.jgrapht.alg.interfaces.MaximumFlowAlgorithm;
import org.jgrapht.graph.DefaultWeightedEdge;
import org.jgrapht.graph.SimpleDirectedWeightedGraph;

/**
 * A plain MaxCover-BalAssign on JGraphT's general max-flow (push-relabel): for every threshold it
 * builds the flow network source → task (1) → replica server (1) → sink (cap) from scratch and
 * solves it, then runs bal-assign with a priority queue. Test and benchmark scope only: the
 * reference our incremental {@code flow} assigner is measured and cross-checked against. Same
 * threshold rule and stopping rule as ours, so the two differ only in how the max cover is found.
 */
public final class ReferenceMaxCoverBalAssign implements Assigner {
  private final boolean edmondsKarp;

  /** With JGraphT's push-relabel max flow (the faster of its two general solvers here). */
  public ReferenceMaxCoverBalAssign() {
    this(false);
  }

  /** @param edmondsKarp use JGraphT's Edmonds–Karp instead of push-relabel */
  public ReferenceMaxCoverBalAssign(boolean edmondsKarp) {
    this.edmondsKarp = edmondsKarp;
  }

  @Override
  public String name() {
    return edmondsKarp ? "jgrapht-flow-ek" : "jgrapht-flow";
  }

  /** The size of a maximum cover at threshold {@code level} (for cross-checking). */
  public static int maxCover(Problem p, long level, int[] serverOfOut) {
    return maxCover(p, level, serverOfOut, false);
  }

  static int maxCover(Problem p, long level, int[] serverOfOut, boolean edmondsKarp) {
    int m = p.tasks();
    int n = p.servers();
    int source = m + n;
    int sink = m + n + 1;
    SimpleDirectedWeightedGraph<Integer, DefaultWeightedEdge> g =
        new SimpleDirectedWeightedGraph<>(DefaultWeightedEdge.class);
    for (int v = 0; v < m + n + 2; v++) {
      g.addVertex(v);
    }
    int[] srv = p.replicaServers();
    for (int t = 0; t < m; t++) {
      g.setEdgeWeight(g.addEdge(source, t), 1);
      for (int e = p.replicaStart(t); e < p.replicaEnd(t); e++) {
        g.setEdgeWeight(g.addEdge(t, m + srv[e]), 1);
      }
    }
    for (int s = 0; s < n; s++) {
      long room = level - p.initialLoad(s);
      long cap = room > 0 ? room / p.cost().local() : 0;
      g.setEdgeWeight(g.addEdge(m + s, sink), cap);
    }
    MaximumFlowAlgorithm<Integer, DefaultWeightedEdge> solver =
        edmondsKarp ? new EdmondsKarpMFImpl<>(g) : new PushRelabelMFImpl<>(g);
    MaximumFlowAlgorithm.MaximumFlow<DefaultWeightedEdge> flow = solver.getMaximumFlow(source, sink);
    Arrays.fill(serverOfOut, -1);
    for (int t = 0; t < m; t++) {
      for (int e = p.replicaStart(t); e < p.replicaEnd(t); e++) {
        if (flow.getFlowMap().get(g.getEdge(t, m + srv[e])) > 0.5) {
          serverOfOut[t] = srv[e];
        }
      }
    }
    return (int) Math.round(flow.getValue());
  }

  @Override
  public Assignment assign(Problem p) {
    int m = p.tasks();
    int n = p.servers();
    long wLoc = p.cost().local();
    long minPhi = Long.MAX_VALUE;
    long maxPhi = 0;
    for (int s = 0; s < n; s++) {
      minPhi = Math.min(minPhi, p.initialLoad(s));
      maxPhi = Math.max(maxPhi, p.initialLoad(s));
    }
    int[] best = null;
    long bestMakespan = Long.MAX_VALUE;
    int[] serverOf = new int[m];
    for (long level = minPhi + wLoc; level <= maxPhi + wLoc * (m + 1L); level += wLoc) {
      int covered = maxCover(p, level, serverOf, edmondsKarp);
      int[] done = balAssign(p, serverOf, m - covered);
      long makespan = Evaluation.of(p, Assignment.of(p, done), 0).makespan();
      if (makespan < bestMakespan) {
        bestMakespan = makespan;
        best = done;
      }
      if (covered == m || level >= bestMakespan) {
        break;
      }
    }
    return Assignment.of(p, best);
  }

  private static int[] balAssign(Problem p, int[] partial, int unassigned) {
    int[] serverOf = partial.clone();
    long[] load = new long[p.servers()];
    for (int s = 0; s < p.servers(); s++) {
      load[s] = p.initialLoad(s);
    }
    for (int t = 0; t < p.tasks(); t++) {
      if (serverOf[t] >= 0) {
        load[serverOf[t]] += p.cost().local();
      }
    }
    PriorityQueue<long[]> pq = new PriorityQueue<>((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
    for (int s = 0; s < p.servers(); s++) {
      pq.add(new long[] {load[s], s});
    }
    long cRem = p.cost().remoteCost(unassigned);
    for (int t = 0; t < p.tasks(); t++) {
      if (serverOf[t] < 0) {
        long[] top = pq.poll();
        int s = (int) top[1];
        serverOf[t] = s;
        long c = p.isLocal(t, s) ? p.cost().local() : cRem;
        pq.add(new long[] {top[0] + c, s});
      }
    }
    return serverOf;
  }
}
