package io.dataloc.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.core.model.Assignment;
import io.dataloc.core.model.Problem;
import io.dataloc.core.offline.AssignerOptions;
import io.dataloc.core.offline.Assigners;
import io.dataloc.core.offline.HostLevelling;
import io.dataloc.core.workload.RandomProblems;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The budgeted planner's branches, each forced by the planner thread it is given rather than by
 * the clock: a thread that runs the assigner, one that never does (the budget runs out), one on
 * which the assigner fails.
 */
class BudgetedPlannerTest {
  private static final Problem PROBLEM = RandomProblems.generate(RandomProblems.Spec.labl(12, 60), 7);

  /** A planner thread that accepts work and never runs it: every main assigner overruns. */
  private static class Stalled extends AbstractExecutorService {
    @Override
    public void execute(Runnable command) {}

    @Override
    public void shutdown() {}

    @Override
    public List<Runnable> shutdownNow() {
      return List.of();
    }

    @Override
    public boolean isShutdown() {
      return false;
    }

    @Override
    public boolean isTerminated() {
      return false;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
      return true;
    }
  }

  /** A planner thread on which the assigner throws. */
  private static final class Failing extends Stalled {
    @Override
    public <T> Future<T> submit(Callable<T> task) {
      return CompletableFuture.failedFuture(new IllegalStateException("out of luck"));
    }
  }

  @Test
  void withinBudgetTheMainAssignersPlanLevelled() throws Exception {
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      BudgetedPlanner.Result r = new BudgetedPlanner(pool).plan(PROBLEM, "bar", "round-robin", 3, 60_000);
      Assignment direct = Assigners.create("bar", AssignerOptions.defaults().withSeed(3)).assign(PROBLEM);
      assertEquals(HostLevelling.level(PROBLEM, direct, BudgetedPlanner.LEVELLING_MOVES, () -> false), r.plan());
      assertEquals("bar", r.planner());
      assertFalse(r.overBudget());
      assertEquals("", r.failure());
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void overBudgetTheFallbackPlans() throws Exception {
    // The fallback has one more budget of its own: 200 ms, time enough for a first, cold round robin.
    BudgetedPlanner.Result r = new BudgetedPlanner(new Stalled()).plan(PROBLEM, "flow", "round-robin", 3, 200);
    assertTrue(r.overBudget());
    assertEquals("round-robin", r.planner());
    assertNotNull(r.plan());
    assertEquals(PROBLEM.tasks(), r.plan().tasks(), "every task planned");
  }

  @Test
  void overBudgetWithoutAFallbackThereIsNoPlanAndItSaysWhy() throws Exception {
    BudgetedPlanner.Result r = new BudgetedPlanner(new Stalled()).plan(PROBLEM, "flow", "none", 3, 1);
    assertTrue(r.overBudget());
    assertNull(r.plan());
    assertTrue(r.failure().contains("flow exceeded 1 ms and no fallback"), r.failure());
  }

  @Test
  void aFailingOrUnknownAssignerLeavesNoPlanAndSaysWhy() throws Exception {
    BudgetedPlanner.Result failed = new BudgetedPlanner(new Failing()).plan(PROBLEM, "bar", "round-robin", 3, 1_000);
    assertNull(failed.plan());
    assertFalse(failed.overBudget(), "a failure is not a timeout: no fallback");
    assertTrue(failed.failure().contains("out of luck"), failed.failure());
    BudgetedPlanner.Result unknown = new BudgetedPlanner(new Stalled()).plan(PROBLEM, "magic", "round-robin", 3, 1_000);
    assertNull(unknown.plan());
    assertTrue(unknown.failure().contains("magic"), unknown.failure());
  }
}
