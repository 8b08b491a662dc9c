package io.dataloc.core.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class EqualShareTest {
  @Test
  void aJobIsOverItsShareWhenItHoldsMoreThanTheTotalOverTheJobs() {
    // 800 GB among 22 applications: a share is 36.36 GB.
    assertFalse(EqualShare.over(36_000, 800_000, 22));
    assertTrue(EqualShare.over(37_000, 800_000, 22));
    assertFalse(EqualShare.over(400, 800, 2), "exactly half of two is its share");
    assertTrue(EqualShare.over(401, 800, 2));
    assertFalse(EqualShare.over(800, 800, 1), "the only job may hold everything");
    assertFalse(EqualShare.over(0, 0, 5), "holding nothing is never over");
    assertTrue(EqualShare.over(1, 0, 2), "an empty cluster: anything held is over");
    assertTrue(EqualShare.over(Long.MAX_VALUE, Long.MAX_VALUE, 2), "the product overflows");
  }

  @Test
  void onlyAJobOfTheLowestPriorityYieldsItsShareCountedAmongThoseOfItsPriority() {
    // 32 GB; the job holds 20 GB. Alone, it holds its whole share.
    assertFalse(EqualShare.yields(20_000, 32_000, 0, 0, 1, false));
    assertTrue(EqualShare.yields(20_000, 32_000, 0, 0, 2, false), "two of the lowest priority: a share is 16 GB");
    assertFalse(EqualShare.yields(20_000, 32_000, 10, 0, 2, false), "a job above the lowest priority never yields");
    assertFalse(EqualShare.yields(16_000, 32_000, 0, 0, 2, false));
  }

  @Test
  void aJobOfTheLowestPriorityYieldsWhatItHoldsWhileAJobOfAHigherPriorityAsksForMaps() {
    assertTrue(EqualShare.yields(1_000, 32_000, 0, 0, 1, true), "alone at the lowest, a job above asks for maps");
    assertTrue(EqualShare.yields(1_000, 32_000, 0, 0, 2, true), "within its share at the lowest, a job above asks");
    assertFalse(EqualShare.yields(1_000, 32_000, 0, 0, 1, false), "the job above asks for no maps");
    assertFalse(EqualShare.yields(0, 32_000, 0, 0, 1, true), "it holds nothing");
    assertFalse(EqualShare.yields(1_000, 32_000, 5, 0, 1, true), "it is above the lowest");
  }

  @Test
  void yieldsAgreesWithItsDefinitionEverywhere() {
    SplittableRandom rnd = new SplittableRandom(31);
    for (int i = 0; i < 100_000; i++) {
      long total = rnd.nextLong(0, 1L << 40);
      long held = rnd.nextInt(4) == 0 ? 0 : rnd.nextLong(0, total + 2);
      int lowest = rnd.nextInt(0, 3);
      int priority = lowest + (rnd.nextInt(3) == 0 ? rnd.nextInt(1, 3) : 0);
      int atLowest = rnd.nextInt(1, 6);
      boolean higherWantsMaps = rnd.nextBoolean();
      boolean overShare = held > 0 && atLowest > 1
          && BigInteger.valueOf(held).multiply(BigInteger.valueOf(atLowest)).compareTo(BigInteger.valueOf(total)) > 0;
      boolean oracle = priority == lowest && (held > 0 && higherWantsMaps || overShare);
      assertEquals(oracle, EqualShare.yields(held, total, priority, lowest, atLowest, higherWantsMaps),
          held + " of " + total + ", priority " + priority + " (lowest " + lowest + "), " + atLowest + " at the lowest, "
              + (higherWantsMaps ? "a higher job asks for maps" : "none higher asks for maps"));
    }
  }

  @Test
  void everyOrderingButFifoSharesTheLastPhase() {
    assertFalse(JobOrderings.create("fifo").sharesLastPhase(), "under fifo arrival alone decides");
    assertTrue(JobOrderings.create("fair").sharesLastPhase());
    assertTrue(JobOrderings.create("bid").sharesLastPhase());
    assertEquals(List.of("fifo", "fair", "bid"), JobOrderings.names(), "a new ordering must be placed here");
  }

  @Test
  void agreesWithExactArithmeticEverywhere() {
    SplittableRandom rnd = new SplittableRandom(29);
    long[] edges = {0, 1, 2, 7, 1 << 20, Integer.MAX_VALUE, Long.MAX_VALUE / 3, Long.MAX_VALUE - 1, Long.MAX_VALUE};
    for (int i = 0; i < 200_000; i++) {
      long[] ht = ShareCases.heldAndTotal(rnd, i, edges);
      long held = ht[0];
      long total = ht[1];
      int jobs = i % 7 == 0 ? Integer.MAX_VALUE : rnd.nextInt(0, 10_000);
      boolean oracle = held > 0 && jobs > 1
          && BigInteger.valueOf(held).multiply(BigInteger.valueOf(jobs)).compareTo(BigInteger.valueOf(total)) > 0;
      assertEquals(oracle, EqualShare.over(held, total, jobs), held + " of " + total + " among " + jobs);
    }
  }
}
