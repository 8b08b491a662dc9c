package io.dataloc.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.core.model.CostModel;
import io.dataloc.core.model.Level;
import io.dataloc.core.model.ObservedDurations;
import io.dataloc.core.model.Units;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class CostLearningTest {
  private static final CostModel CONFIGURED = CostModel.of(Units.of(1), Units.of(2), Units.of(3), 0);

  /** Learning with {@code minSamples} over its own record of durations. */
  private static final class Learner {
    final CostLearning learning;
    final ObservedDurations observed = new ObservedDurations();

    Learner(int minSamples) {
      learning = new CostLearning(minSamples);
    }

    CostModel costs(CostModel configured) {
      return learning.costs(configured, observed);
    }
  }

  private static void observe(Learner l, int level, long... ticks) {
    for (long t : ticks) {
      l.observed.observe(Level.values()[level], t);
    }
  }

  @Test
  void theConfiguredCostsUntilLocalAndANonLocalLevelHaveEnoughSamples() {
    Learner l = new Learner(3);
    assertSame(CONFIGURED, l.costs(CONFIGURED));
    observe(l, 0, 10, 10, 10);
    assertSame(CONFIGURED, l.costs(CONFIGURED), "no non-local sample yet");
    observe(l, 1, 40, 40);
    assertSame(CONFIGURED, l.costs(CONFIGURED), "two rack samples of three");
    observe(l, 1, 40);
    assertEquals(Units.of(4), l.costs(CONFIGURED).rack(), "rack-local maps took 4x as long");
  }

  @Test
  void ratiosAreExactMeansAndRemoteNeverBelowRack() {
    Learner l = new Learner(2);
    observe(l, 0, 10, 20); // mean 15
    observe(l, 1, 50, 55); // mean 52.5: 3.5x
    CostModel c = l.costs(CONFIGURED);
    assertEquals(3_500, c.rack());
    assertEquals(3_500, c.remote(), "remote, unseen, is at least rack");
    observe(l, 2, 90, 90); // 6x
    assertEquals(6_000, l.costs(CONFIGURED).remote());
    assertEquals(CONFIGURED.local(), l.costs(CONFIGURED).local());
  }

  @Test
  void learningNeverLowersAConfiguredCost() {
    Learner l = new Learner(1);
    observe(l, 0, 30);
    observe(l, 1, 30); // as fast away from the data as on it (loopback)
    observe(l, 2, 30);
    assertEquals(CONFIGURED, l.costs(CONFIGURED));
  }

  @Test
  void zeroSamplesIsOff() {
    Learner l = new Learner(0);
    observe(l, 0, 1, 1, 1);
    observe(l, 2, 100, 100, 100);
    assertSame(CONFIGURED, l.costs(CONFIGURED));
  }

  /** Against an independent recomputation in doubles, on seeded random durations. */
  @Test
  void matchesTheMeanRatioOnRandomDurations() {
    SplittableRandom rnd = new SplittableRandom(7);
    for (int round = 0; round < 200; round++) {
      Learner l = new Learner(1 + rnd.nextInt(4));
      double[] sum = new double[3];
      int[] n = new int[3];
      for (int i = 0; i < 30; i++) {
        int level = rnd.nextInt(3);
        long t = 1 + rnd.nextInt(level == 0 ? 20 : 120);
        l.observed.observe(Level.values()[level], t);
        sum[level] += t;
        n[level]++;
      }
      CostModel c = l.costs(CONFIGURED);
      if (c == CONFIGURED) {
        continue;
      }
      double rack = Math.max(2.0, 1.0 * (sum[1] / n[1]) / (sum[0] / n[0]));
      assertEquals(rack, c.rack() / 1000.0, 0.0011, "round " + round);
      assertTrue(c.remote() >= c.rack() && c.rack() >= CONFIGURED.rack(), "ordered, never below configured");
      for (long v : List.of(c.rack(), c.remote())) {
        assertTrue(v > 0);
      }
    }
  }

  /**
   * Through the engine: tasks finished at a level, the ticks between start and finish, feed the
   * costs the next plan's hosts carry.
   */
  @Test
  void theEnginePlansWithTheLearnedCosts() {
    DecisionEngine e = new DecisionEngine(EngineConfig.defaults().withPolicy("jsq-maxweight-steal").withCostLearning(1));
    e.addHost("a", null, 1);
    e.addHost("b", null, 1);
    CostModel configured = EngineConfig.defaults().planCost();
    assertEquals(configured, e.planHosts(h -> 1).cost());
    e.submitJob(1, "u", List.of(List.of("a"), List.of("a"), List.of("a")));
    Decision local = e.onSlotFree(0);
    Decision away = e.onSlotFree(1);
    assertEquals(io.dataloc.core.model.Level.LOCAL, local.level());
    assertTrue(away != null && away.level() != io.dataloc.core.model.Level.LOCAL, "host b runs a task away from a");
    e.advanceTo(4);
    e.taskFinished(local.task());
    e.advanceTo(20);
    e.taskFinished(away.task());
    // Local: 4 ticks; away: 20 ticks, 5x (the configured uniform costs are 1 and 3).
    assertEquals(Units.of(5), e.planCost().remote());
    assertEquals(e.planCost(), e.planHosts(h -> 1).cost());
  }
}
