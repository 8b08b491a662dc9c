package io.dataloc.sim;

import java.io.IOException;

/** One reproducible experiment: a name, and a run that writes its CSV and charts. */
public interface Experiment {
  String name();

  /** One line on what it reproduces. */
  String description();

  /** Runs it; returns the summary table to print. */
  String run(RunOptions options) throws IOException;
}
