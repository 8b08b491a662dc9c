package io.dataloc.core.am;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.core.jobs.JobOrdering;
import io.dataloc.core.jobs.JobOrderings;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link AmAdmission} against an oracle that sorts the waiting jobs by priority, then by the ratio
 * wait / size as an exact fraction (bid, one user) or by submission (fifo), then by index.
 */
class AmAdmissionTest {
  private static final JobOrdering.UserUsage ONE_USER = u -> 0;

  @Test
  void theSmallJobThatWaitedGoesBeforeTheLargeOneThatWaitedLonger() {
    AmAdmission.Waiting large = new AmAdmission.Waiting(1, "u", 0, 16, 0);
    AmAdmission.Waiting small = new AmAdmission.Waiting(2, "u", 5, 1, 0);
    JobOrdering bid = JobOrderings.create("bid");
    // At 10: large 10/16, small 5/1.
    assertEquals(small, AmAdmission.next(List.of(large, small), bid, 10, ONE_USER));
    assertEquals(large, AmAdmission.next(List.of(large, small), JobOrderings.create("fifo"), 10, ONE_USER));
    // The small job passes the large one only while it is younger in proportion: at 5 it has
    // waited 0 against the large one's 5/16.
    assertEquals(large, AmAdmission.next(List.of(large, small), bid, 5, ONE_USER));
    // Priority comes first.
    AmAdmission.Waiting urgent = new AmAdmission.Waiting(3, "u", 9, 100, 1);
    assertEquals(urgent, AmAdmission.next(List.of(large, small, urgent), bid, 10, ONE_USER));
    assertNull(AmAdmission.next(List.<AmAdmission.Waiting>of(), bid, 10, ONE_USER));
  }

  @Test
  void theNextJobIsTheOraclesFirstAndNoJobIsPassedByOneOlderInProportion() {
    SplittableRandom rnd = new SplittableRandom(7);
    for (int trial = 0; trial < 3_000; trial++) {
      long now = 1_000 + rnd.nextInt(1_000);
      List<AmAdmission.Waiting> waiting = new ArrayList<>();
      for (int i = 0, n = 1 + rnd.nextInt(12); i < n; i++) {
        waiting.add(new AmAdmission.Waiting(i, "u", now - rnd.nextInt(1_000), 1 + rnd.nextInt(rnd.nextBoolean() ? 4 : 300),
            rnd.nextInt(8) == 0 ? 1 : 0));
      }
      for (String name : List.of("bid", "fifo")) {
        AmAdmission.Waiting next = AmAdmission.next(waiting, JobOrderings.create(name), now, ONE_USER);
        List<AmAdmission.Waiting> sorted = new ArrayList<>(waiting);
        sorted.sort(oracle(name, now));
        assertEquals(sorted.get(0), next, name + ", trial " + trial);
        if (name.equals("bid")) {
          for (AmAdmission.Waiting w : waiting) {
            if (w.priority() == next.priority()) {
              // w waited less than next's wait * size(w) / size(next), or exactly that (then the lower index).
              BigInteger lhs = BigInteger.valueOf(now - w.arrival()).multiply(BigInteger.valueOf(next.size()));
              BigInteger rhs = BigInteger.valueOf(now - next.arrival()).multiply(BigInteger.valueOf(w.size()));
              assertTrue(lhs.compareTo(rhs) < 0 || lhs.equals(rhs) && next.index() <= w.index(), w + " vs " + next);
            }
          }
        }
      }
    }
  }

  private static Comparator<AmAdmission.Waiting> oracle(String ordering, long now) {
    Comparator<AmAdmission.Waiting> byPriority = Comparator.comparingInt(w -> -w.priority());
    Comparator<AmAdmission.Waiting> then = ordering.equals("fifo") ? (a, b) -> 0
        : (a, b) -> BigInteger.valueOf(now - b.arrival()).multiply(BigInteger.valueOf(a.size()))
            .compareTo(BigInteger.valueOf(now - a.arrival()).multiply(BigInteger.valueOf(b.size())));
    return byPriority.thenComparing(then).thenComparingInt(AmAdmission.Waiting::index);
  }

  /**
   * Admissions with the AM limit binding: one AM slot frees per step and a light user's one-map job
   * arrives at each; the job admitted runs for the next step. How many admissions until job
   * {@code target} (waiting from the start) is admitted, or -1 within {@code steps}.
   */
  private static int admissionsUntil(AmAdmission.Waiting target, List<AmAdmission.Waiting> alsoWaiting,
      java.util.function.Function<java.util.Map<String, Integer>, JobOrdering.UserUsage> usage, int steps) {
    JobOrdering bid = JobOrderings.create("bid");
    List<AmAdmission.Waiting> waiting = new ArrayList<>(alsoWaiting);
    waiting.add(target);
    java.util.Map<String, Integer> running = new java.util.HashMap<>();
    for (int t = 0; t < steps; t++) {
      waiting.add(new AmAdmission.Waiting(100 + t, "light", t, 1, 0));
      AmAdmission.Waiting next = AmAdmission.next(AmAdmission.withKnownSizes(waiting), bid, t + 1, usage.apply(running));
      if (next.index() == target.index()) {
        return t + 1;
      }
      waiting.removeIf(w -> w.index() == next.index());
      running.clear();
      running.put(next.user(), 1);
    }
    return -1;
  }

  /**
   * A user with a heavy history is admitted within a bounded number of admissions behind a stream
   * of a light user's jobs: usage is the current share (AMs running now), not lifetime work. With
   * lifetime work (10^6 against 10, as the engine counts it) the same job waits past every step.
   */
  @Test
  void aHeavyUsersJobIsAdmittedBehindAStreamOfLightJobs() {
    AmAdmission.Waiting heavy = new AmAdmission.Waiting(1, "heavy", 0, 20, 0);
    int now = admissionsUntil(heavy, List.of(), AmAdmission::currentShare, 1_000);
    assertTrue(now > 0 && now <= 20, "admitted after " + now + " admissions");
    JobOrdering.UserUsage lifetime = u -> u.equals("heavy") ? 1_000_000 : 10;
    assertEquals(-1, admissionsUntil(heavy, List.of(), r -> lifetime, 1_000), "lifetime usage starves it");
  }

  /**
   * An application of unknown size (a Spark AM, no plan) beside a 10,000-map job counts as the
   * median known size, not the largest: it is not passed by every small job.
   */
  @Test
  void anApplicationOfUnknownSizeIsNotTheLargestWaiting() {
    AmAdmission.Waiting big = new AmAdmission.Waiting(1, "mr", 0, 10_000, 0);
    AmAdmission.Waiting spark = new AmAdmission.Waiting(2, "spark", 0, 0, 0);
    int now = admissionsUntil(spark, List.of(big), AmAdmission::currentShare, 1_000);
    assertTrue(now > 0 && now <= 3, "admitted after " + now + " admissions");
    List<AmAdmission.Waiting> sized = AmAdmission.withKnownSizes(List.of(big, spark,
        new AmAdmission.Waiting(3, "x", 0, 1, 0), new AmAdmission.Waiting(4, "x", 0, 7, 0)));
    assertEquals(7, sized.get(1).size(), "the lower median of 1, 7, 10000");
    assertEquals(1, AmAdmission.withKnownSizes(List.of(spark)).get(0).size(), "none known: 1");
  }
}
