package io.dataloc.yarn;

import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerEventType;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerState;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.NodeType;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerNode;
import org.apache.hadoop.yarn.server.scheduler.SchedulerRequestKey;
import org.apache.hadoop.yarn.server.utils.BuilderUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out one container: allocates it to an attempt on a node at a locality level (counting
 * it in the cluster's room and, for an AM, against the AM limit), counts a map's locality, and
 * tells the engine how a map container it tied to a task ended. Under the scheduler's monitor.
 */
final class Containers {
  private static final Logger LOG = LoggerFactory.getLogger(LocalityScheduler.class);
  private final SchedulerContext ctx;
  private final ClusterRoom room;

  Containers(SchedulerContext ctx, ClusterRoom room) {
    this.ctx = ctx;
    this.room = room;
  }

  /** The request of an attempt that waits for its ApplicationMaster's container. */
  static boolean isAmRequest(DatalocAppAttempt attempt) {
    return attempt.isWaitingForAMContainer() && attempt.getLiveContainers().isEmpty();
  }

  boolean isMapKey(SchedulerRequestKey key) {
    return ctx.settings().isMapKey(key);
  }

  /** The attempt's map request key, or null if it has none. */
  SchedulerRequestKey mapKey(DatalocAppAttempt attempt) {
    for (SchedulerRequestKey key : attempt.getSchedulerKeys()) {
      if (isMapKey(key)) {
        return key;
      }
    }
    return null;
  }

  /** Whether the attempt asks for maps now. */
  boolean asksForMaps(DatalocAppAttempt attempt) {
    return mapsWanted(attempt, mapKey(attempt)) > 0;
  }

  /** How many maps the attempt asks for now (0 without a map key). */
  int mapsWanted(DatalocAppAttempt attempt, SchedulerRequestKey key) {
    return key == null ? 0 : attempt.getOutstandingAsksCount(key, ResourceRequest.ANY);
  }

  /** One container for the attempt's request {@code key} on {@code node}; null if the asks or the node refuse. */
  RMContainer allocate(DatalocAppAttempt attempt, SchedulerRequestKey key, FiCaSchedulerNode node, NodeType type) {
    var pending = attempt.getPendingAsk(key, ResourceRequest.ANY);
    Resource capability = pending.getPerAllocationResource();
    if (pending.getCount() <= 0 || !room.sizes().fits(node, capability)) {
      return null;
    }
    ContainerId id = BuilderUtils.newContainerId(attempt.getApplicationAttemptId(), attempt.getNewContainerId());
    Container container = BuilderUtils.newContainer(id, node.getNodeID(), node.getRMNode().getHttpAddress(),
        capability, key.getPriority(), null, key.getAllocationRequestId());
    // Lock order as in allocate(): the attempt's monitor before its write lock (addToNewlyAllocated-
    // Containers synchronizes on the attempt). Taking the write lock first deadlocked against an AM
    // heartbeat; the randomized sequences found it.
    boolean am = isAmRequest(attempt);
    RMContainer rmc;
    synchronized (attempt) {
      rmc = attempt.allocate(type, node, key, container);
    }
    if (rmc != null) {
      node.allocateContainer(rmc);
      room.allocated(id, capability, am);
      attempt.setHeadroom(room.free());
    }
    return rmc;
  }

  /**
   * Counts a map container's locality, in the metrics and for its application (may be null), whose
   * wait, if it was waiting, ends.
   */
  void countMap(NodeType type, DatalocApp a, String host) {
    ctx.locality().count(type, ctx.nowMillis());
    if (a != null) {
      a.count(type, host);
      a.waits.served(ctx.nowMillis());
    }
  }

  /**
   * A container ended: if it ran one of the engine's tasks, the engine learns how. A container
   * released or expired before it ran had no task from the AM: its task is pending again.
   */
  private void ended(RMContainer rmContainer, RMContainerEventType event, DatalocApp a) {
    Container container = rmContainer.getContainer();
    room.amEnded(container.getId());
    Integer task = ctx.apps().untie(container.getId());
    if (task == null) {
      if (a != null && a.waiting()) {
        a.earlyEnded.add(container.getId()); // an early map's container, if it was one, is done
      }
      return;
    }
    if (a != null) {
      ctx.faults().at(FaultInjector.COMPLETED, a.id);
    }
    boolean launched = rmContainer.getState() == RMContainerState.RUNNING
        || rmContainer.getState() == RMContainerState.COMPLETED;
    TaskEnd.apply(ctx.engine(), a, task, launched, event);
  }

  /** Where an error met for an application goes ({@link Containment#fail}). */
  interface Failure {
    void fail(String what, Throwable t, ApplicationId blamed);
  }

  /**
   * A container ended (YARN's completion, under the monitor): the engine learns of its task, the
   * attempt and the node let it go, and the room counts it out once.
   */
  void completed(RMContainer rmContainer, ContainerStatus status, RMContainerEventType event,
      DatalocAppAttempt attempt, FiCaSchedulerNode node, Failure failure) {
    ContainerId id = rmContainer.getContainerId();
    ApplicationId app = attempt == null ? null : attempt.getApplicationId();
    try {
      ended(rmContainer, event, app == null ? null : ctx.apps().get(app));
    } catch (RuntimeException e) {
      failure.fail("completing " + id, e, app);
    }
    if (attempt == null) {
      LOG.info("Container {} of an unknown application completed ({})", id, event);
      return;
    }
    // False for a container that already ended (its node kept its room until the NodeManager says
    // it is gone, and the node is now lost): counted out once, when it ended.
    boolean removed = attempt.containerCompleted(rmContainer, status, event,
        org.apache.hadoop.yarn.server.resourcemanager.nodelabels.RMNodeLabelsManager.NO_LABEL);
    if (node != null) {
      node.releaseContainer(id, false);
    }
    if (removed) {
      room.released(rmContainer.getContainer().getResource());
    }
    room.refreshFree();
    ctx.apps().markDirty(app);
  }
}
