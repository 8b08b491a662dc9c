package io.dataloc.yarn.line;

import java.util.Map;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;

/**
 * Hadoop 3.3: the CapacityScheduler has no cluster-wide key for its placement component (that
 * came in 3.4); an application chooses one in its scheduling environment,
 * {@code APPLICATION_PLACEMENT_TYPE_CLASS}, which the CapacityScheduler reads when its attempt is
 * added. Dataloc's scheduler sets it there for each application as it is added, unless the
 * application chose another.
 */
public final class AllocatorInstall {
  /** The scheduling environment's key ({@code ApplicationSchedulingConfig.ENV_APPLICATION_PLACEMENT_TYPE_CLASS}). */
  static final String ENV = "APPLICATION_PLACEMENT_TYPE_CLASS";

  private AllocatorInstall() {}

  /** None on 3.3. */
  public static String clusterWideKey() {
    return null;
  }

  /** Chooses the component for the application, unless it chose another. */
  public static void perApplication(RMApp app, String allocatorClass) {
    Map<String, String> env = app == null ? null : app.getApplicationSchedulingEnvs();
    if (env != null) {
      env.putIfAbsent(ENV, allocatorClass);
    }
  }
}
