package io.dataloc.yarn;

import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerAppUtils;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerNode;
import org.apache.hadoop.yarn.server.scheduler.SchedulerRequestKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An attempt's outstanding ApplicationMaster ask and whether a node can take it now: the one
 * predicate by which {@link OtherWork} serves an AM and {@link AmAdmissions} asks whether the next
 * AM could use a node. Under the scheduler's monitor.
 */
final class AmAsks {
  private static final Logger LOG = LoggerFactory.getLogger(LocalityScheduler.class);

  /** Whether a node can take an AM now, and if not, why. */
  enum Fit {
    /** The node can run it now. */
    TAKES,
    /** Blacklisted by the application, outside its asks, or too little room on the node. */
    NOT_HERE,
    /** Admitting it would pass the AM limit, on any node. */
    OVER_LIMIT
  }

  private AmAsks() {}

  /** The attempt's outstanding AM ask, or null if it waits for no AM container. */
  static SchedulerRequestKey key(DatalocAppAttempt attempt) {
    if (attempt == null || attempt.isStopped() || !Containers.isAmRequest(attempt)) {
      return null;
    }
    for (SchedulerRequestKey key : attempt.getSchedulerKeys()) {
      if (attempt.getOutstandingAsksCount(key, ResourceRequest.ANY) > 0) {
        return key;
      }
    }
    return null;
  }

  /** The container size the AM ask {@code key} wants. */
  static Resource size(DatalocAppAttempt attempt, SchedulerRequestKey key) {
    return attempt.getPendingAsk(key, ResourceRequest.ANY).getPerAllocationResource();
  }

  /** Whether {@code node} can take the attempt's AM ask {@code key} now. */
  static Fit fit(DatalocAppAttempt attempt, SchedulerRequestKey key, FiCaSchedulerNode node, ClusterRoom room) {
    Resource size = size(attempt, key);
    if (!room.amFits(size)) {
      return Fit.OVER_LIMIT;
    }
    if (SchedulerAppUtils.isPlaceBlacklisted(attempt, node, LOG) || !room.sizes().fits(node, size)
        || attempt.levelFor(key, node) == null) {
      return Fit.NOT_HERE;
    }
    return Fit.TAKES;
  }
}
