package io.dataloc.core.jobs;

/** What a job ordering may look at: read-only facts the engine keeps per job. */
public interface JobView {
  /** Engine-wide job number, increasing with arrival (the FIFO order). */
  int index();

  String user();

  /** Virtual time the job arrived. */
  long arrival();

  int running();

  int pending();

  /** Estimated execution time of the job's remaining work, in ticks (at least 1). */
  long estimatedWork();

  /**
   * The application's priority (YARN's application priority; higher first, 0 by default). The
   * engine ranks a job of higher priority first and applies the job ordering among equals, as the
   * CapacityScheduler's FIFO and fair ordering policies do.
   */
  default int priority() {
    return 0;
  }
}
