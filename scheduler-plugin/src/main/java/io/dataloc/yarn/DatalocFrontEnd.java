package io.dataloc.yarn;

/**
 * A ResourceManager scheduler that runs Dataloc's plan service — the standalone
 * {@link LocalityScheduler} or the CapacityScheduler with Dataloc's placement component — as the
 * web services and the page reach it, whichever of the two is configured.
 */
public interface DatalocFrontEnd {
  /** Why each application waits, on demand. */
  WaitReports waitReports();
}
