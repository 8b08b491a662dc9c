package io.dataloc.core.offline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.core.model.Assignment;
import io.dataloc.core.model.CostModel;
import io.dataloc.core.model.Evaluation;
import io.dataloc.core.model.LowerBounds;
import io.dataloc.core.model.Problem;
import io.dataloc.core.model.Units;
import io.dataloc.core.workload.RandomProblems;
import io.dataloc.core.workload.RandomProblems.Spec;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The papers' guarantees, checked against the exact optimum on seeded random small instances
 * (1,200 instances in all; the seed is in every failure message).
 */
class TheoremTest {
  private static final long SEED = 42L;
  private static final int INSTANCES = 400;

  private static Problem uniformZeroLoad(SplittableRandom rnd, long seed) {
    int n = 2 + rnd.nextInt(4);
    int m = 1 + rnd.nextInt(10);
    int wRem = 2 + rnd.nextInt(4);
    return RandomProblems.generate(
        new Spec(n, m, 1, 1 + rnd.nextInt(Math.min(3, n)), 0, 0, 0, CostModel.uniform(1, wRem)), seed);
  }

  private static long opt(Problem p) {
    return Evaluation.of(p, new ExactSolver(14).assign(p)).makespan();
  }

  @Test
  void exactSolverMatchesFullEnumeration() {
    SplittableRandom rnd = new SplittableRandom(SEED);
    for (int i = 0; i < 150; i++) {
      long seed = rnd.nextLong();
      int n = 1 + rnd.nextInt(3);
      Spec spec = new Spec(n, rnd.nextInt(7), 1, 1 + rnd.nextInt(n), rnd.nextInt(3), i % 2 == 0 ? 0 : 2,
          0, CostModel.of(Units.of(1), Units.of(2), Units.of(3), Units.ofDouble(i % 3 == 0 ? 0.5 : 0)));
      Problem p = RandomProblems.generate(spec, seed);
      assertEquals(Oracle.bruteForceMakespan(p), opt(p), "seed " + seed);
    }
  }

  @Test
  void flowIsWithinAdditiveConstantOfOptimum() { // Fischer et al., Thm 5.4
    SplittableRandom rnd = new SplittableRandom(SEED + 1);
    for (int i = 0; i < INSTANCES; i++) {
      long seed = rnd.nextLong();
      Problem p = uniformZeroLoad(rnd, seed);
      int n = p.servers();
      long wRem = p.cost().remote();
      long flow = Evaluation.of(p, new MaxCoverBalAssign().assign(p)).makespan();
      long opt = opt(p);
      // L^A ≤ L^O + (1 − 1/(n−1))·w_rem, compared exactly in integers times (n−1).
      assertTrue((flow - opt) * (n - 1) <= (long) (n - 2) * wRem,
          "seed " + seed + ": flow " + flow + " opt " + opt + " n " + n);
    }
  }

  @Test
  void roundRobinIsWithinMultiplicativeFactor() { // Fischer et al., Thm 4.2
    SplittableRandom rnd = new SplittableRandom(SEED + 2);
    for (int i = 0; i < INSTANCES; i++) {
      long seed = rnd.nextLong();
      Problem p = uniformZeroLoad(rnd, seed);
      long rr = Evaluation.of(p, new RoundRobin().assign(p)).makespan();
      long opt = opt(p);
      assertTrue(rr * p.cost().local() <= p.cost().remote() * opt, "seed " + seed + ": rr " + rr + " opt " + opt);
    }
  }

  @Test
  void everyLowerBoundIsAtMostTheOptimum() {
    SplittableRandom rnd = new SplittableRandom(SEED + 3);
    for (int i = 0; i < INSTANCES; i++) {
      long seed = rnd.nextLong();
      int n = 1 + rnd.nextInt(4);
      Spec spec = new Spec(n, rnd.nextInt(10), 1, 1 + rnd.nextInt(n), rnd.nextInt(6), i % 2 == 0 ? 0 : 2, 0,
          i % 3 == 0 ? CostModel.of(Units.of(1), Units.of(2), Units.of(3), Units.ofDouble(0.2))
              : CostModel.uniform(1, 3));
      Problem p = RandomProblems.generate(spec, seed);
      LowerBounds lb = LowerBounds.of(p);
      long opt = opt(p);
      assertTrue(lb.best() <= opt, "seed " + seed + ": " + lb + " > opt " + opt);
    }
  }

  @Test
  void barBalancePhaseFindsTheBestAllLocalMakespan() { // Jin et al., Thm 1
    SplittableRandom rnd = new SplittableRandom(SEED + 4);
    for (int i = 0; i < INSTANCES; i++) {
      long seed = rnd.nextLong();
      int n = 1 + rnd.nextInt(5);
      Problem p = RandomProblems.generate(
          new Spec(n, rnd.nextInt(9), 1, 1 + rnd.nextInt(Math.min(3, n)), rnd.nextInt(6), 0, 0,
              CostModel.uniform(1, 3)), seed);
      int[] balanced = BalanceReduce.balance(p);
      for (int t = 0; t < p.tasks(); t++) {
        assertTrue(p.isLocal(t, balanced[t]), "seed " + seed + ": balance placed a task remotely");
      }
      assertEquals(Oracle.bruteForceAllLocal(p), Oracle.measure(p, balanced).makespan(), "seed " + seed);
    }
  }

  @Test
  void lablWithRemotePhaseAlwaysOnBalancesLoads() { // Agosta et al., Thm 1
    SplittableRandom rnd = new SplittableRandom(SEED + 5);
    Assigner labl = Assigners.create("labl:always", AssignerOptions.defaults());
    for (int i = 0; i < INSTANCES; i++) {
      long seed = rnd.nextLong();
      int n = 2 + rnd.nextInt(6);
      Problem p = RandomProblems.generate(
          new Spec(n, 1 + rnd.nextInt(30), 1, 1 + rnd.nextInt(Math.min(4, n)), rnd.nextInt(6), 0, 0,
              CostModel.uniform(1, 3)), seed);
      Assignment a = labl.assign(p);
      long[] load = loads(p, a);
      long max = 0;
      long min = Long.MAX_VALUE;
      for (long l : load) {
        max = Math.max(max, l);
        min = Math.min(min, l);
      }
      long maxPhi = LowerBounds.of(p).maxInitial();
      long latency = Evaluation.of(p, a).makespan();
      // A latency set by earlier work alone (φ_s above every other load) no assignment can balance.
      assertTrue(latency <= min + p.cost().remote() || latency == maxPhi,
          "seed " + seed + ": max " + max + " min " + min);
    }
  }

  @Test
  void lablWithRemotePhaseOnlyFirstBoundsResource() { // Agosta et al., Thm 2 (proven form)
    SplittableRandom rnd = new SplittableRandom(SEED + 6);
    Assigner labl = Assigners.create("labl:first", AssignerOptions.defaults());
    for (int i = 0; i < INSTANCES; i++) {
      long seed = rnd.nextLong();
      int n = 1 + rnd.nextInt(6);
      Problem p = RandomProblems.generate(
          new Spec(n, rnd.nextInt(30), 1, 1 + rnd.nextInt(Math.min(4, n)), rnd.nextInt(6), 0, 0,
              CostModel.uniform(1, 3)), seed);
      long lss = LowerBounds.of(p).lStarStar();
      long bound = 0;
      for (int s = 0; s < p.servers(); s++) {
        bound += Math.max(0, lss - p.initialLoad(s));
      }
      long resource = Evaluation.of(p, labl.assign(p)).resource();
      assertTrue(resource <= bound, "seed " + seed + ": C " + resource + " > " + bound);
    }
  }

  private static long[] loads(Problem p, Assignment a) {
    long[] load = new long[p.servers()];
    Evaluation e = Evaluation.of(p, a);
    long r = e.rackLocal() + e.remote();
    for (int s = 0; s < p.servers(); s++) {
      load[s] = p.initialLoad(s);
    }
    for (int t = 0; t < p.tasks(); t++) {
      load[a.server(t)] += p.cost().cost(p.level(t, a.server(t)), r);
    }
    return load;
  }
}
