package io.dataloc.yarn.line;

import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;

/**
 * Hadoop 3.4 and later: the CapacityScheduler's placement component is installed cluster-wide, by
 * {@code yarn.scheduler.app-placement-allocator.class} (YARN-11026, from 3.4).
 */
public final class AllocatorInstall {
  private AllocatorInstall() {}

  /** The cluster-wide key that installs it. */
  public static String clusterWideKey() {
    return YarnConfiguration.APPLICATION_PLACEMENT_TYPE_CLASS;
  }

  /** Nothing to do per application: the key installs it for every one. */
  public static void perApplication(RMApp app, String allocatorClass) {
    // cluster-wide from 3.4
  }
}
