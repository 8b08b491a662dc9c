package io.dataloc.yarn;

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
      a.declines.remove(node.getNodeName());
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
   * For a job whose AM we replay: if the AM would run a non-local task in a container on this
   * node while some of its pending tasks can still run data-local on other live nodes, decline
   * (the decision is taken back, the job's tasks queued for this node go to nodes that can run
   * them locally) — at most {@code delay.node} times in a row per node, then accept, so no job
   * waits for ever.
   */
  private boolean declineNonLocal(DecisionEngine engine, DatalocApp a, FiCaSchedulerNode node, Decision d) {
    int kind = a.am.peekKind(node.getNodeName(), node.getRackName());
    if (kind <= 0) {
      return false;
    }
    if (!a.am.localElsewhere(node.getNodeName(), h -> engine.state().hostIndex(h) >= 0
        && engine.state().alive(engine.state().hostIndex(h))) || !decline(engine, a, node, d)) {
      return false;
    }
    int moved = engine.releaseQueued(a.jobId, engine.state().hostIndex(node.getNodeName()));
    if (moved > 0) {
      ctx.metrics().replans.incr();
    }
    return true;
  }

  /**
   * For a job whose AM we replay: the AM will run, in a container here, the first pending task of
   * this host's list. If that task was planned for another host, the plan is re-matched along a
   * chain of hosts where each queued task stays data-local, ending at that host (every host keeps
   * its count) or at one with less work than this one (the engine's proposal, see
   * {@link DecisionEngine#proposeReplacement}). If no chain exists, taking the container moves
   * one task of the plan from that host to this one; that is accepted when this host then stays
   * within the plan's shape (no more waves than the plan's busiest host, no more tasks at once than
   * the plan puts on any host), and otherwise declined for this heartbeat: the node asks again on
   * its next one, when other hosts have taken their tasks. At most {@code delay.node} declines in a
   * row per node, then accept, so no job waits for ever.
   */
  private boolean declinePlanBreaking(DecisionEngine engine, DatalocApp a, FiCaSchedulerNode node, Decision d,
      Rehoming proposal) {
    if (proposal.keepsLocality()) {
      return false;
    }
    int slots = a.planSlots.getOrDefault(node.getNodeName(), Math.max(1, engine.state().slots(d.host())));
    // This host's share of the job if it takes the container: the maps it ran or runs, the
    // container, and its queued tasks (the decided one back among them).
    int here = a.mapsOn.getOrDefault(node.getNodeName(), 0) + 1 + engine.queuedOn(a.jobId, d.host()) + 1;
    if ((here + slots - 1) / slots <= a.planWaves && Math.min(here, slots) <= a.planConcurrency) {
      return false;
    }
    return decline(engine, a, node, d);
  }

  /**
   * Takes the decision back for this heartbeat unless the node has already declined this job
   * {@code delay.node} times in a row (the count resets when the node gets one of its maps).
   */
  private boolean decline(DecisionEngine engine, DatalocApp a, FiCaSchedulerNode node, Decision d) {
    int declined = a.declines.getOrDefault(node.getNodeName(), 0);
    if (declined >= ctx.settings().nodeDelay()) {
      return false;
    }
    a.declines.put(node.getNodeName(), declined + 1);
    engine.unpick(d);
    ctx.metrics().declines.incr();
    return true;
  }
}
