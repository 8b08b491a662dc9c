package io.dataloc.yarn;

import io.dataloc.core.am.WaitLog;
import io.dataloc.core.jobs.EqualShare;
import io.dataloc.core.jobs.LastPhaseCap;
import io.dataloc.core.model.Units;
import java.util.Comparator;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.NodeType;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerAppUtils;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplication;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerNode;
import org.apache.hadoop.yarn.server.scheduler.SchedulerRequestKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The walk over requests the engine does not serve — AM containers (within the AM limit, in the
 * order of {@link AmAdmissions}, on a node whose data the live maps need least: {@link AmSites}), reduces,
 * retried maps, other priorities, and the maps of applications out of the engine or still waiting
 * for their plan — as the FIFO scheduler serves them: higher application priority first, then in
 * submission order; per application, priorities in order; node-local, then rack-local, then
 * off-switch, never beyond what the asks allow, and (as the CapacityScheduler) at most one
 * off-switch container per node heartbeat among those that are not maps (AMs and reduces).
 *
 * <p>Only applications that may have such requests are walked, so a heartbeat's cost does not grow
 * with applications that wait for nothing (AMs with every container they asked for, jobs whose
 * only asks are the engine's maps). One found to have none leaves the walk; a change of its asks,
 * its leaving the engine, and a sweep every second put it back. A job the engine serves that asks
 * for maps waits out the first pass (its other requests come after its maps): found so, it moves
 * to a second set that only the pass after the engine's maps walks, so the first pass, made for
 * every container, does not visit every job in its map phase; a change of its asks or its leaving
 * the engine puts it back (the sweep does not: the second pass walks it meanwhile). A job past its
 * map phase, of the lowest priority running, that holds more than an equal share of the cluster
 * among the jobs of that priority, or anything while a job of a higher priority asks for maps
 * ({@link EqualShare}; only where the job ordering {@link
 * io.dataloc.core.jobs.JobOrdering#sharesLastPhase shares the last phase}, not under fifo) is
 * found so in the first pass, when it has a container to take, and moves to the same set, so a
 * job that arrives while a large job's reduces are asked for gets a freed slot first; a change of
 * its asks puts it back, to be weighed again. A job that has run maps (or a MapReduce job
 * recovered after a restart), of that priority, that holds more than {@code reduce.max-share} of
 * the cluster while other applications are in the scheduler takes nothing for its requests at
 * {@code reduce-priority}, in either pass ({@link LastPhaseCap}); the counts both rules weigh are
 * taken again after an application arrives or leaves or a priority changes ({@link
 * #applicationsChanged}).
 * Under the scheduler's monitor; an application is taken out before its priority changes and put
 * back after.
 */
final class OtherWork {
  private static final Logger LOG = LoggerFactory.getLogger(LocalityScheduler.class);

  /** What {@link #serve} did for one application on one node. */
  private enum Served { CONTAINER, NOT_HERE, NO_WORK, AFTER_MAPS }

  private final SchedulerContext ctx;
  private final ClusterRoom room;
  private final Containers containers;
  private final AmSites sites;
  private final AmRoom amRoom;
  private final AmAdmissions admissions;
  private final ApplicationShares shares;
  private final Supplier<Map<ApplicationId, SchedulerApplication<DatalocAppAttempt>>> applications;
  private final TreeSet<ApplicationId> walk;
  /**
   * Jobs walked only after the engine's maps (same order as {@code walk}): those in their map
   * phase, and those past it that yield their precedence ({@link EqualShare}).
   */
  private final TreeSet<ApplicationId> mapPhase;
  private long lastSweep = Long.MIN_VALUE;
  /**
   * Off-switch containers other than maps (AMs and reduces, most of all) that this node heartbeat
   * has placed. One per heartbeat, as the CapacityScheduler's
   * {@code per-node-heartbeat.maximum-offswitch-assignments} defaults to: a job's reduces spread
   * over nodes instead of filling the first that heartbeats, where they would all fetch their
   * shuffle through one NIC, and hold every slot its planned maps wait for; and AMs submitted
   * together spread over the nodes instead of taking the first node's slots, which may be the
   * ones their own data's maps need.
   */
  private int offSwitchThisHeartbeat;
  static final int MAX_OFF_SWITCH_PER_HEARTBEAT = 1;

  OtherWork(SchedulerContext ctx, ClusterRoom room, Containers containers, AmRoom amRoom,
      Supplier<Map<ApplicationId, SchedulerApplication<DatalocAppAttempt>>> applications) {
    this.sites = new AmSites(ctx);
    this.amRoom = amRoom;
    this.admissions = new AmAdmissions(ctx, room, applications);
    this.shares = new ApplicationShares(ctx, room, containers, applications);
    this.ctx = ctx;
    this.room = room;
    this.containers = containers;
    this.applications = applications;
    // Higher priority first, compared without negation (no priority overflows the order), then
    // submission order.
    this.walk = new TreeSet<>(Comparator.comparingInt((ApplicationId id) -> ctx.applicationPriority(id))
        .reversed().thenComparing(Comparator.naturalOrder()));
    this.mapPhase = new TreeSet<>(walk.comparator());
  }

  /** A node heartbeat begins: its count of off-switch other work starts again. */
  void beginHeartbeat() {
    offSwitchThisHeartbeat = 0;
  }

  /** The application may have requests the engine does not serve. */
  void add(ApplicationId id) {
    mapPhase.remove(id);
    walk.add(id);
  }

  /**
   * An application arrived or left, or its priority changed: the share rules count the applications
   * and their priorities again at their next need.
   */
  void applicationsChanged() {
    shares.stale();
  }

  /** Takes the application out of the walk; whether it was in (put it back after a priority change). */
  boolean remove(ApplicationId id) {
    return walk.remove(id) | mapPhase.remove(id);
  }

  /**
   * Puts every application back in the walk once a second (but those in their map phase, which the
   * second pass walks): no missed change starves one.
   */
  void sweep() {
    long now = ctx.nowMillis();
    if (lastSweep != Long.MIN_VALUE && now - lastSweep < 1000) {
      return;
    }
    lastSweep = now;
    // Jobs in their map phase stay where they are: the pass after the engine's maps walks them
    // anyway, and a change of their asks puts them back. Putting them back here made the first
    // pass after each sweep visit every one of them.
    for (ApplicationId id : applications.get().keySet()) {
      if (!mapPhase.contains(id)) {
        walk.add(id);
      }
    }
  }

  /**
   * Serves one container on the node; false if no application walked has work it can run there.
   * With {@code exceptMaps} false (while degraded) every request counts, maps included, and every
   * application is walked. With {@code first}, only AM containers and the requests of
   * applications that ask for no maps now.
   */
  boolean assign(FiCaSchedulerNode node, boolean exceptMaps, boolean first) {
    if (!exceptMaps) {
      for (SchedulerApplication<DatalocAppAttempt> app : applications.get().values()) {
        if (serve(app.getCurrentAppAttempt(), node, false, first) == Served.CONTAINER) {
          return true;
        }
      }
      return false;
    }
    if (first) {
      for (Iterator<ApplicationId> it = walk.iterator(); it.hasNext();) {
        ApplicationId id = it.next();
        Served s = serve(ctx.currentAttempt(id), node, true, true);
        if (s == Served.CONTAINER) {
          return true;
        }
        if (s == Served.NO_WORK) {
          it.remove();
        } else if (s == Served.AFTER_MAPS) {
          it.remove();
          mapPhase.add(id);
        }
      }
      return false;
    }
    // After the engine's maps: both sets, merged in the walk's order.
    Iterator<ApplicationId> a = walk.iterator();
    Iterator<ApplicationId> b = mapPhase.iterator();
    ApplicationId x = a.hasNext() ? a.next() : null;
    ApplicationId y = b.hasNext() ? b.next() : null;
    while (x != null || y != null) {
      boolean fromWalk = y == null || x != null && walk.comparator().compare(x, y) <= 0;
      Served s = serve(ctx.currentAttempt(fromWalk ? x : y), node, true, false);
      if (s == Served.CONTAINER) {
        return true;
      }
      Iterator<ApplicationId> it = fromWalk ? a : b;
      if (s == Served.NO_WORK) {
        it.remove();
      }
      if (fromWalk) {
        x = a.hasNext() ? a.next() : null;
      } else {
        y = b.hasNext() ? b.next() : null;
      }
    }
    return false;
  }

  /** Whether a container that is not a map may not go at this level: the heartbeat's off-switch one is spent. */
  private boolean offSwitchSpent(NodeType type) {
    return type == NodeType.OFF_SWITCH && offSwitchThisHeartbeat >= MAX_OFF_SWITCH_PER_HEARTBEAT;
  }

  /** A container that is not a map (an AM, a reduce) was placed at this level. */
  private void placedOther(NodeType type) {
    ctx.metrics().otherContainers.incr();
    if (type == NodeType.OFF_SWITCH) {
      offSwitchThisHeartbeat++;
    }
  }

  private Served serve(DatalocAppAttempt attempt, FiCaSchedulerNode node, boolean exceptMaps, boolean first) {
    if (attempt == null || attempt.isStopped()) {
      return Served.NO_WORK;
    }
    DatalocApp a = ctx.apps().get(attempt.getApplicationId());
    if (a != null && a.killed) {
      return Served.NO_WORK;
    }
    if (Containers.isAmRequest(attempt)) {
      return serveAm(attempt, a, node, exceptMaps);
    }
    if (SchedulerAppUtils.isPlaceBlacklisted(attempt, node, LOG)) {
      return Served.NOT_HERE;
    }
    // The maps of an application out of the engine (after an error, or with strict locality) are
    // served here, from its asks, like everything else of it.
    // So are the maps of a job whose placement is being read and planned: they start at once, and
    // the plan takes over from what they ran (PlacementPipeline's replay of early maps).
    boolean inEngine = a != null && !a.servedFromAsks() && !a.waiting();
    // A job the engine plans (or will once its plan comes) waits in the first pass while it asks
    // for maps: its maps, early ones included, come after every AM, and its reduces after its maps.
    if (first && exceptMaps && (inEngine || a != null && a.waiting())
        && containers.asksForMaps(attempt)) {
      return Served.AFTER_MAPS;
    }
    boolean work = false;
    for (SchedulerRequestKey key : attempt.getSchedulerKeys()) {
      boolean map = containers.isMapKey(key);
      if (exceptMaps && map && inEngine) {
        continue;
      }
      if (attempt.getOutstandingAsksCount(key, ResourceRequest.ANY) <= 0) {
        continue;
      }
      work = true;
      NodeType type = attempt.levelFor(key, node);
      if (type == null) {
        continue;
      }
      if (!map && offSwitchSpent(type)) {
        continue;
      }
      boolean lastPhase = !map && a != null && key.getPriority().getPriority() == ctx.settings().reducePriority()
          && a.ranMaps();
      if (lastPhase && fitsHere(attempt, key, node) && capped(attempt)) {
        ctx.metrics().reducesCapped.incr();
        if (!containers.asksForMaps(attempt)) {
          // Its wait report says why its reduces wait; while it asks for maps, it says why they do.
          a.waits.refused(ctx.nowMillis(), node.getNodeName(), WaitLog.Cause.LAST_PHASE_CAPPED, -1, null);
        }
        continue; // it holds more than reduce.max-share while others run: the rest stays for them
      }
      if (!map && first && exceptMaps && yieldsPrecedence(attempt)) {
        return Served.AFTER_MAPS; // its last phase comes after the maps (EqualShare)
      }
      boolean early = a != null && a.waiting() && map;
      if (early && type != NodeType.NODE_LOCAL) {
        continue; // before its plan, a job's maps start only where their data is; the plan places the rest
      }
      ctx.working(attempt.getApplicationId());
      ctx.faults().at(FaultInjector.ASSIGN_OTHER, attempt.getApplicationId());
      RMContainer c = containers.allocate(attempt, key, node, type);
      if (c != null) {
        if (map) {
          containers.countMap(type, a, node.getNodeName());
          if (early) {
            a.early(c.getContainerId(), node.getNodeName(), node.getRackName(),
                ctx.settings().bounds().onlineMaxPending());
            ctx.metrics().mapsBeforePlan.incr();
          }
        } else {
          placedOther(type);
          if (lastPhase && !containers.asksForMaps(attempt)) {
            a.waits.served(ctx.nowMillis()); // a reduce's wait ends; a map's wait ends only with a map
          }
        }
        return Served.CONTAINER;
      }
    }
    return work ? Served.NOT_HERE : Served.NO_WORK;
  }

  /**
   * Whether the request's container fits the node now: the cap is counted and reported only where
   * it is what keeps a reduce off the node (where it does not fit, the node refuses it anyway).
   */
  private boolean fitsHere(DatalocAppAttempt attempt, SchedulerRequestKey key, FiCaSchedulerNode node) {
    return room.sizes().fits(node, attempt.getPendingAsk(key, ResourceRequest.ANY).getPerAllocationResource());
  }

  /**
   * Whether the application yields its precedence ({@link EqualShare#yields}; memory, against the
   * served cluster's), where the job ordering shares the last phase ({@link
   * io.dataloc.core.jobs.JobOrdering#sharesLastPhase}).
   */
  private boolean yieldsPrecedence(DatalocAppAttempt attempt) {
    if (!ctx.engine().state().ordering().sharesLastPhase()) {
      return false;
    }
    shares.refresh();
    return EqualShare.yields(attempt.getCurrentConsumption().getMemorySize(), shares.servedMemory(),
        ctx.applicationPriority(attempt.getApplicationId()), shares.lowestPriority(), shares.atLowest(),
        shares.highestAskingMaps() > shares.lowestPriority());
  }

  /**
   * Whether the application takes no container for its last phase ({@link LastPhaseCap#capped};
   * memory, its AM container aside, against the served cluster's, {@code reduce.max-share}). Asked
   * only of a job that has run maps, for its requests at {@code reduce-priority}: the requests of an
   * application that never runs maps (Spark's executors) are its work, not a last phase, and a
   * MapReduce job's retried maps (at priority 5) are never held back.
   */
  private boolean capped(DatalocAppAttempt attempt) {
    long permille = ctx.settings().reduceMaxSharePermille();
    if (permille >= Units.SCALE) {
      return false;
    }
    shares.refresh();
    long held = Math.max(0, attempt.getCurrentConsumption().getMemorySize()
        - room.amMemory(attempt.getApplicationAttemptId()));
    return LastPhaseCap.capped(held, Math.max(0, shares.servedMemory()), permille,
        ctx.applicationPriority(attempt.getApplicationId()), shares.lowestPriority(), shares.running());
  }

  /**
   * An AM container: within the AM limit, where {@link AmAsks} says the node can take it; outside
   * a degraded walk, also in the order of {@link AmAdmissions} and where {@link AmSites} agrees.
   */
  private Served serveAm(DatalocAppAttempt attempt, DatalocApp a, FiCaSchedulerNode node, boolean exceptMaps) {
    SchedulerRequestKey key = AmAsks.key(attempt);
    if (key == null) {
      return Served.NO_WORK;
    }
    AmAsks.Fit fit = AmAsks.fit(attempt, key, node, room);
    if (fit == AmAsks.Fit.OVER_LIMIT) {
      ctx.metrics().amLimited.incr();
    }
    if (fit != AmAsks.Fit.TAKES) {
      return Served.NOT_HERE;
    }
    if (exceptMaps && !admissions.mayAdmit(attempt.getApplicationId(), node)) {
      return Served.NOT_HERE; // another AM goes first (AmAdmission), and it can take this node
    }
    NodeType type = attempt.levelFor(key, node);
    if (offSwitchSpent(type)) {
      return Served.NOT_HERE; // the node has had its off-switch container this heartbeat
    }
    Resource am = AmAsks.size(attempt, key);
    if (exceptMaps && !sites.take(a, node.getNodeName(), () -> amRoom.view(am, ctx.nowMillis()))) {
      return Served.NOT_HERE; // a less demanded node has room for it: this node's slots stay for its data's maps
    }
    ctx.working(attempt.getApplicationId());
    ctx.faults().at(FaultInjector.ASSIGN_OTHER, attempt.getApplicationId());
    RMContainer c = containers.allocate(attempt, key, node, type);
    if (c == null) {
      return Served.NOT_HERE;
    }
    placedOther(type);
    admissions.admitted(attempt.getApplicationId());
    return Served.CONTAINER;
  }
}
