package io.dataloc.yarn;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationResourceUsageReport;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceInformation;
import org.apache.hadoop.yarn.util.resource.ResourceCalculator;
import org.apache.hadoop.yarn.util.resource.Resources;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerEventType;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerImpl;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ActiveUsersManager;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.NodeType;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.Queue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerApp;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerNode;
import org.apache.hadoop.yarn.server.scheduler.SchedulerRequestKey;

/** An application attempt: FiCaSchedulerApp plus the allocation step FifoAppAttempt keeps private. */
public class DatalocAppAttempt extends FiCaSchedulerApp {

  public DatalocAppAttempt(ApplicationAttemptId attemptId, String user, Queue queue, ActiveUsersManager users,
      RMContext rmContext, org.apache.hadoop.yarn.api.records.Priority appPriority, boolean recovering) {
    super(attemptId, user, queue, users, rmContext, appPriority, recovering);
  }

  /**
   * Refuses container updates (resource increase or decrease, promotion, demotion): each comes back
   * to the AM as an update error with this reason on its next allocate response.
   *
   * @return how many were refused
   */
  public int refuseUpdates(org.apache.hadoop.yarn.server.resourcemanager.scheduler.ContainerUpdates updates,
      String reason) {
    if (updates == null) {
      return 0;
    }
    int n = 0;
    for (var list : List.of(updates.getIncreaseRequests(), updates.getDecreaseRequests(),
        updates.getPromotionRequests(), updates.getDemotionRequests())) {
      for (var request : list) {
        addToUpdateContainerErrors(org.apache.hadoop.yarn.api.records.UpdateContainerError.newInstance(reason,
            request));
        n++;
      }
    }
    return n;
  }

  /**
   * The best locality level the asks allow for this key on this node, or null for none. As the
   * CapacityScheduler reads {@code relaxLocality}: a rack-level ask with it false allows this rack's
   * nodes only where a node-level ask names them, and the {@code *} ask with it false allows no
   * node beyond those named by node- or rack-level asks.
   */
  public NodeType levelFor(SchedulerRequestKey key, FiCaSchedulerNode node) {
    if (getOutstandingAsksCount(key, node.getNodeName()) > 0
        && appSchedulingInfo.checkAllocation(NodeType.NODE_LOCAL, node, key)) {
      return NodeType.NODE_LOCAL;
    }
    if (getOutstandingAsksCount(key, node.getRackName()) > 0) {
      if (!appSchedulingInfo.canDelayTo(key, node.getRackName())) {
        return null;
      }
      if (appSchedulingInfo.checkAllocation(NodeType.RACK_LOCAL, node, key)) {
        return NodeType.RACK_LOCAL;
      }
    }
    return appSchedulingInfo.canDelayTo(key, org.apache.hadoop.yarn.api.records.ResourceRequest.ANY)
        && appSchedulingInfo.checkAllocation(NodeType.OFF_SWITCH, node, key) ? NodeType.OFF_SWITCH : null;
  }

  /**
   * Allocates one container at a locality level: checks the asks still want it, records the
   * container for the AM's next pull, decrements the asks and starts the container's life.
   *
   * @return the container, or null if the attempt stopped, no longer asks for this key, or its asks
   *     no longer put it at this level on this node
   */
  public RMContainer allocate(NodeType type, FiCaSchedulerNode node, SchedulerRequestKey key, Container container) {
    writeLock.lock();
    try {
      // The level was chosen without this attempt's monitor; here (the caller holds it, as
      // allocate does while it updates the asks) the asks cannot change: choose it again.
      if (isStopped || getOutstandingAsksCount(key) <= 0 || levelFor(key, node) != type) {
        return null;
      }
      RMContainer rmContainer = new RMContainerImpl(container, key, getApplicationAttemptId(), node.getNodeID(),
          appSchedulingInfo.getUser(), rmContext, node.getPartition());
      ((RMContainerImpl) rmContainer).setQueueName(getQueueName());
      updateAMContainerDiagnostics(AMState.ASSIGNED, null);
      addToNewlyAllocatedContainers(node, rmContainer);
      liveContainers.put(container.getId(), rmContainer);
      // The attempt's locality table (the RM's application page, total allocated containers): where
      // the container went against the most local ask it served here, as the CapacityScheduler counts.
      NodeType asked = getOutstandingAsksCount(key, node.getNodeName()) > 0 ? NodeType.NODE_LOCAL
          : getOutstandingAsksCount(key, node.getRackName()) > 0 ? NodeType.RACK_LOCAL : NodeType.OFF_SWITCH;
      var request = appSchedulingInfo.allocate(type, node, key, rmContainer);
      incNumAllocatedContainers(type, asked);
      attemptResourceUsage.incUsed(node.getPartition(), container.getResource());
      ((RMContainerImpl) rmContainer).setContainerRequest(request);
      rmContainer.handle(new RMContainerEvent(container.getId(), RMContainerEventType.START));
      return rmContainer;
    } finally {
      writeLock.unlock();
    }
  }

  /**
   * The usage report the RM's client service and state store ask for. FiCaSchedulerApp's version
   * casts the queue to the CapacityScheduler's queue class, which throws under any other scheduler
   * once the node-label manager knows the cluster's resources (found by resizing a node through
   * the admin service). Dataloc has one queue holding the whole cluster, so queue usage is cluster
   * usage; resource-seconds count the live containers.
   */
  @Override
  public ApplicationResourceUsageReport getResourceUsageReport() {
    writeLock.lock();
    try {
      Resource usedNow = Resources.clone(attemptResourceUsage.getAllUsed());
      Resource reservedNow = Resources.clone(attemptResourceUsage.getAllReserved());
      Resource cluster = rmContext.getScheduler().getClusterResource();
      ResourceCalculator calc = rmContext.getScheduler().getResourceCalculator();
      float share = calc.isAllInvalidDivisor(cluster) ? 0f : calc.divide(cluster, usedNow, cluster) * 100;
      if (Float.isNaN(share) || Float.isInfinite(share)) {
        share = 0f;
      }
      long now = System.currentTimeMillis();
      Map<String, Long> seconds = new HashMap<>();
      for (RMContainer c : liveContainers.values()) {
        long millis = Math.max(0, now - c.getCreationTime());
        for (ResourceInformation r : c.getContainer().getResource().getResources()) {
          seconds.merge(r.getName(), r.getValue() * millis / 1000, Long::sum);
        }
      }
      Map<String, Long> preempted = new HashMap<>();
      preempted.put(ResourceInformation.MEMORY_MB.getName(), 0L);
      preempted.put(ResourceInformation.VCORES.getName(), 0L);
      return ApplicationResourceUsageReport.newInstance(liveContainers.size(), getReservedContainers().size(),
          usedNow, reservedNow, Resources.add(usedNow, reservedNow), seconds, share, share, preempted);
    } finally {
      writeLock.unlock();
    }
  }

  /** Containers of a key handed out but not yet pulled by the AM (its asks do not know them yet). */
  public int unpulled(SchedulerRequestKey key) {
    readLock.lock();
    try {
      int n = 0;
      for (RMContainer c : newlyAllocatedContainers) {
        if (c.getAllocatedSchedulerKey().equals(key)) {
          n++;
        }
      }
      return n;
    } finally {
      readLock.unlock();
    }
  }
}
