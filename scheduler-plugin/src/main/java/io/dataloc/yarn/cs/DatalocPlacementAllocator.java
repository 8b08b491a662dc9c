package io.dataloc.yarn.cs;

import io.dataloc.yarn.CapacityAnswers;
import io.dataloc.yarn.CapacityPlans;
import io.dataloc.yarn.FaultInjector;
import java.util.Collection;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractYarnScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.AppSchedulingInfo;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.NodeType;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplicationAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.activities.DiagnosticsCollector;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.SchedulingMode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.ContainerRequest;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.placement.LocalityAppPlacementAllocator;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.placement.PendingAskUpdateResult;
import org.apache.hadoop.yarn.server.scheduler.SchedulerRequestKey;
import org.apache.hadoop.yarn.util.resource.Resources;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Dataloc's placement component inside the CapacityScheduler: the stock locality allocator of one
 * (attempt, request key), whose answers for a planned job's map key follow the plan
 * ({@link CapacityPlans}), and whose answers for its AM key keep the AM off the hosts whose data
 * live maps need most ({@link CapacityAnswers#amTakes}). Selected cluster-wide by {@code
 * yarn.scheduler.app-placement-allocator.class}; the plan service comes from {@link
 * DatalocCapacityScheduler}. Under the plain CapacityScheduler,
 * for any other key, or for a job Dataloc does not plan, every answer is the stock one.
 *
 * <p>Hadoop calls these methods on its scheduling threads (no CapacityScheduler lock), its
 * committer (under the CapacityScheduler's write lock) and AM handler threads, holding the
 * application's and this table's locks; an exception escaping here would end the
 * ResourceManager or silently stop its committer. So the stock answer is computed first, outside
 * any try; Dataloc's part is wrapped, and any error in it costs the one application
 * ({@link CapacityPlans#failed}) and gives the stock answer.
 */
public class DatalocPlacementAllocator<N extends SchedulerNode> extends LocalityAppPlacementAllocator<N> {
  private static final Logger LOG = LoggerFactory.getLogger(DatalocPlacementAllocator.class);
  private static final AtomicLong ATTACHES = new AtomicLong();
  private static volatile FaultInjector faults = FaultInjector.NONE;

  /** What this key does for Dataloc, with the plan service it asks; null: stock answers only. */
  private volatile Attached attached;
  private ApplicationId app;

  /** How many allocators attached in this JVM (the canary of Hadoop's own tests reads it). */
  public static long attaches() {
    return ATTACHES.get();
  }

  /** For tests: Dataloc's code in this component may throw at {@code FaultInjector.ALLOCATOR + method}. */
  public static void setFaultInjector(FaultInjector f) {
    faults = f == null ? FaultInjector.NONE : f;
  }

  @Override
  public void initialize(AppSchedulingInfo info, SchedulerRequestKey key, RMContext context) {
    super.initialize(info, key, context);
    if (ATTACHES.getAndIncrement() == 0) {
      LOG.info("Dataloc placement component attached (first request key: {} of {})", key,
          info.getApplicationAttemptId());
    }
    CapacityPlans service = null;
    try {
      app = info.getApplicationId();
      service = DatalocCapacityScheduler.plansOf(context);
      fault("initialize");
      CapacityPlans.Role r = service == null ? CapacityPlans.Role.STOCK : service.attach(info.getApplicationAttemptId(), key);
      if (r != CapacityPlans.Role.STOCK) {
        attached = new Attached(service, r);
      }
    } catch (Throwable t) {
      fail(service, "initialize", t);
    }
  }

  @Override
  public PendingAskUpdateResult updatePendingAsk(Collection<ResourceRequest> requests, boolean recover) {
    PendingAskUpdateResult r = super.updatePendingAsk(requests, recover);
    CapacityPlans p = mapPlans();
    if (p != null) {
      try {
        fault("updatePendingAsk");
        p.asksChanged(app, getResourceRequests(), requests);
      } catch (Throwable t) {
        fail(p, "updatePendingAsk", t);
      }
    }
    return r;
  }

  @Override
  public boolean precheckNode(SchedulerNode node, SchedulingMode mode, Optional<DiagnosticsCollector> diagnostics) {
    boolean stock = super.precheckNode(node, mode, diagnostics);
    Attached a = attached;
    if (!stock || a == null) {
      return stock;
    }
    CapacityPlans p = a.plans;
    try {
      fault("precheckNode");
      if (a.role == CapacityPlans.Role.AM) {
        return amTakes(p, node, diagnostics);
      }
      CapacityAnswers.Answer answer = p.answers().precheck(appSchedulingInfo.getApplicationAttemptId(), node);
      if (answer == CapacityAnswers.Answer.ADMIT_IF_ASKED) {
        answer = getOutstandingAsksCount(node.getNodeName()) > 0 ? CapacityAnswers.Answer.ADMIT : CapacityAnswers.Answer.VETO;
      }
      switch (answer) {
        case ADMIT:
          // A planned key never reserves: a node without room now is not let through.
          Resource ask = getPendingAsk(ResourceRequest.ANY).getPerAllocationResource();
          if (ask != null && !Resources.fitsIn(rmContext.getScheduler().getResourceCalculator(), ask,
              node.getUnallocatedResource())) {
            diagnostics.ifPresent(d -> d.collect("Dataloc: the plan wants this node, but the map does not fit now", ""));
            return false;
          }
          return true;
        case VETO:
          diagnostics.ifPresent(d -> d.collect("Dataloc: the job's plan does not want this node now", ""));
          return false;
        default:
          return true;
      }
    } catch (Throwable t) {
      fail(p, "precheckNode", t);
      return stock;
    }
  }

  @Override
  public boolean canAllocate(NodeType type, SchedulerNode node) {
    boolean stock = super.canAllocate(type, node);
    CapacityPlans p = mapPlans();
    if (!stock || p == null) {
      return stock;
    }
    try {
      fault("canAllocate");
      RMContainer reserved = node.getReservedContainer();
      if (reserved != null && app.equals(reserved.getApplicationAttemptId().getApplicationId())) {
        return true; // a reservation is never vetoed at commit: the veto would repeat every pass
      }
      return p.answers().stillWants(app, node);
    } catch (Throwable t) {
      fail(p, "canAllocate", t);
      return stock;
    }
  }

  @Override
  public ContainerRequest allocate(SchedulerRequestKey key, NodeType type, SchedulerNode node) {
    ContainerRequest r = super.allocate(key, type, node);
    CapacityPlans p = mapPlans();
    if (p != null) {
      try {
        fault("allocate");
        p.commits().allocated(app, node, type);
      } catch (Throwable t) {
        fail(p, "allocate", t);
      }
    }
    return r;
  }

  @Override
  public int getUniqueLocationAsks() {
    int stock = super.getUniqueLocationAsks();
    CapacityPlans p = mapPlans();
    if (p == null) {
      return stock;
    }
    try {
      fault("getUniqueLocationAsks");
      return p.answers().following(app) ? 1 : stock;
    } catch (Throwable t) {
      fail(p, "getUniqueLocationAsks", t);
      return stock;
    }
  }

  /** The plan service if this is a planned job's map key, else null. */
  private CapacityPlans mapPlans() {
    Attached a = attached;
    return a != null && a.role == CapacityPlans.Role.MAPS ? a.plans : null;
  }

  /**
   * The AM key: while the attempt waits for its AM container (the key may serve the AM's own
   * asks later), whether the AM takes this node ({@link CapacityAnswers#amTakes}).
   */
  private boolean amTakes(CapacityPlans p, SchedulerNode node, Optional<DiagnosticsCollector> diagnostics) {
    if (!p.answers().sitesAms() || !(rmContext.getScheduler() instanceof AbstractYarnScheduler)) {
      return true;
    }
    SchedulerApplicationAttempt attempt = ((AbstractYarnScheduler<?, ?>) rmContext.getScheduler())
        .getApplicationAttempt(appSchedulingInfo.getApplicationAttemptId());
    if (attempt == null || !attempt.isWaitingForAMContainer()) {
      return true;
    }
    if (p.answers().amTakes(app, node, getPendingAsk(ResourceRequest.ANY).getPerAllocationResource())) {
      return true;
    }
    diagnostics.ifPresent(d -> d.collect("Dataloc: the ApplicationMaster waits for a node whose data live maps need less", ""));
    return false;
  }

  private void fault(String method) {
    faults.at(FaultInjector.ALLOCATOR + method, app);
  }

  /** Reports an error in Dataloc's part; a failure to report is logged, never thrown (but a VM error). */
  private void fail(CapacityPlans p, String method, Throwable t) {
    if (p == null) {
      if (t instanceof VirtualMachineError) {
        throw (VirtualMachineError) t;
      }
      LOG.warn("Dataloc placement component: error in {} for {} (stock answer given)", method, app, t);
      return;
    }
    p.failed("the placement component's " + method, t, app);
  }

  /** A key Dataloc answers for: the job's map key (it follows the plan) or its AM key (it sites the AM). */
  private static final class Attached {
    final CapacityPlans plans;
    final CapacityPlans.Role role;

    Attached(CapacityPlans plans, CapacityPlans.Role role) {
      this.plans = plans;
      this.role = role;
    }
  }
}
