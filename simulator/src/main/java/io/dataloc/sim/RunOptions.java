package io.dataloc.sim;

import io.dataloc.sim.report.Progress;
import java.nio.file.Path;

/**
 * How to run an experiment.
 *
 * @param quick shrink to a smoke run (about a minute at most)
 * @param seeds repetitions per point (0: the experiment's default)
 * @param out where {@code EXPERIMENT.csv} and the charts go
 * @param seed the one base seed; every instance seed derives from it
 * @param progress where progress goes
 */
public record RunOptions(boolean quick, int seeds, Path out, long seed, Progress progress) {
  public int seedsOr(int full, int quickDefault) {
    return seeds > 0 ? seeds : quick ? quickDefault : full;
  }
}
