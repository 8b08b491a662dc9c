package io.dataloc.yarn;

import io.dataloc.core.am.MapService;
import io.dataloc.core.engine.Decision;
import io.dataloc.core.engine.DecisionEngine;
import java.util.ArrayDeque;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerEventType;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.NodeType;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;

/**
 * The CapacityScheduler's map containers of planned jobs, as the engine sees them: {@link
 * #allocated} commits the task the AM will run in a container being allocated ({@link
 * MapService#carryOut}); {@link #containerAllocated} ties the container to it once the commit
 * names it; {@link #containerDone} ends the task ({@link TaskEnd}). Each takes only the plan lock
 * and is bounded; errors go to the caller ({@link CapacityPlans#failed}).
 */
public final class CapacityCommits {
  private final DatalocState state;

  CapacityCommits(DatalocState state) {
    this.state = state;
  }

  /**
   * A map container of the job is being allocated on {@code node} (the commit, under the
   * CapacityScheduler's write lock): the engine commits the task the AM will run in it, which
   * waits for the container's id ({@link #containerAllocated}); the job's wait ends.
   */
  public void allocated(ApplicationId id, SchedulerNode node, NodeType type) {
    String host = node.getNodeName();
    String rack = node.getRackName();
    state.locked("cs: allocated", () -> {
      DatalocApp a = state.apps().get(id);
      if (a == null || a.servedFromAsks()) {
        return;
      }
      state.working(id);
      state.faults().at(FaultInjector.COMMIT, id);
      a.declinesSince = 0;
      a.fallingBack = false;
      a.waits.served(state.nowMillis());
      a.count(type, host);
      state.locality().count(type, state.nowMillis());
      int task = -1;
      if (a.waiting()) {
        state.metrics().mapsBeforePlan.incr();
      } else if (a.phase() == DatalocApp.Phase.PLANNED || a.jobCreated) {
        task = commitTask(a, host, rack);
      }
      a.awaitingContainers.computeIfAbsent(host, k -> new ArrayDeque<>()).add(task);
      state.working(null);
    });
  }

  /** The engine task the container on {@code host} runs, committed; -1 if none. Under the lock. */
  private int commitTask(DatalocApp a, String host, String rack) {
    DecisionEngine engine = state.engine();
    int h = engine.state().hostIndex(host);
    if (h < 0 || !engine.state().alive(h)) {
      return -1;
    }
    Decision d = engine.proposeFor(a.jobId, h);
    if (d != null) {
      return MapService.carryOut(engine, a.am == null ? null : a, d, MapService.Admit.TAKE_AS_DECIDED).task();
    }
    if (a.am == null) {
      return -1; // no replay: a queued task of the job goes when the asks say so
    }
    // Off its plan (a fallback container): the task the AM runs here leaves its queue.
    int index = a.am.take(h, engine.state().rackOf(h));
    int task = index < 0 ? -1 : engine.task(a.jobId, index);
    if (task >= 0 && engine.startedOutside(task, h)) {
      return task;
    }
    if (task >= 0) {
      engine.dropPending(task);
    }
    return -1;
  }

  /**
   * The commit named the container allocated on {@code host}: the oldest task awaiting a container
   * there is tied to it (or, for a job waiting for its plan, it is kept as an early map).
   */
  public void containerAllocated(ApplicationId id, ContainerId container, String host, String rack) {
    state.locked("cs: tie", () -> {
      DatalocApp a = state.apps().get(id);
      ArrayDeque<Integer> awaiting = a == null ? null : a.awaitingContainers.get(host);
      if (awaiting == null || awaiting.isEmpty()) {
        return;
      }
      int task = awaiting.poll();
      if (awaiting.isEmpty()) {
        a.awaitingContainers.remove(host);
      }
      if (task >= 0) {
        state.apps().tie(container, task);
      } else if (a.waiting()) {
        a.early(container, host, rack, state.settings().bounds().onlineMaxPending());
      } else if (a.phase() == DatalocApp.Phase.PLANNED && a.am != null) {
        lateEarlyMap(a, container, host);
      }
    });
  }

  /**
   * An early map whose container the commit named only after the job's plan came in (the plan
   * landed between the allocation and the commit's hook): the AM runs in it the task its rule
   * picks, so the replay takes it and the engine starts it there, as for the other early maps.
   */
  private void lateEarlyMap(DatalocApp a, ContainerId container, String host) {
    DecisionEngine engine = state.engine();
    int h = engine.state().hostIndex(host);
    if (h < 0) {
      return;
    }
    int index = a.am.take(h, engine.state().rackOf(h));
    int task = index < 0 ? -1 : engine.task(a.jobId, index);
    if (task >= 0 && engine.startedOutside(task, h)) {
      state.apps().tie(container, task);
    } else if (task >= 0) {
      engine.dropPending(task);
    }
  }

  /** A container ended: its task, if it ran one of the engine's, ends ({@link TaskEnd}). */
  public void containerDone(ApplicationId id, ContainerId container, boolean launched, RMContainerEventType event) {
    state.locked("cs: container done", () -> {
      DatalocApp a = state.apps().get(id);
      Integer task = state.apps().untie(container);
      if (task != null) {
        TaskEnd.apply(state.engine(), a, task, launched, event);
      } else if (a != null && a.waiting()) {
        a.earlyEnded.add(container);
      }
    });
  }
}
