package io.dataloc.yarn;

import io.dataloc.core.am.AmSiting;
import io.dataloc.core.am.WaitLog;
import io.dataloc.core.engine.EngineState;
import java.util.function.Supplier;

/**
 * Carries out {@link AmSiting} for AM containers, in both front ends: the offered host's demand
 * from the engine, the least demand among the hosts of an {@link AmRoom} view (computed once per
 * view), and each AM's wait on its {@link DatalocApp}. Under the front end's lock (the standalone
 * scheduler's monitor, or the plan lock inside the CapacityScheduler); the view is taken before it.
 */
final class AmSites {
  private final SchedulerContext ctx;
  private AmRoom.View leastOf;
  private int least;

  AmSites(SchedulerContext ctx) {
    this.ctx = ctx;
  }

  /**
   * Whether the application's AM takes room on {@code host} now, where {@code room} says which
   * hosts have room for it (asked only when the host's data is in demand); a decline starts or
   * continues its wait. True for an application Dataloc does not know, a host the engine does not
   * know, or with siting off.
   */
  boolean take(DatalocApp a, String host, Supplier<AmRoom.View> room) {
    long maxWait = ctx.settings().amPlacementWaitMs();
    if (maxWait <= 0 || a == null) {
      return true;
    }
    EngineState s = ctx.engine().state();
    int h = s.hostIndex(host);
    if (h < 0) {
      return true;
    }
    int here = s.demand(h);
    long now = ctx.nowMillis();
    long declinedFor = a.amDeclinedAt == null ? -1 : now - a.amDeclinedAt;
    if (AmSiting.decide(here, here == 0 ? 0 : least(s, room.get()), declinedFor, maxWait) == AmSiting.Verdict.TAKE) {
      if (a.amDeclinedAt != null) {
        a.waits.served(now);
      }
      a.amDeclinedAt = null;
      return true;
    }
    if (a.amDeclinedAt == null) {
      a.amDeclinedAt = now;
    }
    a.waits.refused(now, host, WaitLog.Cause.AM_SITING, -1, null);
    ctx.metrics().amDeclined.incr();
    return false;
  }

  /** The least demand among the view's live engine hosts; MAX_VALUE if none. Computed once per view. */
  private int least(EngineState s, AmRoom.View room) {
    if (room == leastOf) {
      return least;
    }
    int min = Integer.MAX_VALUE;
    for (String name : room.hosts) {
      int h = s.hostIndex(name);
      if (h >= 0 && s.alive(h)) {
        min = Math.min(min, s.demand(h));
      }
    }
    leastOf = room;
    least = min;
    return min;
  }
}
