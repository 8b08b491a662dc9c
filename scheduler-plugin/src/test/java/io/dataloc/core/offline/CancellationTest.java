package io.dataloc.core.offline;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.core.engine.BudgetedPlanner;
import io.dataloc.core.model.Cancellation;
import io.dataloc.core.model.Problem;
import io.dataloc.core.workload.RandomProblems;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Every assigner polls for cancellation: past its deadline, or with its thread interrupted, it
 * stops with {@link Cancellation.Cancelled} instead of running to its end. So a plan abandoned at
 * its budget frees the planner thread (before, it ran on, and every later plan queued behind it,
 * waited its whole budget and fell back).
 */
class CancellationTest {
  private static Problem problem(int tasks) {
    return RandomProblems.generate(RandomProblems.Spec.labl(20, tasks), 7);
  }

  @Test
  void everyAssignerStopsPastItsDeadline() {
    for (String name : Assigners.names()) {
      Assigner a = Assigners.create(name, AssignerOptions.defaults());
      Problem p = problem(name.equals("exact") ? 10 : 400);
      long past = System.nanoTime() - 1;
      assertThrows(Cancellation.Cancelled.class, () -> Cancellation.within(past, () -> a.assign(p)), name);
      Problem small = problem(name.equals("exact") ? 6 : 40);
      long later = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
      assertNotNull(Cancellation.within(later, () -> a.assign(small)), name + " finishes before a far deadline");
    }
  }

  @Test
  void everyAssignerStopsWhenItsThreadIsInterrupted() {
    for (String name : Assigners.names()) {
      Assigner a = Assigners.create(name, AssignerOptions.defaults());
      Problem p = problem(name.equals("exact") ? 10 : 400);
      Thread.currentThread().interrupt();
      try {
        assertThrows(Cancellation.Cancelled.class, () -> a.assign(p), name);
      } finally {
        Thread.interrupted();
      }
    }
  }

  /**
   * A plan abandoned at its budget while still queued for the planner thread (busy with another)
   * is purged from the queue, with its problem: before, the cancelled task stayed queued, holding
   * its problem, until the thread reached it. The fallback plans instead.
   */
  @Test
  void aPlanAbandonedInThePlannersQueueIsPurged() throws Exception {
    java.util.concurrent.ThreadPoolExecutor planner = (java.util.concurrent.ThreadPoolExecutor)
        Executors.newFixedThreadPool(1);
    java.util.concurrent.CountDownLatch busy = new java.util.concurrent.CountDownLatch(1);
    try {
      planner.submit(() -> {
        busy.await();
        return null;
      });
      BudgetedPlanner.Result r = new BudgetedPlanner(planner).plan(problem(40), "flow", "round-robin", 1, 10);
      assertTrue(r.overBudget(), "it waited in the queue past its budget");
      assertNotNull(r.plan(), "the fallback planned: " + r.failure());
      assertTrue(planner.getQueue().isEmpty(), "the abandoned plan left the queue");
    } finally {
      busy.countDown();
      planner.shutdownNow();
    }
  }
}
