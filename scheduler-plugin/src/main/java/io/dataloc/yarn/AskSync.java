package io.dataloc.yarn;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.server.scheduler.SchedulerRequestKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the engine true to what applications ask: YARN owns the asks; at each heartbeat the
 * applications whose asks changed are reconciled — a job asking for no maps is parked, and the
 * delta {@link io.dataloc.core.am.AskReconciler} computes from its map asks and its pending tasks is applied. On the
 * AM's side ({@link #received}, an AM handler thread, no monitor): asks that forbid relaxing
 * locality are noted, and stale map counts corrected.
 */
final class AskSync {
  private static final Logger LOG = LoggerFactory.getLogger(LocalityScheduler.class);

  private final SchedulerContext ctx;
  private final Containers containers;
  private final OtherWork otherWork;
  private final JobAsks jobAsks;
  /** Applications that sent a map ask with relaxLocality false (written by allocate, read under the lock). */
  private final Set<ApplicationId> strictAsks = ConcurrentHashMap.newKeySet();

  AskSync(SchedulerContext ctx, JobAsks jobAsks, Containers containers, OtherWork otherWork) {
    this.ctx = ctx;
    this.jobAsks = jobAsks;
    this.containers = containers;
    this.otherWork = otherWork;
  }

  /** New asks of an attempt, before YARN records them (under the attempt's monitor, not the scheduler's). */
  void received(DatalocAppAttempt attempt, List<ResourceRequest> asks) {
    if (forbidsRelaxing(asks, ctx.settings().mapPriority())) {
      strictAsks.add(attempt.getApplicationId());
    }
    correctStaleMapAsks(asks, attempt);
  }

  /** The application ended (idempotent). */
  void forget(ApplicationId id) {
    strictAsks.remove(id);
  }

  /**
   * Whether a map ask restricts locality: a rack-level or {@code *} ask for some containers with
   * relaxLocality false (a node-level one restricts nothing: YARN reads the flag of the level
   * relaxed to).
   */
  static boolean forbidsRelaxing(java.util.Collection<ResourceRequest> asks, int mapPriority) {
    for (ResourceRequest r : asks) {
      if (!r.getRelaxLocality() && r.getNumContainers() > 0 && r.getPriority() != null
          && r.getPriority().getPriority() == mapPriority && !isNodeLevel(r.getResourceName())) {
        return true;
      }
    }
    return false;
  }

  /** Node-level asks name a host; rack-level ones a path (/rack); {@code *} is neither. */
  private static boolean isNodeLevel(String resourceName) {
    return !ResourceRequest.isAnyLocation(resourceName) && !resourceName.startsWith("/");
  }

  /**
   * The AM computed these absolute asks before seeing the containers we handed out since its last
   * pull: take those out of its map ANY count, or it would be over-served (and release the extra).
   */
  private void correctStaleMapAsks(List<ResourceRequest> asks, DatalocAppAttempt attempt) {
    int mapPriority = ctx.settings().mapPriority();
    for (ResourceRequest r : asks) {
      if (r.getPriority().getPriority() == mapPriority && ResourceRequest.isAnyLocation(r.getResourceName())) {
        int unpulled = attempt.unpulled(SchedulerRequestKey.create(r));
        if (unpulled > 0) {
          r.setNumContainers(Math.max(0, r.getNumContainers() - unpulled));
        }
      }
    }
  }

  /** Applications reconciled per heartbeat at most; the rest wait for the next one, oldest first. */
  static final int RECONCILE_PER_HEARTBEAT = 256;

  /**
   * Reconciles the applications whose asks changed, oldest change first, at most
   * {@value #RECONCILE_PER_HEARTBEAT} per heartbeat: how long the lock is held here does not grow
   * with how many applications changed their asks at once.
   */
  void reconcileChanged() {
    for (ApplicationId id : ctx.apps().takeDirty(RECONCILE_PER_HEARTBEAT)) {
      DatalocApp a = ctx.apps().get(id);
      DatalocAppAttempt attempt = ctx.currentAttempt(id);
      if (attempt != null) {
        otherWork.add(id); // its asks changed: it may want something the engine does not serve
      }
      if (a == null) {
        strictAsks.remove(id); // an ask that came in as the application ended
      } else if (!a.strict && strictAsks.contains(id)) {
        a.strict = true;
        ctx.apps().goOnline(a, "its map asks forbid relaxing locality (relaxLocality false): served from them, "
            + "not planned");
        ctx.apps().clean(id);
        ctx.metrics().appsStrictLocality.incr();
        LOG.info("Dataloc: {} asks for maps with relaxLocality false; it is served from its asks as the stock "
            + "schedulers would serve it, not planned", id);
      }
      if (a != null && !a.servedFromAsks() && attempt != null) {
        ctx.working(id);
        ctx.faults().at(FaultInjector.RECONCILE, id);
        reconcile(a, attempt, containers.mapKey(attempt));
        ctx.working(null);
      }
    }
  }

  /** The engine kept true to the attempt's map asks ({@link JobAsks#reconcile}). */
  void reconcile(DatalocApp a, DatalocAppAttempt attempt, SchedulerRequestKey key) {
    int wanted = attempt == null ? 0 : containers.mapsWanted(attempt, key);
    jobAsks.reconcile(a, key != null, wanted, attempt == null || attempt.isStopped(), () -> demand(attempt, key));
  }

  /**
   * The maps the attempt asks for on each host the engine knows (its node-level map asks, counts
   * above zero). The AM's asks may name any number of hosts (YARN keeps every name it was ever
   * asked for): the walk is over the shorter of its asks and the engine's hosts, and only known
   * hosts are copied, so a top-up costs at most the cluster's size here.
   */
  private Map<String, Integer> demand(DatalocAppAttempt attempt, SchedulerRequestKey key) {
    Map<String, Integer> demand = new HashMap<>();
    var allocator = attempt.getAppSchedulingInfo().getAppPlacementAllocator(key);
    if (allocator == null) {
      return demand;
    }
    Map<String, ResourceRequest> asks = allocator.getResourceRequests();
    var state = ctx.engine().state();
    if (asks.size() <= state.hostCount()) {
      asks.forEach((name, r) -> {
        if (r.getNumContainers() > 0 && state.hostIndex(name) >= 0) {
          demand.put(name, r.getNumContainers());
        }
      });
    } else {
      for (int h = 0; h < state.hostCount(); h++) {
        ResourceRequest r = asks.get(state.hostName(h));
        if (r != null && r.getNumContainers() > 0) {
          demand.put(state.hostName(h), r.getNumContainers());
        }
      }
    }
    return demand;
  }

}
