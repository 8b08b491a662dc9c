package io.dataloc.core.online;

import io.dataloc.core.jobs.JobView;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Fair sharing with greedy locality, and delay scheduling on top of it.
 *
 * <p>{@code fair} — naive fair sharing (Zaharia et al., EuroSys 2010, the baseline Wang et al.
 * beat): a free slot goes to the first job in the engine's order ({@code fair}: fewest running
 * tasks) that has pending work, which runs its task local to the host if it has one, else one in
 * the host's rack, else any.
 *
 * <p>{@code delay} — delay scheduling (same paper; what YARN's Fair and Capacity schedulers do): jobs
 * in order; a job with a task local to the host runs it and resets its skip count; otherwise it
 * may run a rack-local task once it has skipped {@code nodeDelay} opportunities, any task once it
 * has skipped {@code nodeDelay + rackDelay}, and else skips (count + 1) and yields to the next job.
 * If every job skips, the slot stays idle until the next opportunity.
 */
public final class FairSharing implements OnlinePolicy {
  private final boolean delay;
  private final int nodeDelay;
  private final int rackDelay;
  private PolicyState s;
  private final Map<JobView, PendingIndex> perJob = new HashMap<>();
  private final Map<JobView, int[]> skips = new HashMap<>();

  private FairSharing(boolean delay, int nodeDelay, int rackDelay) {
    this.delay = delay;
    this.nodeDelay = nodeDelay;
    this.rackDelay = rackDelay;
  }

  public static FairSharing fair() {
    return new FairSharing(false, 0, 0);
  }

  /** Delay scheduling with the given skip thresholds (each ≥ 0). */
  public static FairSharing delay(int nodeDelay, int rackDelay) {
    if (nodeDelay < 0 || rackDelay < 0) {
      throw new IllegalArgumentException("delay thresholds must be >= 0");
    }
    return new FairSharing(true, nodeDelay, rackDelay);
  }

  @Override
  public String name() {
    return delay ? "delay" : "fair";
  }

  @Override
  public void attach(PolicyState state, ServiceRates rates) {
    this.s = state;
  }

  @Override
  public void route(int task) {
    perJob.computeIfAbsent(s.job(task), j -> new PendingIndex()).add(s, task);
  }

  @Override
  public void removed(int task) {
    PendingIndex idx = perJob.get(s.job(task));
    if (idx != null) {
      idx.left();
      if (idx.pending() == 0) {
        perJob.remove(s.job(task));
        skips.remove(s.job(task));
      }
    }
  }

  @Override
  public Pick pick(int host) {
    return pick(host, Set.of());
  }

  @Override
  public Pick pick(int host, Set<JobView> excluded) {
    if (perJob.isEmpty()) {
      return null;
    }
    for (JobView j : order()) {
      if (excluded.contains(j)) {
        continue;
      }
      PendingIndex idx = perJob.get(j);
      int t = idx.firstOnHost(s, host, excluded);
      if (t >= 0) {
        return new Pick(t, s.level(t, host), "fair share; local task");
      }
      int skipped = delay ? skipsOf(j) : Integer.MAX_VALUE;
      if (skipped >= nodeDelay) {
        t = idx.firstInRack(s, s.rackOf(host), excluded);
        if (t >= 0) {
          return new Pick(t, s.level(t, host), delay ? "waited " + skipped + " ≥ " + nodeDelay + "; rack-local"
              : "fair share; rack-local");
        }
      }
      if (skipped >= nodeDelay + rackDelay) {
        t = idx.firstAny(s, excluded);
        if (t >= 0) {
          return new Pick(t, s.level(t, host), delay ? "waited " + skipped + "; off-rack" : "fair share; any task");
        }
      }
      if (!delay) {
        return null; // naive fair sharing never skips: only the first job in order matters
      }
    }
    return null;
  }

  /**
   * The engine runs {@code pick}: with delay scheduling, each job ahead of its job in the order with
   * no task local to the host passed the slot up (one more skip; a job ahead with a local task here
   * was not offered it: excluded), and its job starts again from none if it ran a local task.
   */
  @Override
  public void taken(int host, Pick pick) {
    JobView chosen = s.job(pick.task());
    if (delay) {
      for (JobView j : order()) {
        if (j == chosen) {
          break;
        }
        if (perJob.get(j).firstOnHost(s, host, Set.of()) < 0) {
          skips.computeIfAbsent(j, k -> new int[1])[0]++;
        }
      }
      if (perJob.get(chosen).firstOnHost(s, host, Set.of()) >= 0) {
        skips.remove(chosen);
      }
    }
    removed(pick.task());
  }

  /** No job took the slot: with delay scheduling, each job with pending work and no task local here skipped it. */
  @Override
  public void passed(int host) {
    if (delay) {
      for (Map.Entry<JobView, PendingIndex> e : perJob.entrySet()) {
        if (e.getValue().firstOnHost(s, host, Set.of()) < 0) {
          skips.computeIfAbsent(e.getKey(), k -> new int[1])[0]++;
        }
      }
    }
  }

  private int skipsOf(JobView j) {
    int[] c = skips.get(j);
    return c == null ? 0 : c[0];
  }

  /** The jobs with pending work in the engine's order. */
  private List<JobView> order() {
    List<JobView> order = new ArrayList<>(perJob.keySet());
    order.sort(s::compareJobs);
    return order;
  }

  @Override
  public int[] hostLost(int host) {
    perJob.values().forEach(i -> i.forgetHost(host));
    return new int[0];
  }

  @Override
  public int queuedFor(int host) {
    return 0;
  }
}
