package io.dataloc.yarn;

import io.dataloc.core.am.AmSiting;
import io.dataloc.core.am.WaitLog;
import io.dataloc.core.engine.EngineState;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ClusterNodeTracker;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerNode;

/**
 * Carries out {@link AmSiting} for AM containers: the host's demand from the engine, the least
 * demand among nodes with room for the AM (a view recomputed at most every {@value #VIEW_MILLIS}
 * ms, so a heartbeat scans the nodes rarely), and each AM's wait on its {@link DatalocApp}. Under
 * the scheduler's monitor.
 */
final class AmSites {
  static final long VIEW_MILLIS = 250;

  private final SchedulerContext ctx;
  private final ClusterRoom room;
  private final ClusterNodeTracker<FiCaSchedulerNode> nodes;
  private long viewAt;
  private Resource viewFor;
  private int viewLeast;

  AmSites(SchedulerContext ctx, ClusterRoom room, ClusterNodeTracker<FiCaSchedulerNode> nodes) {
    this.ctx = ctx;
    this.room = room;
    this.nodes = nodes;
  }

  /** Whether the application's AM takes room on the node now; a decline starts or continues its wait. */
  boolean take(DatalocApp a, FiCaSchedulerNode node, Resource am) {
    long maxWait = ctx.settings().amPlacementWaitMs();
    if (maxWait <= 0 || a == null) {
      return true;
    }
    EngineState s = ctx.engine().state();
    int h = s.hostIndex(node.getNodeName());
    if (h < 0) {
      return true;
    }
    int here = s.demand(h);
    long now = ctx.nowMillis();
    int least = here == 0 ? 0 : least(s, am, now);
    long declinedFor = a.amDeclinedAt == null ? -1 : now - a.amDeclinedAt;
    if (AmSiting.decide(here, least, declinedFor, maxWait) == AmSiting.Verdict.TAKE) {
      if (a.amDeclinedAt != null) {
        a.waits.served(now);
      }
      a.amDeclinedAt = null;
      return true;
    }
    if (a.amDeclinedAt == null) {
      a.amDeclinedAt = now;
    }
    a.waits.refused(now, node.getNodeName(), WaitLog.Cause.AM_SITING, -1, null);
    ctx.metrics().amDeclined.incr();
    return false;
  }

  /** The least demand among schedulable nodes with room for the AM; MAX_VALUE if none has room. */
  private int least(EngineState s, Resource am, long now) {
    if (viewFor != null && viewFor.equals(am) && now - viewAt < VIEW_MILLIS) {
      return viewLeast;
    }
    int least = Integer.MAX_VALUE;
    for (FiCaSchedulerNode n : nodes.getAllNodes()) {
      int h = s.hostIndex(n.getNodeName());
      if (h >= 0 && s.alive(h) && !EngineNodes.decommissioning(n) && !NodeSizes.labelled(n) && room.sizes().fits(n, am)) {
        least = Math.min(least, s.demand(h));
      }
    }
    viewAt = now;
    viewFor = am;
    viewLeast = least;
    return least;
  }
}
