package io.dataloc.yarn;

import java.util.Collections;
import java.util.List;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.api.records.SchedulingRequest;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.Allocation;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ContainerUpdates;
import org.apache.hadoop.yarn.util.resource.Resources;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An ApplicationMaster's heartbeat ({@code allocate}, on an AM handler thread): records its asks
 * and blacklist, refuses container updates and placement constraints, and hands it the containers
 * allocated since its last call with the cluster's headroom now. It takes only the attempt's
 * monitor, never the scheduler's: the next node heartbeat reconciles the changed asks.
 */
final class AmHeartbeat {
  private static final Logger LOG = LoggerFactory.getLogger(LocalityScheduler.class);
  /** What an AM is told of a container update (increase, decrease, promotion, demotion). */
  static final String UPDATES_REFUSED = "The Dataloc scheduler does not support container updates (resource "
      + "increase or decrease, promotion or demotion); release the container and ask for a new one";

  private final AppRegistry registry;
  private final AskSync asks;
  private final ClusterRoom room;

  AmHeartbeat(AppRegistry registry, AskSync asks, ClusterRoom room) {
    this.registry = registry;
    this.asks = asks;
    this.room = room;
  }

  /** The attempt's asks are already normalized and its releases done. */
  Allocation allocate(DatalocAppAttempt attempt, List<ResourceRequest> newAsks, List<SchedulingRequest> requests,
      List<String> blacklistAdditions, List<String> blacklistRemovals, ContainerUpdates updates) {
    synchronized (attempt) {
      if (attempt.isStopped()) {
        return new Allocation(new java.util.ArrayList<>(), Resources.createResource(0), null, null, null);
      }
      if (!newAsks.isEmpty()) {
        asks.received(attempt, newAsks);
        attempt.updateResourceRequests(newAsks);
        registry.markDirty(attempt.getApplicationId());
      }
      attempt.updateBlacklist(orEmpty(blacklistAdditions), orEmpty(blacklistRemovals));
      if (attempt.refuseUpdates(updates, UPDATES_REFUSED) > 0) {
        LOG.warn("Dataloc: refused container updates of {}: {}", attempt.getApplicationAttemptId(), UPDATES_REFUSED);
      }
      // Headroom: what the cluster has free now, not when this application last got a container.
      Resource headroom = Resources.clone(room.free());
      attempt.setHeadroom(headroom);
      attempt.setApplicationHeadroomForMetrics(headroom);
      return new Allocation(attempt.pullNewlyAllocatedContainers(), headroom, null, null, null,
          attempt.pullUpdatedNMTokens(), null, null, null, null, null,
          SchedulerEvents.rejected(attempt.getApplicationAttemptId(), requests));
    }
  }

  static <T> List<T> orEmpty(List<T> list) {
    return list == null ? Collections.emptyList() : list;
  }
}
