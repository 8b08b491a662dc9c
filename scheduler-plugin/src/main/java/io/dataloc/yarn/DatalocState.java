package io.dataloc.yarn;

import io.dataloc.core.engine.DecisionEngine;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;

/**
 * The state the plan service's parts share ({@link SchedulerContext}): the engine and the settings
 * (each replaced whole by a refresh or a recovery), the registry, the metrics, the application
 * blamed for an error, and the plan lock every part takes — the standalone scheduler's monitor,
 * or a leaf lock of its own inside the CapacityScheduler.
 */
final class DatalocState implements SchedulerContext {
  private final Object lock;
  private final LockHolds holds;
  private final AppRegistry registry;
  private final RMContext rmContext;
  private final DatalocMetrics metrics;
  private final LocalityHistory locality;
  private final Function<ApplicationId, DatalocAppAttempt> attempts;
  private final ToIntFunction<ApplicationId> priorities;
  /** The front end's clock in ms. */
  private final java.util.function.LongSupplier clock;
  /** The clock when the service started: the engine counts whole seconds from it. */
  private final long startMillis;
  /** Whether a plan's declines are bounded in time (the CapacityScheduler's) rather than counted per heartbeat. */
  private final boolean timedDeclines;
  private volatile Settings settings;
  private volatile FaultInjector faults = FaultInjector.NONE;
  /** Guarded by the lock. */
  private DecisionEngine engine;
  /** Guarded by the lock: the application worked for now, blamed for an error (or null). */
  private ApplicationId working;
  /** Set once, when the parts are wired. */
  private Containment containment;
  private Consumer<ApplicationId> otherWork = id -> {};

  /**
   * @param attempts an application's current attempt (the standalone scheduler's; null elsewhere)
   * @param priorities an application's priority as YARN holds it
   * @param clock the front end's clock in ms (YARN's {@code Clock})
   * @param timedDeclines a plan's declines are bounded in ms on {@code clock} (else counted per heartbeat)
   */
  DatalocState(Object lock, Settings settings, DatalocMetrics metrics, RMContext rmContext,
      Function<ApplicationId, DatalocAppAttempt> attempts, ToIntFunction<ApplicationId> priorities,
      java.util.function.LongSupplier clock, boolean timedDeclines) {
    this.lock = lock;
    this.settings = settings;
    this.metrics = metrics;
    this.locality = new LocalityHistory(metrics);
    this.holds = new LockHolds(micros -> metrics.lockHold.add(micros));
    this.rmContext = rmContext;
    this.attempts = attempts;
    this.priorities = priorities;
    this.clock = clock;
    this.startMillis = clock.getAsLong();
    this.timedDeclines = timedDeclines;
    this.registry = new AppRegistry(this::engine, id -> otherWork.accept(id), clock);
    this.engine = new DecisionEngine(settings.engineConfig());
  }

  /** The parts the state itself calls on: whether degraded, and who is told of applications gone online. */
  void wire(Containment c, Consumer<ApplicationId> mayHaveOtherWork) {
    containment = c;
    otherWork = mayHaveOtherWork;
  }

  /** A new engine (a refresh, a degraded spell's end): its clock starts at the service's now, not at 0. */
  void engine(DecisionEngine e) {
    engine = e;
    advanceEngineClock();
  }

  @Override
  public void advanceEngineClock() {
    engine.advanceTo(Math.max(0, clock.getAsLong() - startMillis) / 1000);
  }

  void settings(Settings s) {
    settings = s;
  }

  void faults(FaultInjector f) {
    faults = f == null ? FaultInjector.NONE : f;
  }

  Containment containment() {
    return containment;
  }

  @Override
  public ApplicationId takeWorking() {
    ApplicationId w = working;
    working = null;
    return w;
  }

  @Override public Object lock() { return lock; }
  @Override public LockHolds holds() { return holds; }
  @Override public DecisionEngine engine() { return engine; }
  @Override public Settings settings() { return settings; }
  @Override public DatalocMetrics metrics() { return metrics; }
  @Override public LocalityHistory locality() { return locality; }
  @Override public FaultInjector faults() { return faults; }
  @Override public RMContext rmContext() { return rmContext; }
  @Override public long nowMillis() { return clock.getAsLong(); }
  @Override public AppRegistry apps() { return registry; }
  @Override public void working(ApplicationId id) { working = id; }
  @Override public boolean degraded() { return containment.degraded(); }
  @Override public DatalocAppAttempt currentAttempt(ApplicationId id) { return attempts.apply(id); }
  @Override public int applicationPriority(ApplicationId id) { return priorities.applyAsInt(id); }

  /** Runs {@code body} under the plan lock, its hold measured as {@code site}. */
  void locked(String site, Runnable body) {
    synchronized (lock) {
      holds.enter();
      try {
        body.run();
      } finally {
        holds.exit(site);
      }
    }
  }

  @Override
  public io.dataloc.core.am.PlanGuard guard(io.dataloc.core.model.Problem problem,
      io.dataloc.core.model.Assignment plan) {
    return !timedDeclines ? io.dataloc.core.am.PlanGuard.of(problem, plan, settings.nodeDelay())
        : io.dataloc.core.am.PlanGuard.timed(problem, plan, settings.csMaxWaitMs(), clock);
  }
}
