package io.dataloc.core.online;

import io.dataloc.core.jobs.JobView;
import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;

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
    if (perJob.isEmpty()) {
      return null;
    }
    if (!delay) {
      // Naive fair sharing never skips: only the first job in order matters.
      JobView first = null;
      for (JobView j : perJob.keySet()) {
        if (first == null || s.compareJobs(j, first) < 0) {
          first = j;
        }
      }
      return pickFrom(first, host);
    }
    PriorityQueue<JobView> order = new PriorityQueue<>(perJob.size(), s::compareJobs);
    order.addAll(perJob.keySet());
    while (!order.isEmpty()) {
      JobView j = order.poll();
      PendingIndex idx = perJob.get(j);
      int t = idx.firstOnHost(s, host);
      if (t >= 0) {
        skips.remove(j);
        return take(idx, j, t, host, "fair share; local task");
      }
      int skipped = skips.computeIfAbsent(j, k -> new int[1])[0];
      if (!delay || skipped >= nodeDelay) {
        t = idx.firstInRack(s, s.rackOf(host));
        if (t >= 0) {
          return take(idx, j, t, host, delay ? "waited " + skipped + " ≥ " + nodeDelay + "; rack-local" : "fair share; rack-local");
        }
      }
      if (!delay || skipped >= nodeDelay + rackDelay) {
        t = idx.firstAny(s);
        if (t >= 0) {
          return take(idx, j, t, host, delay ? "waited " + skipped + "; off-rack" : "fair share; any task");
        }
      }
      skips.get(j)[0]++;
    }
    return null;
  }

  private Pick pickFrom(JobView j, int host) {
    PendingIndex idx = perJob.get(j);
    int t = idx.firstOnHost(s, host);
    if (t >= 0) {
      return take(idx, j, t, host, "fair share; local task");
    }
    t = idx.firstInRack(s, s.rackOf(host));
    if (t >= 0) {
      return take(idx, j, t, host, "fair share; rack-local");
    }
    return take(idx, j, idx.firstAny(s), host, "fair share; any task");
  }

  private Pick take(PendingIndex idx, JobView j, int t, int host, String why) {
    idx.left();
    if (idx.pending() == 0) {
      perJob.remove(j);
      skips.remove(j);
    }
    return new Pick(t, s.level(t, host), why);
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
