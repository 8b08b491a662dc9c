package io.dataloc.yarn;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.RejectedSchedulingRequest;
import org.apache.hadoop.yarn.api.records.RejectionReason;
import org.apache.hadoop.yarn.api.records.SchedulingRequest;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAttemptAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAttemptRemovedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppRemovedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.ContainerExpiredSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeResourceUpdateSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.ReleaseContainerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.SchedulerEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** What the scheduler reads off YARN's events and requests without acting on them: blame, refusals, warnings. */
final class SchedulerEvents {
  private static final Logger LOG = LoggerFactory.getLogger(LocalityScheduler.class);

  private SchedulerEvents() {}

  /** The application an event is about, if any (it pays for an error met handling it). */
  static ApplicationId blameOf(SchedulerEvent event) {
    try {
      switch (event.getType()) {
        case APP_ADDED:
          return ((AppAddedSchedulerEvent) event).getApplicationId();
        case APP_REMOVED:
          return ((AppRemovedSchedulerEvent) event).getApplicationID();
        case APP_ATTEMPT_ADDED:
          return ((AppAttemptAddedSchedulerEvent) event).getApplicationAttemptId().getApplicationId();
        case APP_ATTEMPT_REMOVED:
          return ((AppAttemptRemovedSchedulerEvent) event).getApplicationAttemptID().getApplicationId();
        case CONTAINER_EXPIRED:
          return ((ContainerExpiredSchedulerEvent) event).getContainerId().getApplicationAttemptId()
            .getApplicationId();
        case RELEASE_CONTAINER:
          return ((ReleaseContainerEvent) event).getContainer().getApplicationAttemptId()
            .getApplicationId();
        default:
          return null;
      }
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** A node resize's overcommit timeout is not enforced: said, not ignored. */
  static void warnOvercommit(NodeResourceUpdateSchedulerEvent e) {
    if (e.getResourceOption().getOverCommitTimeout() > 0) {
      LOG.warn("Dataloc: node {} resized with an overcommit timeout of {} ms: the timeout is not enforced;"
          + " containers beyond the new size run until they end, and no new one starts there meanwhile",
          e.getRMNode().getNodeID(), e.getResourceOption().getOverCommitTimeout());
    }
  }

  /**
   * Events with no meaning in Dataloc's single queue without preemption (node attributes,
   * reservations, preemption marks, queue management) are deliberately ignored; an unknown one is
   * logged.
   */
  static void ignore(SchedulerEvent event) {
    // By name: not every Hadoop line has every one of these event types.
    switch (event.getType().name()) {
      case "NODE_ATTRIBUTES_UPDATE":
      case "KILL_RESERVED_CONTAINER":
      case "MARK_CONTAINER_FOR_PREEMPTION":
      case "MARK_CONTAINER_FOR_KILLABLE":
      case "MARK_CONTAINER_FOR_NONKILLABLE":
      case "MANAGE_QUEUE":
      case "AUTO_QUEUE_DELETION":
        LOG.debug("Ignoring {}", event.getType());
        break;
      default:
        LOG.warn("Unknown scheduler event {}; ignoring", event.getType());
        break;
    }
  }

  /**
   * SchedulingRequests (placement constraints) are refused: each comes back to the AM as rejected.
   * (With the RM's default placement handler, {@code disabled}, and with {@code scheduler}, the RM
   * refuses them before they get here; {@code placement-processor} asks {@code
   * attemptAllocationOnNode}, which refuses.)
   */
  static List<RejectedSchedulingRequest> rejected(ApplicationAttemptId attemptId, List<SchedulingRequest> requests) {
    if (requests == null || requests.isEmpty()) {
      return null;
    }
    LOG.warn("Dataloc: rejected {} SchedulingRequests of {}: placement constraints are not supported", requests.size(),
        attemptId);
    List<RejectedSchedulingRequest> out = new ArrayList<>(requests.size());
    for (SchedulingRequest r : requests) {
      out.add(RejectedSchedulingRequest.newInstance(RejectionReason.COULD_NOT_SCHEDULE_ON_NODE, r));
    }
    return out;
  }
}
