package io.dataloc.it.replay;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Where the job time went: the phases of the finished jobs add up to their mean job time, per bin. */
class ReplayResultTest {
  private static ReplayResult.JobTime job(String name, int maps, double amWait, double firstMap, double mapsDone,
      double time) {
    return new ReplayResult.JobTime(name, maps, 1, 0, amWait, firstMap, mapsDone, time, 1, maps, 0, 0, "h1", Map.of());
  }

  private static final ReplayResult RUN = new ReplayResult("dataloc", List.of(
      job("a", 2, 0, 4, 10, 12),
      job("b", 10, 2, 8, 20, 30),
      job("c", 20, 1, 3, 7, 9),
      job("never-finished", 3, 5, 9, -1, -1)), 0, 0, 100, 1, 0);

  @Test
  void eachBinsPhasesAreTheMeansOfItsFinishedJobs() {
    // a: 0, 4, 6, 2; b: 2, 6, 12, 10; so 1-10 maps: 1, 5, 9, 6.
    assertArrayEquals(new double[] {1, 5, 9, 6}, RUN.phases(0), 1e-12);
    assertArrayEquals(new double[] {1, 2, 4, 2}, RUN.phases(1), 1e-12);
    assertArrayEquals(new double[] {1, 4, 22 / 3.0, 14 / 3.0}, RUN.phases(-1), 1e-12);
    assertTrue(Double.isNaN(RUN.phases(2)[0]), "an empty bin has no phases");
  }

  @Test
  void thePhasesAddUpToTheMeanJobTime() {
    for (int b = -1; b < 2; b++) {
      double sum = 0;
      for (double p : RUN.phases(b)) {
        sum += p;
      }
      assertEquals(ReplayResult.mean(RUN.times(b)), sum, 1e-9, "bin " + b);
    }
  }

  @Test
  void theSummaryShowsThePhasesOfEachBinThatHasJobs() {
    String table = ReplayReport.phases(List.of(RUN));
    assertTrue(table.contains("| dataloc | all | 1.0 | 4.0 | 7.3 | 4.7 |"), table);
    assertTrue(table.contains("| dataloc | 1-10 | 1.0 | 5.0 | 9.0 | 6.0 |"), table);
    assertTrue(!table.contains("| 51-500 |"), table);
    assertTrue(RUN.json().contains("\"1-10\": {\"am_wait\": 1.000, \"am_to_first_map\": 5.000, \"maps\": 9.000,"
        + " \"after_maps\": 6.000}"), RUN.json());
  }
}
