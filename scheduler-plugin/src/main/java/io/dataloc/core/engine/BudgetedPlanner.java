package io.dataloc.core.engine;

import io.dataloc.core.model.Assignment;
import io.dataloc.core.model.Problem;
import io.dataloc.core.offline.Assigner;
import io.dataloc.core.offline.AssignerOptions;
import io.dataloc.core.offline.Assigners;
import io.dataloc.core.offline.HostLevelling;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A job's plan within a time budget: the plan a front end (the ResourceManager's scheduler, the
 * simulator, a CapacityScheduler placement allocator) hands to {@link PlanApplication}.
 *
 * <p><b>Rule.</b> The main assigner runs on the caller's planner thread for at most the budget.
 * If it finishes, its plan is taken. If not, it is cancelled (it may keep its thread until it next
 * polls for interruption) and the fallback assigner — a cheap one, round robin by default — plans
 * on the calling thread instead, unless the fallback is {@code none}. Then host levelling moves
 * tasks from the plan's busiest hosts to idle replica hosts while the budget lasts: an anytime
 * pass that stops with the moves made so far. An assigner that throws leaves no plan and says why.
 *
 * <p>Deterministic for a given problem and seed, except for which branch the clock chooses.
 */
public final class BudgetedPlanner {
  /** Chain moves host levelling may make per plan, each one search over the job's tasks (it also stops at the budget). */
  public static final int LEVELLING_MOVES = 2_000;

  /**
   * What planning gave: the plan (null if none), the assigner that made it, whether the main one
   * ran out of budget, why there is no plan (empty if there is one), and the time taken.
   */
  public record Result(Assignment plan, String planner, boolean overBudget, String failure, long nanos) {
    public double millis() {
      return nanos / 1e6;
    }
  }

  private final ExecutorService planners;

  /** @param planners where the main assigner runs (the caller's thread waits for it, budgeted) */
  public BudgetedPlanner(ExecutorService planners) {
    this.planners = planners;
  }

  /**
   * Plans {@code problem} with {@code assigner} (seeded) within {@code budgetMs}, else with
   * {@code fallback} (or {@code "none"}), then levels the plan while the budget lasts.
   *
   * @throws InterruptedException if the calling thread is interrupted while it waits
   */
  public Result plan(Problem problem, String assigner, String fallback, long seed, long budgetMs)
      throws InterruptedException {
    long t0 = System.nanoTime();
    long deadline = t0 + TimeUnit.MILLISECONDS.toNanos(budgetMs);
    Assignment plan = null;
    String used = assigner;
    boolean overBudget = false;
    String failure = "";
    Future<Assignment> f = null;
    try {
      Assigner main = Assigners.create(assigner, AssignerOptions.defaults().withSeed(seed));
      f = planners.submit(() -> main.assign(problem));
      plan = f.get(budgetMs, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      f.cancel(true);
      overBudget = true;
      if (fallback.equals("none")) {
        failure = assigner + " exceeded " + budgetMs + " ms and no fallback is set";
      } else {
        try {
          plan = Assigners.create(fallback, AssignerOptions.defaults()).assign(problem);
          used = fallback;
        } catch (RuntimeException e2) {
          failure = assigner + " exceeded " + budgetMs + " ms; the fallback " + fallback + " failed: " + e2;
        }
      }
    } catch (ExecutionException e) {
      failure = assigner + " failed: " + e.getCause();
    } catch (java.util.concurrent.RejectedExecutionException | IllegalArgumentException e) {
      failure = assigner + " could not run: " + e;
    }
    if (plan != null) {
      plan = HostLevelling.level(problem, plan, LEVELLING_MOVES, () -> System.nanoTime() > deadline);
    }
    return new Result(plan, used, overBudget, failure, System.nanoTime() - t0);
  }
}
