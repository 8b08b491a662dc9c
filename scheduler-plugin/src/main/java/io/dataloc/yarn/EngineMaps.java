package io.dataloc.yarn;

import io.dataloc.core.am.PlanGuard;
import io.dataloc.core.engine.Decision;
import io.dataloc.core.engine.DecisionEngine;
import io.dataloc.core.engine.Rehoming;
import java.util.HashSet;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.NodeType;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerAppUtils;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerNode;
import org.apache.hadoop.yarn.server.scheduler.SchedulerRequestKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves a free container with the engine's maps: asks the engine which task the node should
 * run, checks YARN's facts (the job asks for maps now, the node is not blacklisted, the map fits,
 * the asks allow this node) and the plan's two declines, then allocates the container and tells
 * the engine which task the AM will really run there ({@link io.dataloc.core.am.AmReplay}).
 * Under the scheduler's monitor; each decision the adapter cannot carry out is released by name.
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

  /** Asks the engine what this node should run and carries it out; false if nothing. */
  boolean assign(FiCaSchedulerNode node) {
    DecisionEngine engine = ctx.engine();
    int host = engine.state().hostIndex(node.getNodeName());
    if (host < 0) {
      return false;
    }
    LockHolds holds = ctx.holds();
    Set<Long> excluded = new HashSet<>();
    // Each try excludes the job it found unable to run here, so a job with work for this node is
    // reached within as many tries as there are jobs ahead of it (bounded, for the lock's sake).
    int maxTries = Math.min(MAX_TRIES, engine.activeJobs() + 1);
    for (int tries = 0; tries < maxTries; tries++) {
      ctx.working(null);
      Decision d = engine.onSlotFree(host, excluded);
      holds.mark("map: engine decides");
      if (d == null) {
        return false;
      }
      DatalocApp a = ctx.apps().byJob(d.jobId());
      ctx.working(a == null ? null : a.id);
      DatalocAppAttempt attempt = a == null ? null : ctx.currentAttempt(a.id);
      SchedulerRequestKey key = attempt == null ? null : containers.mapKey(attempt);
      if (key == null || attempt.isStopped() || containers.mapsWanted(attempt, key) <= 0
          || a.phase() == DatalocApp.Phase.PLANNING) {
        // The application does not ask for maps right now (not yet, or all asked for are
        // allocated): its plan stays as it is and it sits out this heartbeat.
        engine.unpick(d);
        excluded.add(d.jobId());
        if (a != null) {
          asks.reconcile(a, attempt, key);
        }
        holds.mark("map: job not asking");
        continue;
      }
      if (SchedulerAppUtils.isPlaceBlacklisted(attempt, node, LOG)) {
        engine.taskRefused(d.task(), host);
        asks.reconcile(a, attempt, key);
        continue;
      }
      if (!room.fits(node, attempt.getPendingAsk(key, ResourceRequest.ANY).getPerAllocationResource())) {
        // This job's maps are larger than what the node has left (the engine counts slots of the
        // minimum allocation): the task stays where the plan put it, and the node may still serve
        // another job's smaller maps.
        engine.unpick(d);
        excluded.add(d.jobId());
        continue;
      }
      ctx.faults().at(FaultInjector.ASSIGN_MAP, a.id);
      // The plan's declines wait for a better node; a job the starvation guard serves has waited enough.
      if (a.am != null && !d.starving() && declineNonLocal(engine, a, node, d)) {
        holds.mark("map: decline non-local");
        excluded.add(a.jobId);
        continue;
      }
      holds.mark("map: decline non-local");
      // What the AM will run here instead, if the plan meant another task: proposed, not yet done.
      int amLocal = a.am == null ? -1 : a.am.peekLocal(node.getNodeName());
      Rehoming proposal = amLocal < 0 ? null : engine.proposeReplacement(d, engine.task(a.jobId, amLocal));
      if (proposal != null && !d.starving() && declinePlanBreaking(engine, a, node, d, proposal)) {
        holds.mark("map: decline plan-breaking");
        excluded.add(a.jobId);
        continue;
      }
      holds.mark("map: decline plan-breaking"); // with the chain search of the proposal
      NodeType type = attempt.levelFor(key, node);
      if (type == null) {
        // The asks do not allow this node (they may have changed since the plan): the task goes
        // elsewhere and the job sits out this heartbeat here.
        engine.taskRefused(d.task(), host);
        excluded.add(d.jobId());
        asks.reconcile(a, attempt, key);
        continue;
      }
      RMContainer c = containers.allocate(attempt, key, node, type);
      holds.mark("map: container");
      if (c == null) {
        engine.unpick(d);
        return false;
      }
      if (a.guard != null) {
        a.guard.taken(node.getNodeName());
      }
      if (a.am != null) {
        int amTask = a.am.take(node.getNodeName(), node.getRackName());
        d = engine.replaceStarted(d, engine.task(a.jobId, amTask), proposal);
        holds.mark("map: AM replay");
      }
      ctx.apps().tie(c.getContainerId(), d.task());
      containers.countMap(type, a, node.getNodeName());
      if (a.phase() == DatalocApp.Phase.ONLINE) {
        ctx.apps().markDirty(a.id); // its pending tasks may need topping up (online.max-pending-per-job)
      }
      a.lastReason = d.reason();
      return true;
    }
    return false;
  }

  /**
   * The plan's non-local decline ({@link PlanGuard#nonLocal}): the decision is taken back and the
   * job's tasks queued for this node go to nodes that can run them locally.
   */
  private boolean declineNonLocal(DecisionEngine engine, DatalocApp a, FiCaSchedulerNode node, Decision d) {
    PlanGuard.Verdict v = a.guard.nonLocal(node.getNodeName(), a.am.peekKind(node.getNodeName(), node.getRackName()),
        () -> a.am.localElsewhere(node.getNodeName(), h -> engine.state().hostIndex(h) >= 0
            && engine.state().alive(engine.state().hostIndex(h))));
    if (!v.declines()) {
      return false;
    }
    declined(engine, d);
    if (engine.releaseQueued(a.jobId, engine.state().hostIndex(node.getNodeName())) > 0) {
      ctx.metrics().replans.incr();
    }
    return true;
  }

  /**
   * The plan-shape decline ({@link PlanGuard#planShape}): the AM will run here the first pending
   * task of this host's list; if the plan meant another task and the engine's proposal finds no
   * local chain to re-home it, this host's share of the job if it takes the container is its maps
   * run or running, the container, and its queued tasks (the decided one back among them).
   */
  private boolean declinePlanBreaking(DecisionEngine engine, DatalocApp a, FiCaSchedulerNode node, Decision d,
      Rehoming proposal) {
    String host = node.getNodeName();
    PlanGuard.Verdict v = a.guard.planShape(host, proposal.keepsLocality(),
        () -> a.mapsOn.getOrDefault(host, 0) + 1 + engine.queuedOn(a.jobId, d.host()) + 1,
        engine.state().slots(d.host()));
    if (!v.declines()) {
      return false;
    }
    declined(engine, d);
    return true;
  }

  /** A decline: the decision is released for this heartbeat; the node asks again on its next. */
  private void declined(DecisionEngine engine, Decision d) {
    engine.unpick(d);
    ctx.metrics().declines.incr();
  }
}
