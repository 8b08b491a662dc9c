package io.dataloc.sim;

import java.io.IOException;

/** One reproducible experiment: a name, and a run that returns what it found as a {@link io.dataloc.sim.report.Report}. */
public interface Experiment {
  String name();

  /** One line on what it reproduces. */
  String description();

  /** Runs it; returns what it found (its summary, CSVs and charts), written by the caller. */
  io.dataloc.sim.report.Report run(RunOptions options) throws IOException;
}
