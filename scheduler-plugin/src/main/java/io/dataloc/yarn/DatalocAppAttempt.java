package io.dataloc.yarn;

import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
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
      RMContext rmContext) {
    super(attemptId, user, queue, users, rmContext);
  }

  /**
   * Allocates one container at a locality level: checks the asks still want it, records the
   * container for the AM's next pull, decrements the asks and starts the container's life.
   *
   * @return the container, or null if the attempt stopped or no longer asks for this key
   */
  public RMContainer allocate(NodeType type, FiCaSchedulerNode node, SchedulerRequestKey key, Container container) {
    writeLock.lock();
    try {
      if (isStopped || getOutstandingAsksCount(key) <= 0) {
        return null;
      }
      RMContainer rmContainer = new RMContainerImpl(container, key, getApplicationAttemptId(), node.getNodeID(),
          appSchedulingInfo.getUser(), rmContext, node.getPartition());
      ((RMContainerImpl) rmContainer).setQueueName(getQueueName());
      updateAMContainerDiagnostics(AMState.ASSIGNED, null);
      addToNewlyAllocatedContainers(node, rmContainer);
      liveContainers.put(container.getId(), rmContainer);
      var request = appSchedulingInfo.allocate(type, node, key, rmContainer);
      attemptResourceUsage.incUsed(node.getPartition(), container.getResource());
      ((RMContainerImpl) rmContainer).setContainerRequest(request);
      rmContainer.handle(new RMContainerEvent(container.getId(), RMContainerEventType.START));
      return rmContainer;
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
