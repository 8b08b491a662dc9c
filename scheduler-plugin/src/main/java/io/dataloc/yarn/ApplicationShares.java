package io.dataloc.yarn;

import java.util.Map;
import java.util.function.Supplier;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplication;

/**
 * What the share rules weigh a job against ({@link io.dataloc.core.jobs.EqualShare}, {@link
 * io.dataloc.core.jobs.LastPhaseCap}): how many applications run, the lowest application priority
 * among them and how many run at it, the highest priority of those asking for maps, and the served
 * cluster's memory. Counted at the first need in a second, and again after an application arrives
 * or leaves or a priority changes ({@link #stale}): a walk over every application (and its request
 * keys), at most once a second between such changes. Under the scheduler's monitor.
 */
final class ApplicationShares {
  private final SchedulerContext ctx;
  private final ClusterRoom room;
  private final Containers containers;
  private final Supplier<Map<ApplicationId, SchedulerApplication<DatalocAppAttempt>>> applications;
  private long countedAt = Long.MIN_VALUE;
  private int running;
  private int lowestPriority;
  private int atLowest;
  private int highestAskingMaps;
  private long servedMemory;

  ApplicationShares(SchedulerContext ctx, ClusterRoom room, Containers containers,
      Supplier<Map<ApplicationId, SchedulerApplication<DatalocAppAttempt>>> applications) {
    this.ctx = ctx;
    this.room = room;
    this.containers = containers;
    this.applications = applications;
  }

  /** Counts again at the next {@link #refresh} (an application arrived or left, or its priority changed). */
  void stale() {
    countedAt = Long.MIN_VALUE;
  }

  /** Counts again if a second has passed or {@link #stale} was called. */
  void refresh() {
    long now = ctx.nowMillis();
    if (countedAt != Long.MIN_VALUE && now - countedAt < 1000) {
      return;
    }
    countedAt = now;
    running = applications.get().size();
    lowestPriority = Integer.MAX_VALUE;
    atLowest = 0;
    highestAskingMaps = Integer.MIN_VALUE;
    for (Map.Entry<ApplicationId, SchedulerApplication<DatalocAppAttempt>> e : applications.get().entrySet()) {
      ApplicationId id = e.getKey();
      int p = ctx.applicationPriority(id);
      DatalocAppAttempt attempt = e.getValue().getCurrentAppAttempt();
      if (p > highestAskingMaps && attempt != null && containers.asksForMaps(attempt)) {
        highestAskingMaps = p;
      }
      if (p < lowestPriority) {
        lowestPriority = p;
        atLowest = 1;
      } else if (p == lowestPriority) {
        atLowest++;
      }
    }
    servedMemory = room.served().getMemorySize();
  }

  /** The applications in the scheduler, AMs waiting included. */
  int running() {
    return running;
  }

  int lowestPriority() {
    return lowestPriority;
  }

  /** The highest priority of the applications that ask for maps ({@link Integer#MIN_VALUE}: none). */
  int highestAskingMaps() {
    return highestAskingMaps;
  }

  /** The applications of the lowest priority. */
  int atLowest() {
    return atLowest;
  }

  /** The memory of the nodes the scheduler serves (MB). */
  long servedMemory() {
    return servedMemory;
  }
}
