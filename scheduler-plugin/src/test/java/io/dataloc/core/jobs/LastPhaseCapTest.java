package io.dataloc.core.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LastPhaseCapTest {
  @Test
  void aJobIsCappedWhenItHoldsMoreThanTheFractionOfTheCluster() {
    // 800 GB, half: 400 GB.
    assertFalse(LastPhaseCap.over(400_000, 800_000, 500), "exactly the fraction is not over it");
    assertTrue(LastPhaseCap.over(400_001, 800_000, 500));
    assertFalse(LastPhaseCap.over(800_000, 800_000, 1000), "a whole turns the rule off");
    assertFalse(LastPhaseCap.over(Long.MAX_VALUE, 1, 1000));
    assertFalse(LastPhaseCap.over(0, 0, 0), "holding nothing is never over");
    assertTrue(LastPhaseCap.over(1, 0, 500), "an empty cluster: anything held is over");
    assertTrue(LastPhaseCap.over(1, 1_000_000, 0), "a fraction of 0 caps anything held");
    assertTrue(LastPhaseCap.over(Long.MAX_VALUE, Long.MAX_VALUE, 999), "the products overflow 64 bits");
    assertThrows(IllegalArgumentException.class, () -> LastPhaseCap.over(-1, 10, 500));
  }

  @Test
  void onlyAJobOfTheLowestPriorityAmongSeveralIsCapped() {
    // 32 GB, half; the job holds 20 GB.
    assertFalse(LastPhaseCap.capped(20_000, 32_000, 500, 0, 0, 1), "alone, a job may hold everything");
    assertTrue(LastPhaseCap.capped(20_000, 32_000, 500, 0, 0, 2));
    assertFalse(LastPhaseCap.capped(20_000, 32_000, 500, 10, 0, 2), "a job above the lowest priority is never capped");
    assertFalse(LastPhaseCap.capped(16_000, 32_000, 500, 0, 0, 2));
    assertFalse(LastPhaseCap.capped(32_000, 32_000, 1000, 0, 0, 2), "f = 1: off");
  }

  @Test
  void agreesWithExactArithmeticEverywhere() {
    SplittableRandom rnd = new SplittableRandom(31);
    long[] edges = {0, 1, 2, 999, 1000, 1 << 20, Integer.MAX_VALUE, Long.MAX_VALUE / 1000, Long.MAX_VALUE / 3,
        Long.MAX_VALUE - 1, Long.MAX_VALUE};
    for (int i = 0; i < 200_000; i++) {
      long[] ht = ShareCases.heldAndTotal(rnd, i, edges);
      long held = ht[0];
      long total = ht[1];
      long permille = i % 11 == 0 ? edges[rnd.nextInt(edges.length)] : rnd.nextLong(0, 1001);
      boolean oracle = permille < 1000 && BigInteger.valueOf(held).multiply(BigInteger.valueOf(1000))
          .compareTo(BigInteger.valueOf(permille).multiply(BigInteger.valueOf(total))) > 0;
      assertEquals(oracle, LastPhaseCap.over(held, total, permille), held + " of " + total + " at " + permille);
    }
  }
}
