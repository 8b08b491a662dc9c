package io.dataloc.core.online;

import io.dataloc.core.jobs.JobView;
import io.dataloc.core.model.Level;
import java.util.Set;
import java.util.function.IntPredicate;
import java.util.function.IntUnaryOperator;

/**
 * Break-even waiting: a task waits for a slot where its data is for as long as running it
 * elsewhere would cost it extra, and no longer.
 *
 * <p><b>The rule.</b> A task runs at rate {@code α} on a host holding its data, {@code β} in such a
 * host's rack, {@code γ} elsewhere, so away from its data it takes {@code e(L) = 1/rate(L) − 1/α}
 * longer (in ticks). Every waiting task is listed at each of its replica hosts (late binding: no
 * host is chosen for it on arrival), at their racks, and in the cluster's list. A host with a free
 * slot runs
 * <ol>
 *   <li>a task listed at it (its data is here: no extra cost), the oldest of the first job in the
 *       engine's order; else
 *   <li>a task listed in its rack that has waited at least {@code e(rack)}; else
 *   <li>a task that has waited at least {@code e(level here)};
 * </ol>
 * among the jobs whose oldest task there qualifies, the first in the job order. Else the slot
 * idles. ("Oldest" is the first listed: a task listed again after its host was drained or lost
 * keeps its wait but goes behind its job's later tasks.) The engine's starvation guard, when on,
 * runs a starving job's task before the policy is asked.
 *
 * <p><b>Why.</b> For one task, leaving its data is a rent-or-buy choice (ski rental): each tick
 * spent waiting for a slot where its data is costs a tick; running on a host free now costs
 * {@code e} once, on top of the local run. Its local slot comes at a time {@code W} it cannot know.
 * The break-even rule — wait up to {@code e}, then move — costs it at most
 * {@code (e + 1/rate) / (1/rate) < 2} times what hindsight would have chosen: if {@code W ≤ e} it
 * runs locally (the better choice); else it pays {@code e + 1/rate}, and hindsight at least
 * {@code min(W + 1/α, 1/rate) = 1/rate}. (A heuristic argument for one task, assuming a host is
 * free when it moves; the cluster-wide claims are measured, not proven.) At low load a task finds
 * a host holding its data free and runs there at once — where JSQ-MaxWeight is good and greedy is
 * not (greedy runs most tasks on whichever idle host asks first, remotely). Near capacity the
 * data-less hosts run only tasks that have waited, and late binding lets whichever replica host
 * frees first take a task — where greedy is good and JSQ-MaxWeight is not (it ties each task to
 * one queue on arrival). An extension beyond the seed papers, measured against them by the
 * simulator's {@code online-goal}, {@code wang}, {@code wang-hotspot} and {@code wang-stability}.
 *
 * <p><b>Plans.</b> A task planned local to a host is listed there only: another host runs it once
 * it has waited {@code e(remote)}, whatever its level there — the plan's choice stands until then.
 * A task planned away from its data is routed as an unplanned one. A task refused by a host
 * ({@link #routeAvoiding}) is not listed there and runs there, as a planned task elsewhere does,
 * only after the remote break-even (a host that cannot run it now may later; in a one-host
 * cluster it is the only one). A lost host hands back the tasks planned on it; the
 * tasks merely listed there stay listed, so it serves them if it comes back (no work when a host
 * is lost or added beyond its planned tasks).
 *
 * <p>Cost: routing a task lists it {@code O(replicas)} times; a decision visits the jobs with tasks
 * listed at the host, in its rack and in the cluster ({@code O(jobs)}, as a {@link TaskQueue}'s
 * poll does); the lists ({@link BreakEvenListings}) hold at most about twice their live entries.
 *
 * <p><b>No data to wait for.</b> The extra cost is counted from the best rate the task can still
 * have: {@code α} while one of its replica hosts is live with slots; {@code β} if none is but a replica's rack
 * is known; {@code γ} if it has no replica the cluster knows (an ask for any host, replicas on
 * hosts with no NodeManager). So a task without data locality runs on the first free host, and one
 * whose data hosts are all down waits only for its rack.
 *
 * <p><b>Busy links.</b> Away from its data a task reads over a replica host's link, which the
 * reads of maps already running away from their data share. With link costs on ({@code
 * cost.link-congestion}), its break-even grows by a local task's time {@code 1/α} times
 * {@code perSharedRead / local} for each read already on the least busy link among its replica
 * hosts ({@link ServiceRates#sharedReadTicks}): the busier the data's links, the longer it waits
 * for its data. Leaving costs it that much more, so the rent-or-buy argument holds with the larger
 * {@code e}.
 *
 * <p>Waits are compared exactly: {@code age ≥ 1/r − 1/b} iff {@code age·b·r ≥ 1000·(b − r)} with
 * rates in thousandths per tick (the link's wait is whole ticks, rounded up).
 */
public final class BreakEven implements OnlinePolicy {
  /** Why a task of each level's list was picked: the host's, its rack's, the cluster's. */
  private static final String[] LEVELS = {"its data is here", "waited past the rack break-even 1/β − 1/α",
      "waited past the break-even 1/rate − 1/α"};
  private PolicyState s;
  private ServiceRates rates;
  private BreakEvenListings lists;
  /** A slot is being served ({@link #beginSlot}); its ranking once a pick excluded a job, else null. */
  private boolean slotOpen;
  private SlotRanking ranking;

  @Override
  public String name() {
    return "break-even";
  }

  @Override
  public void attach(PolicyState state, ServiceRates r) {
    this.s = state;
    this.rates = r;
    this.lists = new BreakEvenListings(state);
  }

  @Override
  public void route(int task) {
    lists.list(task, -1, -1);
  }

  @Override
  public void routeAvoiding(int task, int avoidHost) {
    lists.list(task, -1, avoidHost);
  }

  @Override
  public void enqueuePlanned(int task, int host, Level level) {
    lists.list(task, level == Level.LOCAL && s.alive(host) ? host : -1, -1);
  }

  @Override
  public void removed(int task) {
    lists.removed(task);
  }

  @Override
  public Pick pick(int host) {
    return pick(host, Set.of());
  }

  /**
   * The three lists are looked through in order; the first with a candidate answers. Within a slot,
   * once a pick excludes a job, the lists are ranked once ({@link SlotRanking}) and later picks
   * resume there instead of scanning every job again: the same answers (a test holds them equal to
   * the scan's), at {@code O(jobs · log jobs)} per slot rather than per refused proposal.
   */
  @Override
  public Pick pick(int host, Set<JobView> excluded) {
    if (slotOpen && !excluded.isEmpty()) {
      if (ranking == null || ranking.host() != host) {
        ranking = rank(host);
      }
      SlotRanking r = ranking;
      return walk(host, level -> r.first(level, s, excluded));
    }
    return walk(host, level -> lists.first(host, level, excluded, mayRun(host, level)));
  }

  /**
   * What {@link #pick(int, Set)} answers with every job but {@code job} excluded, read from that
   * job's own part of each list: amortised {@code O(1)}, for the CapacityScheduler, which asks on
   * every visit of every node (a test holds it equal to the scan's answer).
   */
  @Override
  public Pick pickFor(int host, JobView job) {
    return walk(host, level -> {
      int t = lists.oldestOf(host, level, job);
      return t >= 0 && mayRun(host, level).test(t) ? t : -1;
    });
  }

  /** Which tasks of the list at {@code level} the host may run: any listed at it, else those that waited. */
  private IntPredicate mayRun(int host, int level) {
    return level == 0 ? t -> true : away(host);
  }

  /**
   * The one walk of the three levels, in order, asking each for its candidate only when the levels
   * before it have none ({@code firstAt}: the level's candidate, or -1); the pick, or null.
   */
  private Pick walk(int host, IntUnaryOperator firstAt) {
    for (int level = 0; level < LEVELS.length; level++) {
      int t = firstAt.applyAsInt(level);
      if (t >= 0) {
        return new Pick(t, s.level(t, host), LEVELS[level], lists.pin(t));
      }
    }
    return null;
  }

  private SlotRanking rank(int host) {
    int[][] ranked = new int[LEVELS.length][];
    for (int level = 0; level < LEVELS.length; level++) {
      ranked[level] = lists.ranked(host, level, mayRun(host, level));
    }
    return new SlotRanking(host, ranked);
  }

  @Override
  public void beginSlot() {
    slotOpen = true;
    ranking = null;
  }

  @Override
  public void endSlot() {
    slotOpen = false;
    ranking = null;
  }

  /**
   * A task this host may run although it is not listed here: one that waited past break-even — the
   * remote one if a plan put it elsewhere or this host refused it, else its level's here — measured
   * from the best rate it can still have: its data's ({@code α}) while a replica host can serve it.
   */
  private IntPredicate away(int host) {
    return t -> {
      boolean planned = lists.pin(t) >= 0;
      Level here = s.level(t, host);
      long rate = planned || lists.avoid(t) == host ? rates.gamma() : rates.rate(here.ordinal());
      long link = here == Level.LOCAL ? 0 : rates.sharedReadTicks(leastSharedLink(t));
      return waited(t, rate, planned ? rates.alpha() : best(t), link);
    };
  }

  /** The reads already on the least busy link among the task's replica hosts. */
  private int leastSharedLink(int t) {
    int least = Integer.MAX_VALUE;
    for (int h : s.replicas(t)) {
      least = Math.min(least, s.readsOut(h));
    }
    return least == Integer.MAX_VALUE ? 0 : least;
  }

  /**
   * The best rate the task can have anywhere now: {@code α} if a replica host is live and has
   * slots (a node of a labelled partition has none); else {@code
   * β} if a replica's rack is known (its other hosts may serve it rack-locally); else {@code γ} (no
   * data locality at all: an ask for any host, or replicas on hosts the cluster does not have), so
   * it waits for nothing.
   */
  private long best(int t) {
    boolean rack = false;
    for (int h : s.replicas(t)) {
      if (s.alive(h) && s.slots(h) > 0) {
        return rates.alpha();
      }
      rack |= s.rackOf(h) != PolicyState.NO_RACK;
    }
    return rack ? rates.beta() : rates.gamma();
  }

  /**
   * The task has waited at least {@code link + 1/rate − 1/best} ticks (exactly, {@code link} whole
   * ticks), {@code best ≥ rate}.
   */
  private boolean waited(int t, long rate, long best, long link) {
    long age = s.now() - s.queuedAt(t) - link;
    if (age < 0) {
      return false;
    }
    if (rate >= best) {
      return true;
    }
    return age * best * rate >= 1000 * (best - rate);
  }

  @Override
  public int queueHostOf(int task) {
    return lists.queueHostOf(task);
  }

  @Override
  public boolean forEachQueued(int host, JobView job, IntPredicate visit) {
    lists.forEachQueued(host, job, visit);
    return true;
  }

  /**
   * The tasks planned on the lost host, handed back to be routed again. The tasks merely listed
   * there stay listed: the host serves them if it comes back, and meanwhile they wait elsewhere.
   */
  @Override
  public int[] hostLost(int host) {
    return lists.hostLost(host);
  }

  @Override
  public int queuedFor(int host) {
    return lists.queuedFor(host);
  }
}
