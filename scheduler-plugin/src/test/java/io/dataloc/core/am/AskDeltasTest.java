package io.dataloc.core.am;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.core.engine.DecisionEngine;
import io.dataloc.core.engine.EngineConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A delta that drops tasks drops at most {@link AskDeltas#MAX_DROPS} per call and says whether
 * some are left, so a job of any size costs the caller a bounded part per hold: all of them, oldest
 * first, over as many calls as it takes; the newest ones, newest first, and no more than asked.
 */
class AskDeltasTest {
  private static final int N = 2 * AskDeltas.MAX_DROPS + 500;

  private static DecisionEngine engineWith(int tasks) {
    DecisionEngine e = new DecisionEngine(EngineConfig.defaults());
    for (int h = 0; h < 4; h++) {
      e.addHost("h" + h, "r0", 2);
    }
    List<List<String>> reps = new ArrayList<>();
    for (int i = 0; i < tasks; i++) {
      reps.add(List.of("h" + i % 4));
    }
    e.submitJob(1, "u", reps);
    return e;
  }

  /** The same tasks (a dropped task that arrived alone leaves its place in the job's list to the last one). */
  private static boolean same(List<Integer> a, List<Integer> b) {
    return a.size() == b.size() && new java.util.HashSet<>(a).equals(new java.util.HashSet<>(b));
  }

  @Test
  void droppingAllGoesAPartPerCallOldestFirst() {
    DecisionEngine e = engineWith(N);
    List<Integer> before = e.pendingTasks(1);
    AskReconciler.Delta all = new AskReconciler.Delta(true, 0, 0);
    assertTrue(AskDeltas.apply(e, 1, "u", all, Map::of));
    assertEquals(N - AskDeltas.MAX_DROPS, e.pendingTasks(1).size());
    assertTrue(same(before.subList(AskDeltas.MAX_DROPS, N), e.pendingTasks(1)), "the oldest went first");
    assertTrue(AskDeltas.apply(e, 1, "u", all, Map::of));
    assertFalse(AskDeltas.apply(e, 1, "u", all, Map::of), "the last part");
    assertEquals(0, e.pendingTasks(1).size());
  }

  @Test
  void droppingTheNewestGoesAPartPerCallAndNoFurther() {
    DecisionEngine e = engineWith(N);
    List<Integer> before = e.pendingTasks(1);
    int drop = AskDeltas.MAX_DROPS + 100;
    assertTrue(AskDeltas.apply(e, 1, "u", new AskReconciler.Delta(false, drop, 0), Map::of));
    assertTrue(same(before.subList(0, N - AskDeltas.MAX_DROPS), e.pendingTasks(1)), "the newest went first");
    // The caller computes the delta again: 100 more.
    assertFalse(AskDeltas.apply(e, 1, "u", new AskReconciler.Delta(false, 100, 0), Map::of));
    assertTrue(same(before.subList(0, N - drop), e.pendingTasks(1)), "100 more of the newest");
    DecisionEngine small = engineWith(10);
    assertFalse(AskDeltas.apply(small, 1, "u", new AskReconciler.Delta(false, 50, 0), Map::of),
        "asked to drop more than it holds: all go, none is left");
    assertEquals(0, small.pendingTasks(1).size());
  }
}
