package io.dataloc.yarn;

import io.dataloc.core.engine.DecisionEngine;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;

/**
 * What the scheduler's parts share, implemented by {@link LocalityScheduler}. The engine and the
 * settings are read afresh on every call (a refresh or a recovery replaces them); everything is
 * called under the scheduler's monitor unless a method says otherwise.
 */
interface SchedulerContext {
  /** The scheduler's monitor: the lock every part takes before touching scheduling state. */
  Object lock();

  /** Measures every hold of {@link #lock()}: enter after taking it, exit before leaving it. */
  LockHolds holds();

  DecisionEngine engine();

  /** The running settings (any thread). */
  Settings settings();

  DatalocMetrics metrics();

  /** Map containers by locality: the metrics' totals and the page's last hour. */
  LocalityHistory locality();

  FaultInjector faults();

  RMContext rmContext();

  /** The front end's clock in ms (YARN's {@code Clock}: a replay drives it virtually); every decision that reads time reads this. */
  long nowMillis();

  /**
   * Brings the engine's clock up to {@link #nowMillis}: whole seconds since the plan service
   * started, the one time base every engine of this service counts in (a task's wait, a run's
   * length). Never back. Under the lock.
   */
  void advanceEngineClock();

  AppRegistry apps();

  /** The application's current attempt, or null. */
  DatalocAppAttempt currentAttempt(ApplicationId id);

  /** The application's priority as YARN holds it (0 when unknown). */
  int applicationPriority(ApplicationId id);

  /** Names the application the scheduler works for now, blamed for an error (null: none). */
  void working(ApplicationId id);

  /** The application named by {@link #working}, cleared. */
  ApplicationId takeWorking();

  /**
   * The plan's declines for a planned job ({@link io.dataloc.core.am.PlanGuard}): a node declines
   * it {@code delay.node} times in a row at most where declines come once per heartbeat; for
   * {@code cs.max-wait-ms} at most where the front end is asked on every visit, every few
   * milliseconds (the CapacityScheduler's). Linear in the plan's tasks and hosts: made off the
   * lock.
   */
  io.dataloc.core.am.PlanGuard guard(io.dataloc.core.model.Problem problem, io.dataloc.core.model.Assignment plan);

  /** Whether Dataloc serves everything from the asks after an error no application was blamed for. */
  boolean degraded();
}
