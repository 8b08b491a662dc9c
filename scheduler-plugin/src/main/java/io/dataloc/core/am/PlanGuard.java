package io.dataloc.core.am;

import io.dataloc.core.model.Assignment;
import io.dataloc.core.model.Problem;
import java.util.HashMap;
import java.util.Map;

/**
 * The plan's two declines, for one planned job whose MapReduce AM the scheduler replays
 * ({@link AmReplay}). A container offered to the job on a node is taken unless one of two rules
 * says the plan is better served by waiting for that node's next heartbeat:
 *
 * <ol>
 *   <li><b>Non-local</b>: the AM would run a task away from its data in it while some of the
 *       job's pending tasks can still run data-local on other live nodes;
 *   <li><b>Plan shape</b>: the AM would run a task the plan put on another host, no local chain
 *       re-homes the planned task ({@link io.dataloc.core.engine.Rehoming}), and this host would
 *       then exceed the plan's shape — more waves than the plan's busiest host, or more tasks at
 *       once than the plan puts on any host.
 * </ol>
 *
 * <p>Bound: a node declines a job at most {@code nodeDelay} times in a row (the count resets when
 * the node takes one of the job's maps), then takes the container, so no job waits for ever —
 * delay scheduling's rule, applied to the plan's declines only. A front end asked on every visit
 * of every node, every few milliseconds (the CapacityScheduler's), bounds the run in time instead:
 * a node declines a job for at most {@code boundMillis} from its first decline in a row
 * ({@link #timed}; the time is the caller's, read from its injected clock). Pure bookkeeping: the
 * guard never sees YARN; the adapter and the simulator ask it the same questions.
 */
public final class PlanGuard {
  /** What the guard says of one offered container. */
  public enum Verdict {
    TAKE,
    /** The AM would run a non-local task here while local work remains elsewhere. */
    DECLINE_NON_LOCAL,
    /** The AM's task would push this host beyond the plan's shape. */
    DECLINE_PLAN_SHAPE;

    public boolean declines() {
      return this != TAKE;
    }
  }

  private final int nodeDelay;
  /** Time-bounded runs of declines: their length in ms and the clock (null: counted runs). */
  private final long boundMillis;
  private final java.util.function.LongSupplier clock;
  /** Waves on the plan's busiest host. */
  private final int waves;
  /** The most tasks the plan runs at once on one host. */
  private final int concurrency;
  /** How many of the job's maps each host runs at once, as planned (by host name). */
  private final Map<String, Integer> slots;
  /** Consecutive declines per host. */
  private final Map<String, Integer> declines = new HashMap<>();
  /** Time-bounded runs: when each host's run of declines began. */
  private final Map<String, Long> firstDecline = new HashMap<>();

  private PlanGuard(int nodeDelay, long boundMillis, java.util.function.LongSupplier clock, int waves,
      int concurrency, Map<String, Integer> slots) {
    this.nodeDelay = nodeDelay;
    this.boundMillis = boundMillis;
    this.clock = clock;
    this.waves = waves;
    this.concurrency = concurrency;
    this.slots = slots;
  }

  /** The guard of a plan: its shape read off the problem's hosts and the plan's tasks per host. */
  public static PlanGuard of(Problem p, Assignment plan, int nodeDelay) {
    Shape shape = shapeOf(p, plan);
    return new PlanGuard(nodeDelay, 0, null, shape.waves(), shape.concurrency(), shape.slots());
  }

  /**
   * The guard of a plan whose runs of declines are bounded in time: a node declines the job for at
   * most {@code boundMillis} ms (by {@code clock}) from its first decline in a row.
   */
  public static PlanGuard timed(Problem p, Assignment plan, long boundMillis, java.util.function.LongSupplier clock) {
    Shape shape = shapeOf(p, plan);
    return new PlanGuard(Integer.MAX_VALUE, boundMillis, clock, shape.waves(), shape.concurrency(), shape.slots());
  }

  /** A plan's shape: waves on its busiest host, most tasks at once on one host, each host's slots. */
  private static final class Shape {
    private final int waves;
    private final int concurrency;
    private final Map<String, Integer> slots;

    private Shape(int waves, int concurrency, Map<String, Integer> slots) {
      this.waves = waves;
      this.concurrency = concurrency;
      this.slots = slots;
    }

    public int waves() {
      return waves;
    }

    public int concurrency() {
      return concurrency;
    }

    public Map<String, Integer> slots() {
      return slots;
    }
  }

  private static Shape shapeOf(Problem p, Assignment plan) {
    int[] perHost = new int[p.cluster().hostCount()];
    for (int t = 0; t < p.tasks(); t++) {
      perHost[p.hostOf(plan.server(t))]++;
    }
    int waves = 0;
    int concurrency = 0;
    Map<String, Integer> slots = new HashMap<>();
    for (int h = 0; h < perHost.length; h++) {
      int s = Math.max(1, p.cluster().slots(h));
      slots.put(p.cluster().hostName(h), s);
      waves = Math.max(waves, (perHost[h] + s - 1) / s);
      concurrency = Math.max(concurrency, Math.min(perHost[h], s));
    }
    return new Shape(waves, concurrency, slots);
  }

  /**
   * Rule 1. {@code amKind}: how the AM would run its next task in a container on {@code host}
   * ({@link AmReplay#peekKind}: 0 data-local, above 0 not); {@code localElsewhere}: some pending
   * task of the job can run data-local on another live host (asked only when it matters).
   */
  public Verdict nonLocal(String host, int amKind, java.util.function.BooleanSupplier localElsewhere) {
    return amKind > 0 && localElsewhere.getAsBoolean() && mayDecline(host) ? Verdict.DECLINE_NON_LOCAL : Verdict.TAKE;
  }

  /**
   * Rule 2. {@code keepsLocality}: the engine's proposal re-homes the planned task with every
   * queued task local; {@code here}: the job's maps on {@code host} if it takes the container (run
   * or running, this one, and those queued for it; asked only when it matters); {@code
   * fallbackSlots}: the host's slots when the plan did not know it.
   */
  public Verdict planShape(String host, boolean keepsLocality, java.util.function.IntSupplier here,
      int fallbackSlots) {
    if (keepsLocality) {
      return Verdict.TAKE;
    }
    int s = slots.getOrDefault(host, Math.max(1, fallbackSlots));
    int n = here.getAsInt();
    boolean within = (n + s - 1) / s <= waves && Math.min(n, s) <= concurrency;
    return within || !mayDecline(host) ? Verdict.TAKE : Verdict.DECLINE_PLAN_SHAPE;
  }

  /** Whether {@code host} may decline once more; counts the decline (or starts the run's clock) if so. */
  private boolean mayDecline(String host) {
    if (clock != null) {
      long now = clock.getAsLong();
      return now - firstDecline.computeIfAbsent(host, h -> now) < boundMillis;
    }
    int declined = declines.getOrDefault(host, 0);
    if (declined >= nodeDelay) {
      return false;
    }
    declines.put(host, declined + 1);
    return true;
  }

  /** The job took a container on {@code host}: its run of declines there ends. */
  public void taken(String host) {
    declines.remove(host);
    firstDecline.remove(host);
  }

  /** Waves on the plan's busiest host (reports and tests). */
  public int waves() {
    return waves;
  }

  /** The most tasks the plan runs at once on one host (reports and tests). */
  public int concurrency() {
    return concurrency;
  }
}
