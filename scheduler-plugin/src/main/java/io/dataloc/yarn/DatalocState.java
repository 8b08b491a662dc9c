package io.dataloc.yarn;

import io.dataloc.core.engine.DecisionEngine;
import java.util.Map;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplication;

/**
 * The state the scheduler's parts share ({@link SchedulerContext}): the engine and the settings
 * (each replaced whole by a refresh or a recovery), the registry, the metrics, the application
 * blamed for an error, and the lock every part takes — the scheduler's monitor.
 */
final class DatalocState implements SchedulerContext {
  private final Object lock;
  private final LockHolds holds = new LockHolds();
  private final AppRegistry registry;
  private final Map<ApplicationId, SchedulerApplication<DatalocAppAttempt>> applications;
  private final RMContext rmContext;
  private final DatalocMetrics metrics;
  private volatile DatalocConfiguration.Settings settings;
  private volatile FaultInjector faults = FaultInjector.NONE;
  /** Guarded by the lock. */
  private DecisionEngine engine;
  /** Guarded by the lock: the application worked for now, blamed for an error (or null). */
  private ApplicationId working;
  /** Set once, when the parts are wired. */
  private Containment containment;
  private OtherWork otherWork;

  DatalocState(Object lock, DatalocConfiguration.Settings settings, DatalocMetrics metrics, RMContext rmContext,
      Map<ApplicationId, SchedulerApplication<DatalocAppAttempt>> applications) {
    this.lock = lock;
    this.settings = settings;
    this.metrics = metrics;
    this.rmContext = rmContext;
    this.applications = applications;
    this.registry = new AppRegistry(this::engine, id -> otherWork.add(id));
    this.engine = new DecisionEngine(settings.engineConfig());
  }

  /** The parts the state itself calls on: whether degraded, and the walk told of applications gone online. */
  void wire(Containment c, OtherWork w) {
    containment = c;
    otherWork = w;
  }

  void engine(DecisionEngine e) {
    engine = e;
  }

  void settings(DatalocConfiguration.Settings s) {
    settings = s;
  }

  void faults(FaultInjector f) {
    faults = f == null ? FaultInjector.NONE : f;
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
  @Override public DatalocConfiguration.Settings settings() { return settings; }
  @Override public DatalocMetrics metrics() { return metrics; }
  @Override public FaultInjector faults() { return faults; }
  @Override public RMContext rmContext() { return rmContext; }
  @Override public AppRegistry apps() { return registry; }
  @Override public void working(ApplicationId id) { working = id; }
  @Override public boolean degraded() { return containment.degraded(); }

  @Override
  public DatalocAppAttempt currentAttempt(ApplicationId id) {
    SchedulerApplication<DatalocAppAttempt> app = applications.get(id);
    return app == null ? null : app.getCurrentAppAttempt();
  }

  @Override
  public int applicationPriority(ApplicationId id) {
    SchedulerApplication<DatalocAppAttempt> app = applications.get(id);
    return app == null || app.getPriority() == null ? 0 : app.getPriority().getPriority();
  }
}
