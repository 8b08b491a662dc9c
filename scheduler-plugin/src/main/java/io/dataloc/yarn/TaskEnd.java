package io.dataloc.yarn;

import io.dataloc.core.engine.DecisionEngine;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerEventType;

/**
 * What a map container's end means for its engine task, for both front ends: released or expired
 * before it ran, the AM never ran the task in it, so the task is pending again (and its AM replay
 * counts it pending); otherwise done or failed — a failed map is retried by the AM under another
 * priority, and either way the slot is free. Under the plan lock.
 */
final class TaskEnd {
  private TaskEnd() {}

  static void apply(DecisionEngine engine, DatalocApp a, int task, boolean launched, RMContainerEventType event) {
    if (!launched && (event == RMContainerEventType.RELEASED || event == RMContainerEventType.EXPIRE)) {
      engine.taskFailed(task);
      if (a != null && a.am != null) {
        a.am.markPending(engine.state().indexInJob(task));
      }
    } else {
      engine.taskFinished(task);
    }
  }
}
