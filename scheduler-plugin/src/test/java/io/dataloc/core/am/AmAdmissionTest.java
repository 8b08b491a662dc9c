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
}
