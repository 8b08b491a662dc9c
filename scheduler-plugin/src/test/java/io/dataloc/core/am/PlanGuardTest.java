package io.dataloc.core.am;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.core.am.PlanGuard.Verdict;
import io.dataloc.core.model.Assignment;
import io.dataloc.core.model.Cluster;
import io.dataloc.core.model.CostModel;
import io.dataloc.core.model.PlacementGraph;
import io.dataloc.core.model.Problem;
import org.junit.jupiter.api.Test;

/** The plan's two declines, rule by rule, and the delay bound that keeps them from starving a job. */
class PlanGuardTest {
  /** Hosts a (2 slots) and b (1 slot); 5 tasks, the plan puts 4 on a and 1 on b. */
  private static Problem problem() {
    Cluster c = Cluster.builder().host("a", null, 2, 0).host("b", null, 1, 0).build();
    PlacementGraph.Builder g = PlacementGraph.builder(c);
    for (int t = 0; t < 5; t++) {
      g.task("t" + t, 0, 1);
    }
    return Problem.of(c, g.build(), CostModel.uniform(1, 3));
  }

  private static PlanGuard guard(int nodeDelay) {
    Cluster c = Cluster.builder().host("a", null, 2, 0).host("b", null, 1, 0).build();
    PlacementGraph.Builder g = PlacementGraph.builder(c);
    for (int t = 0; t < 5; t++) {
      g.task("t" + t, 0, 1);
    }
    Problem p = Problem.of(c, g.build(), CostModel.uniform(1, 3));
    // Servers: a's slots are 0 and 1, b's is 2.
    return PlanGuard.of(p, Assignment.of(p, new int[] {0, 1, 0, 1, 2}), nodeDelay);
  }

  @Test
  void theShapeIsReadOffThePlan() {
    PlanGuard g = guard(3);
    assertEquals(2, g.waves(), "4 tasks on a's 2 slots");
    assertEquals(2, g.concurrency(), "2 at once on a");
  }

  @Test
  void nonLocalDeclinesOnlyWhileLocalWorkRemainsElsewhere() {
    PlanGuard g = guard(3);
    assertEquals(Verdict.TAKE, g.nonLocal("a", 0, () -> {
      throw new AssertionError("not asked when the AM's task is local");
    }));
    assertEquals(Verdict.TAKE, g.nonLocal("a", 1, () -> false), "nothing local elsewhere: take it");
    assertEquals(Verdict.DECLINE_NON_LOCAL, g.nonLocal("a", 2, () -> true));
  }

  @Test
  void planShapeDeclinesOnlyBeyondTheShape() {
    PlanGuard g = guard(3);
    assertEquals(Verdict.TAKE, g.planShape("b", true, () -> {
      throw new AssertionError("not asked when a chain keeps locality");
    }, 1));
    assertEquals(Verdict.TAKE, g.planShape("b", false, () -> 2, 1), "2 on b: two waves of one, within the plan");
    assertEquals(Verdict.DECLINE_PLAN_SHAPE, g.planShape("b", false, () -> 3, 1), "3 on b: three waves");
    assertEquals(Verdict.TAKE, g.planShape("a", false, () -> 4, 2), "4 on a: as planned");
    assertEquals(Verdict.DECLINE_PLAN_SHAPE, g.planShape("a", false, () -> 5, 2), "5 on a: three waves");
    assertEquals(Verdict.DECLINE_PLAN_SHAPE, g.planShape("c", false, () -> 3, 3),
        "a host the plan did not know: 3 at once is beyond the plan's 2");
  }

  @Test
  void aNodeDeclinesAtMostNodeDelayTimesInARowThenTakes() {
    PlanGuard g = guard(2);
    assertTrue(g.nonLocal("a", 1, () -> true).declines());
    assertTrue(g.planShape("a", false, () -> 9, 2).declines(), "both rules count against one budget");
    assertFalse(g.nonLocal("a", 1, () -> true).declines(), "the third in a row is taken");
    assertTrue(g.nonLocal("b", 1, () -> true).declines(), "per node");
    g.taken("a");
    assertTrue(g.nonLocal("a", 1, () -> true).declines(), "a container taken on a resets its count");
    assertFalse(guard(0).nonLocal("a", 1, () -> true).declines(), "delay 0: never declines");
  }

  /**
   * Bounded in time (a front end asked every few milliseconds): a node declines for {@code
   * boundMillis} from its first decline in a row, however often it is asked; taking a container
   * starts a new run. The time is the caller's clock.
   */
  @Test
  void timedDeclinesEndAfterTheBoundNotAfterACount() {
    Problem p = problem();
    long[] now = {1_000};
    PlanGuard g = PlanGuard.timed(p, Assignment.of(p, new int[] {0, 1, 0, 1, 2}), 3_000, () -> now[0]);
    for (int i = 0; i < 1_000; i++) {
      assertEquals(Verdict.DECLINE_NON_LOCAL, g.nonLocal("a", 2, () -> true), "asked " + i + " times in 0 ms");
    }
    now[0] += 2_999;
    assertEquals(Verdict.DECLINE_NON_LOCAL, g.nonLocal("a", 2, () -> true));
    assertEquals(Verdict.DECLINE_NON_LOCAL, g.nonLocal("b", 2, () -> true), "b's run starts now");
    now[0] += 1;
    assertEquals(Verdict.TAKE, g.nonLocal("a", 2, () -> true), "3 s since a's first decline");
    g.taken("a");
    assertEquals(Verdict.DECLINE_NON_LOCAL, g.nonLocal("a", 2, () -> true), "a new run after a container");
    now[0] += 2_998; // b's run began 1 ms before a's ended
    assertEquals(Verdict.DECLINE_NON_LOCAL, g.nonLocal("b", 2, () -> true));
    now[0] += 1;
    assertEquals(Verdict.TAKE, g.nonLocal("b", 2, () -> true));
  }
}
