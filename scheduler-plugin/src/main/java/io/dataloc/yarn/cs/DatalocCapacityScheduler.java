package io.dataloc.yarn.cs;

import io.dataloc.yarn.CapacityPlans;
import io.dataloc.yarn.DatalocFrontEnd;
import io.dataloc.yarn.HadoopLine;
import io.dataloc.yarn.WaitReports;
import io.dataloc.yarn.line.AllocatorInstall;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.exceptions.YarnRuntimeException;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerEventType;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerState;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplication;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CSQueue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.ContainerAllocationProposal;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.ResourceCommitRequest;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.SchedulerContainer;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerApp;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAttemptAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppRemovedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeLabelsUpdateSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeRemovedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeResourceUpdateSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeUpdateSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.SchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.SchedulerEventType;
import org.apache.hadoop.yarn.server.scheduler.SchedulerRequestKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stock CapacityScheduler, telling Dataloc's plan service ({@link CapacityPlans}) what its
 * placement component ({@link DatalocPlacementAllocator}) cannot see: applications and attempts
 * added and removed, nodes added, changed, lost and heartbeating, the container a commit made,
 * a container's end. Everything else — queues, capacities, user limits, preemption, reservations,
 * node labels, ACLs, the REST API — is the CapacityScheduler's, unchanged.
 *
 * <p>Each hook runs after the CapacityScheduler's own work, on the same thread, with no lock of
 * Dataloc's held on entry; Dataloc's part is wrapped, so an error in it costs the one application
 * ({@link CapacityPlans#failed}) and never reaches Hadoop's threads (but a virtual machine error,
 * which the ResourceManager is told of).
 */
public class DatalocCapacityScheduler extends CapacityScheduler implements DatalocFrontEnd {
  private static final Logger LOG = LoggerFactory.getLogger(DatalocCapacityScheduler.class);
  private volatile CapacityPlans plans;

  /** The plan service of the ResourceManager of {@code context}, or null (not this scheduler, not started). */
  static CapacityPlans plansOf(RMContext context) {
    return context != null && context.getScheduler() instanceof DatalocCapacityScheduler
        ? ((DatalocCapacityScheduler) context.getScheduler()).plans : null;
  }

  @Override
  public WaitReports waitReports() {
    CapacityPlans p = plans;
    return p == null ? null : p.waits();
  }

  /** The plan service (null before {@code serviceInit}). */
  public CapacityPlans plans() {
    return plans;
  }

  /**
   * Refuses to start when the placement component is not installed cluster-wide: the
   * CapacityScheduler's factory falls back to its stock allocator without a word on a missing,
   * misspelt or unsuitable class, and no map would follow a plan. On a Hadoop line without the
   * cluster-wide key (3.3) there is nothing to check: the scheduler installs the component for
   * each application as it is added ({@link AllocatorInstall}).
   */
  static void requireAllocator(Configuration conf) {
    String key = AllocatorInstall.clusterWideKey();
    if (key == null) {
      return;
    }
    String name = conf.getTrimmed(key);
    String why = null;
    if (name == null || name.isEmpty()) {
      why = "is not set";
    } else {
      try {
        Class<?> c = Class.forName(name, false, DatalocCapacityScheduler.class.getClassLoader());
        if (!DatalocPlacementAllocator.class.isAssignableFrom(c)) {
          why = "= '" + name + "' is not " + DatalocPlacementAllocator.class.getName();
        }
      } catch (ClassNotFoundException | LinkageError e) {
        why = "= '" + name + "' cannot be loaded (" + e + ")";
      }
    }
    if (why != null) {
      throw new YarnRuntimeException("Dataloc cannot start: " + key + " " + why + "; set it to "
          + DatalocPlacementAllocator.class.getName() + " (without it the "
          + "CapacityScheduler uses its stock allocator silently and no map follows a plan)");
    }
  }

  @Override
  public void serviceInit(Configuration conf) throws Exception {
    LOG.info(HadoopLine.requireRunning());
    requireAllocator(conf);
    super.serviceInit(conf);
    plans = new CapacityPlans(conf, rmContext, getNodeTracker(), getResourceCalculator(),
        this::getMinimumResourceCapability, r -> getNormalizedResource(r, getMaximumResourceCapability()),
        () -> getClock().getTime());
  }

  @Override
  public void serviceStop() throws Exception {
    CapacityPlans p = plans;
    if (p != null) {
      p.stop();
    }
    super.serviceStop();
  }

  /**
   * {@code -refreshQueues}: Dataloc's keys are checked first, then the CapacityScheduler refreshes,
   * then Dataloc applies its settings; a refusal by either leaves both as they were.
   */
  @Override
  public void reinitialize(Configuration conf, RMContext context) throws IOException {
    CapacityPlans p = plans;
    io.dataloc.yarn.Settings next = p == null ? null : p.validate(conf);
    super.reinitialize(conf, context);
    if (p != null) {
      p.apply(next);
    }
  }

  @Override
  public void handle(SchedulerEvent event) {
    String removedNode = null;
    if (event instanceof NodeRemovedSchedulerEvent) {
      FiCaSchedulerNode n = getNode(((NodeRemovedSchedulerEvent) event).getRemovedRMNode().getNodeID());
      removedNode = n == null ? null : n.getNodeName();
    }
    if (event.getType() == SchedulerEventType.APP_ADDED) {
      try {
        AllocatorInstall.perApplication(rmContext.getRMApps().get(((AppAddedSchedulerEvent) event).getApplicationId()),
            DatalocPlacementAllocator.class.getName());
      } catch (RuntimeException e) {
        LOG.warn("Dataloc: could not choose the placement component for {}", blameOf(event), e);
      }
    }
    super.handle(event);
    CapacityPlans p = plans;
    if (p == null) {
      return;
    }
    try {
      tell(p, event, removedNode);
    } catch (Throwable t) {
      p.failed("handling " + event.getType(), t, blameOf(event));
    }
  }

  private void tell(CapacityPlans p, SchedulerEvent event, String removedNode) {
    switch (event.getType()) {
      case APP_ADDED: {
        AppAddedSchedulerEvent e = (AppAddedSchedulerEvent) event;
        SchedulerApplication<FiCaSchedulerApp> app = getSchedulerApplications().get(e.getApplicationId());
        if (app != null && app.getQueue() != null) {
          String path = app.getQueue() instanceof CSQueue ? ((CSQueue) app.getQueue()).getQueuePath() : null;
          p.appAdded(e.getApplicationId(), e.getUser(), app.getQueue().getQueueName(), path, e.getIsAppRecovering());
        }
        break;
      }
      case APP_ATTEMPT_ADDED:
        p.attemptAdded(((AppAttemptAddedSchedulerEvent) event).getApplicationAttemptId());
        break;
      case APP_REMOVED:
        p.appRemoved(((AppRemovedSchedulerEvent) event).getApplicationID());
        break;
      case NODE_ADDED:
        node(((NodeAddedSchedulerEvent) event).getAddedRMNode().getNodeID(), p::nodeAdded);
        break;
      case NODE_REMOVED: {
        if (removedNode != null) {
          p.nodeRemoved(removedNode);
        }
        break;
      }
      case NODE_RESOURCE_UPDATE:
        node(((NodeResourceUpdateSchedulerEvent) event).getRMNode().getNodeID(),
          p::nodeChanged);
        break;
      case NODE_LABELS_UPDATE:
        ((NodeLabelsUpdateSchedulerEvent) event).getUpdatedNodeToLabels().keySet()
          .forEach(id -> node(id, p::nodeChanged));
        break;
      case NODE_UPDATE:
        node(((NodeUpdateSchedulerEvent) event).getRMNode().getNodeID(), p::nodeHeartbeat);
        break;
      default: {

        break;
      }
    }
  }

  private void node(NodeId id, java.util.function.Consumer<FiCaSchedulerNode> to) {
    FiCaSchedulerNode n = getNode(id);
    if (n != null) {
      to.accept(n);
    }
  }

  private static ApplicationId blameOf(SchedulerEvent event) {
    if (event instanceof AppAddedSchedulerEvent) {
      return ((AppAddedSchedulerEvent) event).getApplicationId();
    }
    if (event instanceof AppAttemptAddedSchedulerEvent) {
      return ((AppAttemptAddedSchedulerEvent) event).getApplicationAttemptId().getApplicationId();
    }
    return null;
  }

  @Override
  protected void completedContainerInternal(RMContainer container, ContainerStatus status, RMContainerEventType event) {
    RMContainerState before = container.getState();
    super.completedContainerInternal(container, status, event);
    CapacityPlans p = plans;
    if (p == null) {
      return;
    }
    ApplicationId app = container.getApplicationAttemptId().getApplicationId();
    try {
      p.commits().containerDone(app, container.getContainerId(),
          before == RMContainerState.RUNNING || before == RMContainerState.COMPLETED, event);
    } catch (Throwable t) {
      p.failed("completing " + container.getContainerId(), t, app);
    }
  }

  /** After a successful commit, the containers it allocated for map keys are tied to their tasks. */
  @Override
  public boolean tryCommit(Resource cluster, ResourceCommitRequest request, boolean updatePending) {
    boolean committed = super.tryCommit(cluster, request, updatePending);
    CapacityPlans p = plans;
    if (!committed || p == null) {
      return committed;
    }
    for (Object o : request.getContainersToAllocate()) {
      ApplicationId app = null;
      try {
        SchedulerContainer<?, ?> c = ((ContainerAllocationProposal<?, ?>) o).getAllocatedOrReservedContainer();
        if (c == null || !c.isAllocated() || c.getRmContainer() == null) {
          continue;
        }
        SchedulerRequestKey key = c.getSchedulerRequestKey();
        RMContainer rc = c.getRmContainer();
        app = rc.getApplicationAttemptId().getApplicationId();
        if (p.settings().isMapKey(key)) {
          p.commits().containerAllocated(app, rc.getContainerId(), c.getSchedulerNode().getNodeName(),
              c.getSchedulerNode().getRackName());
        }
      } catch (Throwable t) {
        p.failed("tying a committed container", t, app);
      }
    }
    return committed;
  }
}
