package io.dataloc.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.core.model.Level;
import io.dataloc.core.model.ObservedDurations;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Service rates learned from observed durations: {@code 1 / mean}, ordered, exact. */
class ServiceRatesTest {
  private static void observe(ObservedDurations d, Level level, long... ticks) {
    for (long t : ticks) {
      d.observe(level, t);
    }
  }

  @Test
  void theLocalTasksGiveTheTimeScaleAndEachLevelItsOwnRateOnceItHasSamples() {
    ServiceRates r = new ServiceRates(1000, 800, 500, 2);
    ObservedDurations d = new ObservedDurations();
    observe(d, Level.LOCAL, 10);
    observe(d, Level.REMOTE, 40, 40);
    r.update(d);
    assertEquals(1000, r.alpha(), "one local sample of two: the configured rates");
    assertEquals(800, r.beta());
    assertEquals(500, r.gamma());
    r = new ServiceRates(1000, 800, 500, 2);
    d = new ObservedDurations();
    observe(d, Level.LOCAL, 10, 10);
    observe(d, Level.REMOTE, 40);
    r.update(d);
    assertEquals(100, r.alpha(), "1 / 10 ticks");
    assertEquals(80, r.beta(), "the configured 0.8 of α");
    assertEquals(50, r.gamma(), "the configured 0.5 of α: one remote sample of two");
    observe(d, Level.REMOTE, 40);
    r.update(d);
    assertEquals(25, r.gamma(), "1 / 40 ticks");
    assertEquals(62, r.beta(), "no rack samples: the midpoint, rounded down");
    observe(d, Level.RACK, 20, 20);
    r.update(d);
    assertEquals(50, r.beta(), "1 / 20 ticks once rack-local tasks have samples");
  }

  @Test
  void orderedEvenWhenRemoteTasksRanFaster() {
    ServiceRates r = new ServiceRates(1000, 800, 500, 1);
    ObservedDurations d = new ObservedDurations();
    observe(d, Level.LOCAL, 20);
    observe(d, Level.REMOTE, 5); // loopback: away from the data as fast or faster
    observe(d, Level.RACK, 2);
    r.update(d);
    assertTrue(r.gamma() <= r.beta() && r.beta() <= r.alpha(), r.toString());
    assertEquals(50, r.alpha());
    assertEquals(50, r.gamma());
  }

  @Test
  void zeroSamplesIsOff() {
    ServiceRates r = new ServiceRates(1000, 800, 500, 0);
    ObservedDurations d = new ObservedDurations();
    observe(d, Level.LOCAL, 1, 1);
    observe(d, Level.REMOTE, 100, 100);
    r.update(d);
    assertEquals(1000, r.alpha());
    assertEquals(500, r.gamma());
  }

  /** Against an independent recomputation in doubles, on seeded random durations. */
  @Test
  void matchesOneOverTheMeanOnRandomDurations() {
    SplittableRandom rnd = new SplittableRandom(11);
    for (int round = 0; round < 300; round++) {
      int min = 1 + rnd.nextInt(3);
      ServiceRates r = new ServiceRates(1000, 700, 400, min);
      ObservedDurations d = new ObservedDurations();
      double[] sum = new double[3];
      int[] n = new int[3];
      for (int i = 0; i < 25; i++) {
        Level level = Level.values()[rnd.nextInt(3)];
        long t = 1 + rnd.nextInt(level == Level.LOCAL ? 30 : 200);
        d.observe(level, t);
        sum[level.ordinal()] += t;
        n[level.ordinal()]++;
      }
      r.update(d);
      if (n[0] < min) {
        assertEquals(1000, r.alpha(), "round " + round);
        assertEquals(400, r.gamma(), "round " + round);
        continue;
      }
      long a = Math.min(1000, Math.max(1, (long) Math.floor(1000 * n[0] / sum[0])));
      long g = n[2] < min ? Math.min(a, Math.max(1, (long) Math.floor(a * 0.4)))
          : Math.min(a, Math.max(1, (long) Math.floor(1000 * n[2] / sum[2])));
      assertEquals(a, r.alpha(), "round " + round);
      assertEquals(g, r.gamma(), "round " + round);
      assertTrue(r.gamma() <= r.beta() && r.beta() <= r.alpha(), "round " + round + ": " + r);
    }
  }

  /** A read sharing its link waits a local task's time (1/α) scaled by perSharedRead/local per read, rounded up. */
  @Test
  void aSharedReadWaitsALocalTasksTimeScaledByItsCost() {
    ServiceRates r = new ServiceRates(800, 500, 200, 0, 500, 1000);
    assertEquals(0, r.sharedReadTicks(0));
    assertEquals(1, r.sharedReadTicks(1)); // 0.625 ticks, rounded up
    assertEquals(2, r.sharedReadTicks(3)); // 1.875
    assertEquals(5, r.sharedReadTicks(8)); // 5.0 exactly
    assertEquals(0, new ServiceRates(800, 500, 200, 0).sharedReadTicks(8), "reads not priced");
  }
}
