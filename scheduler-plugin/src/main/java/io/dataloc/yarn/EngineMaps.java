package io.dataloc.yarn;

import io.dataloc.core.am.MapService;
import io.dataloc.core.am.PlanGuard;
import io.dataloc.core.am.WaitLog;
import io.dataloc.core.engine.Decision;
import io.dataloc.core.engine.DecisionEngine;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.NodeType;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerAppUtils;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerNode;
import org.apache.hadoop.yarn.server.scheduler.SchedulerRequestKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves a free container with the engine's maps: the core's {@link MapService} runs the loop
 * (the engine decides, the plan's declines, the AM's replay); this class gives it YARN's facts —
 * whether the application asks for maps now, the blacklist, whether the map fits, whether the asks
 * allow this node — allocates the container, and ties it to the task the AM will run in it. Under
 * the scheduler's monitor.
 */
final class EngineMaps {
  private static final Logger LOG = LoggerFactory.getLogger(LocalityScheduler.class);
  /** Bound on the engine decisions one free container may try (each excludes one job). */
  private static final int MAX_TRIES = 256;

  private final SchedulerContext ctx;
  private final ClusterRoom room;
  private final Containers containers;
  private final AskSync asks;

  EngineMaps(SchedulerContext ctx, ClusterRoom room, Containers containers, AskSync asks) {
    this.ctx = ctx;
    this.room = room;
    this.containers = containers;
    this.asks = asks;
  }

  /** Asks the engine what this node should run and carries it out ({@link MapService}); false if nothing. */
  boolean assign(FiCaSchedulerNode node) {
    DecisionEngine engine = ctx.engine();
    int host = engine.state().hostIndex(node.getNodeName());
    if (host < 0) {
      return false;
    }
    Yarn facts = new Yarn(node);
    Decision d = MapService.serve(engine, host, node.getNodeName(), facts, MAX_TRIES);
    if (d == null) {
      return false;
    }
    DatalocApp a = facts.app;
    ctx.apps().tie(facts.container.getContainerId(), d.task());
    containers.countMap(facts.type, a, node.getNodeName());
    if (a.phase() == DatalocApp.Phase.ONLINE) {
      ctx.apps().markDirty(a.id); // its pending tasks may need topping up (online.max-pending-per-job)
    }
    a.lastReason = d.reason();
    return true;
  }

  /** YARN's facts about one decision on one node, for {@link MapService}: the application, its asks, the node. */
  private final class Yarn implements MapService.Facts {
    private final FiCaSchedulerNode node;
    /** The decision's application, attempt and map key (set by {@link #before}). */
    DatalocApp app;
    DatalocAppAttempt attempt;
    SchedulerRequestKey key;
    NodeType type;
    RMContainer container;

    Yarn(FiCaSchedulerNode node) {
      this.node = node;
    }

    @Override
    public MapService.Refusal before(Decision d) {
      app = ctx.apps().byJob(d.jobId());
      ctx.working(app == null ? null : app.id);
      attempt = app == null ? null : ctx.currentAttempt(app.id);
      key = attempt == null ? null : containers.mapKey(attempt);
      if (key == null || attempt.isStopped() || containers.mapsWanted(attempt, key) <= 0
          || app.phase() == DatalocApp.Phase.PLANNING) {
        // Not asking for maps right now (not yet, or all asked for are allocated): its plan stays
        // as it is and it sits out this heartbeat.
        return MapService.Refusal.NOT_ASKING;
      }
      if (SchedulerAppUtils.isPlaceBlacklisted(attempt, node, LOG)) {
        return MapService.Refusal.BLACKLISTED;
      }
      if (!room.sizes().fits(node, attempt.getPendingAsk(key, ResourceRequest.ANY).getPerAllocationResource())) {
        // This job's maps are larger than what the node has left (the engine counts slots of the
        // minimum allocation): the task stays where the plan put it.
        return MapService.Refusal.TOO_LARGE;
      }
      ctx.faults().at(FaultInjector.ASSIGN_MAP, app.id);
      return null;
    }

    @Override
    public MapService.Replayed replayed(long jobId) {
      return app == null || app.am == null ? null : app; // a replayed job has its plan's guard too
    }

    @Override
    public boolean allowed(Decision d) {
      type = attempt.levelFor(key, node); // the asks may have changed since the plan
      return type != null;
    }

    @Override
    public boolean allocate(Decision d) {
      container = containers.allocate(attempt, key, node, type);
      return container != null;
    }

    @Override
    public void released(Decision d, MapService.Refusal r) {
      if (app != null && r != MapService.Refusal.TOO_LARGE) {
        asks.reconcile(app, attempt, key);
      }
      refused(d, WaitLog.Cause.of(r));
    }

    @Override
    public void declined(Decision d, PlanGuard.Verdict v, int moved) {
      refused(d, WaitLog.Cause.of(v));
      ctx.metrics().declines.incr();
      if (moved > 0) {
        ctx.metrics().replans.incr();
      }
    }

    /** The application's wait log: the refusal, with the node its plan queued the task for. */
    private void refused(Decision d, WaitLog.Cause cause) {
      if (app != null) {
        app.waits.refused(ctx.nowMillis(), node.getNodeName(), cause, d.taskIndex(),
            d.queue() < 0 ? null : ctx.engine().state().hostName(d.queue()));
      }
    }

    @Override
    public void mark(String step) {
      ctx.holds().mark(step);
    }
  }
}
