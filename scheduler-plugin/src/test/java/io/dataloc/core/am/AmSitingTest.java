package io.dataloc.core.am;

import static io.dataloc.core.am.AmSiting.Verdict.TAKE;
import static io.dataloc.core.am.AmSiting.Verdict.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** {@link AmSiting}: its rule at its thresholds, and its properties over a grid of arguments. */
class AmSitingTest {

  @Test
  void aMoreDemandedHostDeclinesUntilTheWaitIsOver() {
    assertEquals(WAIT, AmSiting.decide(5, 0, -1, 3_000), "never declined, a less demanded host has room");
    assertEquals(WAIT, AmSiting.decide(5, 4, 2_999, 3_000), "one below the wait");
    assertEquals(TAKE, AmSiting.decide(5, 4, 3_000, 3_000), "the wait is over");
    assertEquals(TAKE, AmSiting.decide(5, 5, -1, 3_000), "as little demanded as any host with room");
    assertEquals(TAKE, AmSiting.decide(0, 0, -1, 3_000), "no maps need this host");
    assertEquals(TAKE, AmSiting.decide(5, Integer.MAX_VALUE, -1, 3_000), "no other host has room");
    assertEquals(TAKE, AmSiting.decide(5, 0, -1, 0), "a wait of 0 is first fit");
  }

  @Test
  void propertiesOverAGrid() {
    long[] waits = {0, 1, 250, 3_000};
    for (int here = 0; here <= 6; here++) {
      for (int least = 0; least <= 6; least++) {
        for (long declined = -1; declined <= 3_500; declined += 250) {
          for (long max : waits) {
            AmSiting.Verdict v = AmSiting.decide(here, least, declined, max);
            boolean expected = max == 0 || here <= least || declined >= max;
            assertEquals(expected ? TAKE : WAIT, v, here + " " + least + " " + declined + " " + max);
            if (v == WAIT) {
              assertEquals(true, here > least, "declined only by a host more demanded than one with room");
              assertEquals(true, declined < max, "never beyond the wait");
            }
          }
        }
      }
    }
  }
}
