package io.dataloc.sim.online;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The stability test's two statistics against values worked by hand. */
class WangStabilityTest {
  @Test
  void slopeOfALineIsItsGradientAndOfAFlatSeriesZero() {
    List<Integer> q = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      q.add(i < 50 ? 7 : 3 * i + 1);
    }
    assertEquals(3.0, WangStabilityExperiment.slope(q, 50, 100), 1e-12);
    assertEquals(0.0, WangStabilityExperiment.slope(q, 0, 50), 1e-12);
  }

  @Test
  void meanAndHalfWidthUseStudentsT() {
    // 2, 4, 6, 8, 10: mean 6, s = √10, t(0.975, 4) = 2.776445 (published tables), half-width
    // 2.776445·√10/√5 = 2.776445·√2.
    double[] r = WangStabilityExperiment.meanAndHalfWidth(new double[] {2, 4, 6, 8, 10});
    assertEquals(6.0, r[0], 1e-12);
    assertEquals(2.776445 * Math.sqrt(2), r[1], 1e-6);
    assertEquals(12.706205, WangStabilityExperiment.meanAndHalfWidth(new double[] {1, 3})[1], 1e-6);
  }
}
