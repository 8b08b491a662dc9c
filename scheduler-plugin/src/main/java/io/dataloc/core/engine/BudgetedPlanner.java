package io.dataloc.core.engine;

import io.dataloc.core.model.Assignment;
import io.dataloc.core.model.Cancellation;
import io.dataloc.core.model.Problem;
import io.dataloc.core.offline.Assigner;
import io.dataloc.core.offline.AssignerOptions;
import io.dataloc.core.offline.Assigners;
import io.dataloc.core.offline.HostLevelling;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A job's plan within a time budget: the plan a front end (the ResourceManager's scheduler, the
 * simulator, a CapacityScheduler placement allocator) hands to {@link PlanApplication}.
 *
 * <p><b>Rule.</b> The main assigner runs on the caller's planner thread under the budget's
 * deadline, which it polls ({@link Cancellation}): past it, the assigner stops at its next poll
 * and frees the thread, and the caller stops waiting. Its plan is taken if it finishes in time.
 * If not, the fallback assigner — a cheap one, round robin by default — plans on the calling
 * thread under a deadline of one more budget (unless the fallback is {@code none}); past that too,
 * there is no plan. Then host levelling moves tasks from the plan's busiest hosts to idle replica
 * hosts while the budget lasts: an anytime pass that stops with the moves made so far. An
 * assigner that throws leaves no plan and says why. Work given up on is purged from the planner's
 * queue, so it holds no problem alive: planning {@code k} jobs costs at most about
 * {@code 2k} budgets of work, however many overran.
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
  public static final class Result {
    private final Assignment plan;
    private final String planner;
    private final boolean overBudget;
    private final String failure;
    private final long nanos;

    public Result(Assignment plan, String planner, boolean overBudget, String failure, long nanos) {
      this.plan = plan;
      this.planner = planner;
      this.overBudget = overBudget;
      this.failure = failure;
      this.nanos = nanos;
    }

    public Assignment plan() {
      return plan;
    }

    public String planner() {
      return planner;
    }

    public boolean overBudget() {
      return overBudget;
    }

    public String failure() {
      return failure;
    }

    public long nanos() {
      return nanos;
    }

    public double millis() {
      return nanos / 1e6;
    }

    @Override
    public boolean equals(Object o) {
      if (o == this) {
        return true;
      }
      if (!(o instanceof Result)) {
        return false;
      }
      Result that = (Result) o;
      return Objects.equals(plan, that.plan)
          && Objects.equals(planner, that.planner)
          && overBudget == that.overBudget
          && Objects.equals(failure, that.failure)
          && nanos == that.nanos;
    }

    @Override
    public int hashCode() {
      return Objects.hash(plan, planner, overBudget, failure, nanos);
    }

    @Override
    public String toString() {
      return "Result[plan=" + plan
          + ", planner=" + planner
          + ", overBudget=" + overBudget
          + ", failure=" + failure
          + ", nanos=" + nanos + "]";
    }
  }

  private final ExecutorService planners;

  /** @param planners where the main assigner runs (the caller's thread waits for it, budgeted) */
  public BudgetedPlanner(ExecutorService planners) {
    this.planners = planners;
  }

  /**
   * Plans {@code problem} with {@code assigner} (seeded) within {@code budgetMs}, else with
   * {@code fallback} (or {@code "none"}) within one more, then levels the plan while the first
   * budget lasts.
   *
   * @throws InterruptedException if the calling thread is interrupted while it waits
   */
  public Result plan(Problem problem, String assigner, String fallback, long seed, long budgetMs)
      throws InterruptedException {
    long t0 = System.nanoTime();
    long budget = TimeUnit.MILLISECONDS.toNanos(budgetMs);
    long deadline = t0 + budget;
    Assignment plan = null;
    String used = assigner;
    boolean overBudget = false;
    String failure = "";
    Future<Assignment> f = null;
    try {
      Assigner main = Assigners.create(assigner, AssignerOptions.defaults().withSeed(seed));
      f = planners.submit(() -> Cancellation.within(deadline, () -> main.assign(problem)));
      plan = f.get(budgetMs, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      overBudget = true;
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Cancellation.Cancelled) {
        overBudget = true; // it saw its deadline just before the wait did
      } else {
        failure = assigner + " failed: " + e.getCause();
      }
    } catch (java.util.concurrent.RejectedExecutionException | IllegalArgumentException e) {
      failure = assigner + " could not run: " + e;
    } finally {
      if (plan == null && f != null) {
        f.cancel(true);
        if (planners instanceof ThreadPoolExecutor) {
          ((ThreadPoolExecutor) planners).purge(); // a cancelled task still queued holds its problem until purged
        }
      }
    }
    if (overBudget) {
      if (fallback.equals("none")) {
        failure = assigner + " exceeded " + budgetMs + " ms and no fallback is set";
      } else {
        try {
          Assigner second = Assigners.create(fallback, AssignerOptions.defaults());
          plan = Cancellation.within(System.nanoTime() + budget, () -> second.assign(problem));
          used = fallback;
        } catch (Cancellation.Cancelled e2) {
          failure = assigner + " exceeded " + budgetMs + " ms; so did the fallback " + fallback;
        } catch (RuntimeException e2) {
          failure = assigner + " exceeded " + budgetMs + " ms; the fallback " + fallback + " failed: " + e2;
        }
      }
    }
    if (plan != null) {
      plan = HostLevelling.level(problem, plan, LEVELLING_MOVES, () -> System.nanoTime() > deadline);
    }
    return new Result(plan, used, overBudget, failure, System.nanoTime() - t0);
  }
}
