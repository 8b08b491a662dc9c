package io.dataloc.yarn;

import static io.dataloc.yarn.DatalocKeys.ACL_MAX_PRIORITY;

import java.util.List;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.AppPriorityACLConfigurationParser;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.AppPriorityACLGroup;

/**
 * The value of {@code acl.application-max-priority}: priority ACL groups in the CapacityScheduler's
 * syntax, checked and parsed by the CapacityScheduler's own parser.
 */
final class PriorityAcl {
  private PriorityAcl() {}

  /** The value if it is one line of groups that each name a user or group and a max_priority; else an error naming the key. */
  static String check(String v) {
    if (v.length() > 65_536 || v.chars().anyMatch(c -> c == '\n' || c == '\r')) {
      throw DatalocConfiguration.bad(ACL_MAX_PRIORITY, shortened(v), "must be one line of at most 65536 characters");
    }
    try {
      for (AppPriorityACLGroup g : groups(v, Integer.MAX_VALUE)) {
        if (g.getMaxPriority() == null) {
          throw new IllegalArgumentException("a group without max_priority");
        }
      }
    } catch (RuntimeException e) {
      throw DatalocConfiguration.bad(ACL_MAX_PRIORITY, shortened(v),
          "allowed: " + ACL_MAX_PRIORITY.allowed() + " (" + e + ")");
    }
    return v;
  }

  /** The groups of a priority ACL, capped at the cluster's maximum priority. */
  static List<AppPriorityACLGroup> groups(String acl, int clusterMax) {
    return new AppPriorityACLConfigurationParser().getPriorityAcl(Priority.newInstance(clusterMax), acl);
  }

  private static String shortened(String v) {
    return v.length() > 80 ? v.substring(0, 80) + "..." : v;
  }
}
