package io.dataloc.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * {@link MrJob#reduceLimit}, the MapReduce AM's reduce ramp-up, by hand at its turning points and
 * against an oracle that finds the ideal share by search rather than by formula.
 */
class MrJobReduceLimitTest {
  @Test
  void theReducesShareRampsWithTheMapsDoneUpToHalf() {
    // 100 containers, 1,000 maps: those still to finish need more than the reduces leave them.
    assertEquals(5, MrJob.reduceLimit(100, 50, 1000, 950), "5% done: 5 of 100");
    assertEquals(30, MrJob.reduceLimit(100, 300, 1000, 700), "30% done: 30");
    assertEquals(50, MrJob.reduceLimit(100, 600, 1000, 400), "60% done: capped at half");
  }

  @Test
  void whatTheUnfinishedMapsLeaveGoesToTheReduces() {
    assertEquals(90, MrJob.reduceLimit(100, 10, 20, 10), "10 maps left of 100 containers: 90 for reduces");
    assertEquals(5, MrJob.reduceLimit(100, 5, 100, 96), "96 maps need more than the 95 left: the ideal 5");
    assertEquals(5, MrJob.reduceLimit(100, 5, 100, 95), "exactly the 95 left: 100 − 95");
    assertEquals(10, MrJob.reduceLimit(100, 5, 100, 90), "90 maps of the 95 left: the ideal 5 and the 5 they leave");
  }

  @Test
  void everyLimitIsTheOracles() {
    for (int total = 0; total <= 40; total++) {
      for (int maps = 1; maps <= 30; maps++) {
        for (int done = 0; done <= maps; done++) {
          for (int unfinished = 0; unfinished <= maps - done; unfinished++) {
            int ideal = 0;
            while (2 * (ideal + 1) <= total && (long) (ideal + 1) * maps <= (long) total * done) {
              ideal++;
            }
            int expected = total - ideal >= unfinished ? total - unfinished : ideal;
            assertEquals(expected, MrJob.reduceLimit(total, done, maps, unfinished),
                "total " + total + ", done " + done + " of " + maps + ", unfinished " + unfinished);
          }
        }
      }
    }
  }
}
