package io.dataloc.core.am;

import io.dataloc.core.engine.DecisionEngine;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Carries an {@link AskReconciler.Delta} out on the engine, for the adapter and the simulator
 * alike: the job's pending tasks all dropped, or its newest ones, or {@code add} tasks built by
 * {@link AskReconciler#tasksFromAsks} from the AM's maps asked for per host and the job's pending
 * tasks' hosts.
 */
public final class AskDeltas {
  private AskDeltas() {}

  /**
   * Pending tasks one call drops at most: the drops, the costly part, are bounded for a job of any
   * size (finding them still walks the job's task list, a few nanoseconds a task).
   */
  public static final int MAX_DROPS = 2048;

  /**
   * Applies the delta; returns whether tasks are left to drop (at most {@value #MAX_DROPS} go per
   * call: the caller applies the job's delta again at its next turn).
   *
   * @param demand the maps the AM asks for on each host (read only when tasks are added; hosts the
   *     engine does not know are ignored)
   */
  public static boolean apply(DecisionEngine engine, long jobId, String user, AskReconciler.Delta delta,
      Supplier<Map<String, Integer>> demand) {
    if (delta.dropAll()) {
      List<Integer> pending = engine.pendingTasks(jobId);
      int n = Math.min(pending.size(), MAX_DROPS);
      for (int i = 0; i < n; i++) {
        engine.dropPending(pending.get(i));
      }
      return pending.size() > n;
    } else if (delta.dropNewest() > 0) {
      List<Integer> pending = engine.pendingTasks(jobId);
      int n = Math.min(Math.min(delta.dropNewest(), pending.size()), MAX_DROPS);
      for (int i = 0; i < n; i++) {
        engine.dropPending(pending.get(pending.size() - 1 - i));
      }
      return n < Math.min(delta.dropNewest(), pending.size());
    } else if (delta.add() > 0) {
      Map<String, Integer> known = new HashMap<>();
      demand.get().forEach((host, n) -> {
        if (n > 0 && engine.state().hostIndex(host) >= 0) {
          known.put(host, n);
        }
      });
      List<Integer> pending = engine.pendingTasks(jobId);
      List<List<String>> pendingHosts = new ArrayList<>(pending.size());
      for (int t : pending) {
        List<String> hosts = new ArrayList<>();
        for (int h : engine.state().replicas(t)) {
          hosts.add(engine.state().hostName(h));
        }
        pendingHosts.add(hosts);
      }
      engine.addTasks(jobId, user, AskReconciler.tasksFromAsks(known, pendingHosts, delta.add()));
    }
    return false;
  }
}
