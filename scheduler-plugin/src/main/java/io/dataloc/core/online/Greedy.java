package io.dataloc.core.online;

import io.dataloc.core.jobs.JobView;
import io.dataloc.core.model.Level;
import java.util.Set;

/**
 * The stock greedy rule (Hadoop's FIFO scheduler with its locality preference): a free slot on
 * host h runs the earliest-arrived pending task local to h; else the earliest one in h's rack;
 * else the earliest pending task. No queues, no waiting, no balance.
 */
public final class Greedy implements OnlinePolicy {
  private PolicyState s;
  private final PendingIndex index = new PendingIndex();

  @Override
  public String name() {
    return "greedy";
  }

  @Override
  public void attach(PolicyState state, ServiceRates rates) {
    this.s = state;
  }

  @Override
  public void route(int task) {
    index.add(s, task);
  }

  @Override
  public void removed(int task) {
    index.left();
  }

  @Override
  public Pick pick(int host) {
    return pick(host, Set.of());
  }

  @Override
  public Pick pick(int host, Set<JobView> excluded) {
    int t = index.firstOnHost(s, host, excluded);
    String why = "earliest task local to the host";
    if (t < 0) {
      t = index.firstInRack(s, s.rackOf(host), excluded);
      why = "earliest task in the host's rack";
    }
    if (t < 0) {
      t = index.firstAny(s, excluded);
      why = "earliest pending task";
    }
    if (t < 0) {
      return null;
    }
    Level level = s.level(t, host);
    return new Pick(t, level, why);
  }

  @Override
  public int[] hostLost(int host) {
    index.forgetHost(host);
    return new int[0];
  }

  @Override
  public int queuedFor(int host) {
    return 0;
  }
}
