package io.dataloc.sim.online;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@code break-even} stays stable when a stream of higher priority is backlogged on three hosts and
 * every job is planned on arrival, as MapReduce jobs are: at 80% load its backlog is level and both
 * streams finish jobs, where the ResourceManager's default, JSQ-MaxWeight with stealing, grows (as
 * {@code docs/replay.md} reports); past capacity the same test says it grows (so it can tell).
 */
class PriorityBacklogTest {
  private static final int SLOTS = 3_000;
  private static final int SEEDS = 3;

  /** Mean slope minus its 95% half-width over the seeds (> 0: grows), or +∞ if a run was stopped. */
  private static double growth(String policy, double load, boolean requireServed) {
    double[] slope = new double[SEEDS];
    for (int k = 0; k < SEEDS; k++) {
      PriorityBacklogExperiment.Run r = PriorityBacklogExperiment.one(policy, "bar", load, SLOTS, 1 + k);
      if (r.aborted()) {
        return Double.POSITIVE_INFINITY;
      }
      if (requireServed) {
        assertTrue(r.hotDelay() > 0 && r.hotDelay() < SLOTS / 10.0, "hot stream's jobs finish: " + r);
        assertTrue(r.backgroundDelay() > 0 && r.backgroundDelay() < SLOTS / 10.0, "background's jobs finish: " + r);
      }
      slope[k] = r.slope();
    }
    double[] s = WangStabilityExperiment.meanAndHalfWidth(slope);
    return s[0] - s[1];
  }

  @Test
  void plannedBreakEvenIsLevelAtEightyPercentLoadWhereJsqMaxWeightGrows() {
    assertFalse(growth("break-even", 0.8, true) > 0, "break-even's backlog grows at 80% load");
    assertTrue(growth("jsq-maxweight-steal", 0.8, false) > 0,
        "JSQ-MaxWeight planned by BAR grew here: if it no longer does, docs/replay.md's comparison is stale");
  }

  @Test
  void pastCapacityTheTestSaysItGrows() {
    assertTrue(growth("break-even", 1.1, false) > 0, "a load past capacity must grow");
  }
}
