package io.dataloc.core.offline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.core.model.Assignment;
import io.dataloc.core.model.Cluster;
import io.dataloc.core.model.CostModel;
import io.dataloc.core.model.Evaluation;
import io.dataloc.core.model.LowerBounds;
import io.dataloc.core.model.PlacementGraph;
import io.dataloc.core.model.Problem;
import io.dataloc.core.model.Units;
import io.dataloc.core.workload.RandomProblems;
import io.dataloc.core.workload.RandomProblems.Spec;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Plans priced with the reads the data hosts' links already carry ({@link CostModel#perSharedRead},
 * {@link Cluster#readsOut}): the evaluator and the exact solver against the independent {@link
 * Oracle} and full enumeration on seeded random instances, the lower bounds and BAR's balance
 * guarantee still hold, and on a hot spot BAR keeps maps on their data when those links are busy.
 */
class LinkContentionTest {
  private static final long SEED = 2911L;

  /** A random small problem whose hosts' links carry 0–4 reads, priced at 0.25–1.5 units a shared read. */
  private static Problem withBusyLinks(SplittableRandom rnd, long seed, int maxHosts, int maxTasks) {
    int n = 1 + rnd.nextInt(maxHosts);
    boolean racks = rnd.nextBoolean() && n > 1;
    long perRead = Units.ofDouble(0.25 * (1 + rnd.nextInt(6)));
    CostModel cost = CostModel.of(Units.of(1), Units.of(2), Units.of(3), Units.ofDouble(rnd.nextInt(3) == 0 ? 0.5 : 0),
        perRead);
    Problem base = RandomProblems.generate(new Spec(n, rnd.nextInt(maxTasks + 1), 1, 1 + rnd.nextInt(n),
        rnd.nextInt(3), racks ? 2 : 0, 0, cost, 1), seed);
    Cluster c = base.cluster();
    Cluster.Builder b = Cluster.builder();
    for (int h = 0; h < c.hostCount(); h++) {
      b.host(c.hostName(h), c.hasRacks() ? c.rackName(c.rackOf(h)) : null, c.slots(h), c.initialLoad(h),
          rnd.nextInt(5));
    }
    return Problem.of(b.build(), base.graph(), cost);
  }

  @Test
  void theEvaluatorPricesEachNonLocalTaskByItsLeastSharedLink() {
    SplittableRandom rnd = new SplittableRandom(SEED);
    for (int i = 0; i < 300; i++) {
      long seed = rnd.nextLong();
      Problem p = withBusyLinks(rnd, seed, 5, 12);
      for (Assigner a : new Assigner[] {new BalanceReduce(), new MaxCoverBalAssign(), new RoundRobin()}) {
        Assignment plan = a.assign(p);
        Oracle.Measures want = Oracle.measure(p, plan);
        Evaluation got = Evaluation.of(p, plan);
        assertEquals(want.makespan(), got.makespan(), a.name() + " seed " + seed);
        assertEquals(want.resource(), got.resource(), a.name() + " seed " + seed);
        assertEquals(want.activeMakespan(), got.activeMakespan(), a.name() + " seed " + seed);
      }
    }
  }

  @Test
  void theExactSolverMatchesFullEnumerationAndEveryBoundStaysBelowIt() {
    SplittableRandom rnd = new SplittableRandom(SEED + 1);
    for (int i = 0; i < 150; i++) {
      long seed = rnd.nextLong();
      Problem p = withBusyLinks(rnd, seed, 3, 6);
      long opt = Evaluation.of(p, new ExactSolver(14).assign(p)).makespan();
      assertEquals(Oracle.bruteForceMakespan(p), opt, "seed " + seed);
      LowerBounds lb = LowerBounds.of(p);
      assertTrue(lb.best() <= opt, "seed " + seed + ": " + lb + " above the optimum " + opt);
    }
  }

  @Test
  void barNeverEndsAboveItsBalancedAllLocalPlan() { // Jin et al.: reduce keeps R only if it is better
    SplittableRandom rnd = new SplittableRandom(SEED + 2);
    for (int i = 0; i < 300; i++) {
      long seed = rnd.nextLong();
      Problem p = withBusyLinks(rnd, seed, 6, 20);
      long allLocal = Oracle.measure(p, BalanceReduce.balance(p)).activeMakespan();
      long bar = Oracle.measure(p, new BalanceReduce().assign(p)).activeMakespan();
      assertTrue(bar <= allLocal, "seed " + seed + ": bar " + bar + " above its all-local plan " + allLocal);
    }
  }

  /**
   * Two data hosts, each with a backlog of 4 units a slot, and two idle hosts; 8 maps on the data
   * hosts. With idle links BAR sends maps to the idle hosts (remote at 3 units beats waiting behind
   * the backlog); when each data host's link already carries 3 reads (1 unit a read), a remote map
   * costs 6 and it keeps more of them on their data.
   */
  @Test
  void onAHotSpotBusyLinksKeepMoreMapsOnTheirData() {
    int idle = remoteMaps(0);
    int busy = remoteMaps(3);
    assertTrue(idle > 0, "idle links: some maps leave the data hosts");
    assertTrue(busy < idle, "busy links: fewer maps leave the data hosts (" + busy + " against " + idle + ")");
  }

  private static int remoteMaps(int readsOnEachDataLink) {
    Cluster c = Cluster.builder()
        .host("d1", null, 1, Units.of(4), readsOnEachDataLink)
        .host("d2", null, 1, Units.of(4), readsOnEachDataLink)
        .host("e1", null, 1, 0, 0)
        .host("e2", null, 1, 0, 0)
        .build();
    PlacementGraph.Builder g = PlacementGraph.builder(c);
    for (int t = 0; t < 8; t++) {
      g.task("t" + t, new int[] {0, 1});
    }
    Problem p = Problem.of(c, g.build(), CostModel.of(Units.of(1), Units.of(3), Units.of(3), 0, Units.of(1)));
    Evaluation e = Evaluation.of(p, new BalanceReduce().assign(p));
    return e.rackLocal() + e.remote();
  }
}
