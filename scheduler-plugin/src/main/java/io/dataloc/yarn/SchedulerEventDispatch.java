package io.dataloc.yarn;

import io.dataloc.yarn.line.UnmanagedAms;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerEventType;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerUtils;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAttemptAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAttemptRemovedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppRemovedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.ContainerExpiredSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeLabelsUpdateSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeRemovedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeResourceUpdateSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeUpdateSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.ReleaseContainerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.SchedulerEvent;

/**
 * The standalone scheduler's events, each handed to the part that carries it out: nodes to {@link
 * NodeEvents}, applications to {@link AppLifecycle}, heartbeats and container ends to the
 * scheduler's own YARN bookkeeping. Each part's work runs under the scheduler's lock, its hold
 * measured by name; what YARN's base class does (recovering a node's containers, resizing it,
 * completing a container) runs through the scheduler, which takes its lock itself. Events with no
 * meaning here are {@link SchedulerEvents#ignore}d. The caller contains whatever this throws.
 */
final class SchedulerEventDispatch {
  private final LocalityScheduler scheduler;
  private final SchedulerParts parts;

  SchedulerEventDispatch(LocalityScheduler scheduler, SchedulerParts parts) {
    this.scheduler = scheduler;
    this.parts = parts;
  }

  void dispatch(SchedulerEvent event) {
    switch (event.getType()) {
      case NODE_ADDED: {
        NodeAddedSchedulerEvent e = (NodeAddedSchedulerEvent) event;
        scheduler.locked("addNode", () -> parts.nodes.added(e.getAddedRMNode()));
        scheduler.recoverContainersOnNode(e.getContainerReports(), e.getAddedRMNode());
        break;
      }
      case NODE_REMOVED:
        scheduler.locked("removeNode", () -> parts.nodes.removed(((NodeRemovedSchedulerEvent) event)
          .getRemovedRMNode()));
        break;
      case NODE_RESOURCE_UPDATE: {
        NodeResourceUpdateSchedulerEvent e = (NodeResourceUpdateSchedulerEvent) event;
        SchedulerEvents.warnOvercommit(e);
        scheduler.updateNodeResource(e.getRMNode(), e.getResourceOption());
        scheduler.locked("resized", () -> parts.nodes.resized(e.getRMNode()));
        break;
      }
      case NODE_UPDATE:
        scheduler.nodeUpdate(((NodeUpdateSchedulerEvent) event).getRMNode());
        break;
      case APP_ADDED: {
        AppAddedSchedulerEvent e = (AppAddedSchedulerEvent) event;
        scheduler.locked("addApplication", () -> parts.lifecycle.added(e.getApplicationId(), e.getUser(), e.getQueue(),
            e.getApplicatonPriority(), e.getIsAppRecovering(), UnmanagedAms.unmanaged(e)));
        break;
      }
      case APP_REMOVED: {
        AppRemovedSchedulerEvent e = (AppRemovedSchedulerEvent) event;
        scheduler.locked("doneApplication", () -> parts.lifecycle.removed(e.getApplicationID(), e.getFinalState()));
        break;
      }
      case APP_ATTEMPT_ADDED: {
        AppAttemptAddedSchedulerEvent e = (AppAttemptAddedSchedulerEvent) event;
        scheduler.locked("addApplicationAttempt", () -> parts.lifecycle.attemptAdded(e.getApplicationAttemptId(),
            e.getTransferStateFromPreviousAttempt(), e.getIsAttemptRecovering()));
        break;
      }
      case APP_ATTEMPT_REMOVED: {
        AppAttemptRemovedSchedulerEvent e = (AppAttemptRemovedSchedulerEvent) event;
        scheduler.locked("doneApplicationAttempt", () -> parts.lifecycle.attemptRemoved(e.getApplicationAttemptID(),
            e.getFinalAttemptState(), e.getKeepContainersAcrossAppAttempts()));
        break;
      }
      case CONTAINER_EXPIRED: {
        ContainerId id = ((ContainerExpiredSchedulerEvent) event).getContainerId();
        RMContainer c = scheduler.getRMContainer(id);
        if (c != null) {
          scheduler.completedContainer(c, SchedulerUtils.createAbnormalContainerStatus(id, SchedulerUtils.EXPIRED_CONTAINER),
              RMContainerEventType.EXPIRE);
        }
        break;
      }
      case RELEASE_CONTAINER: {
        RMContainer c = ((ReleaseContainerEvent) event).getContainer();
        scheduler.completedContainer(c, SchedulerUtils.createAbnormalContainerStatus(c.getContainerId(),
            SchedulerUtils.RELEASED_CONTAINER), RMContainerEventType.RELEASED);
        break;
      }
      case NODE_LABELS_UPDATE:
        scheduler.locked("labelsChanged", () -> parts.nodes.labelsChanged(
          ((NodeLabelsUpdateSchedulerEvent) event).getUpdatedNodeToLabels()));
        break;
      default:
        SchedulerEvents.ignore(event);
        break;
    }
  }
}
