package io.dataloc.yarn;

import io.dataloc.core.am.AmReplay;
import io.dataloc.core.am.PlanGuard;
import io.dataloc.core.engine.BudgetedPlanner;
import io.dataloc.core.engine.PlanApplication;
import io.dataloc.core.engine.PlanInput;
import io.dataloc.core.model.Assignment;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.IntUnaryOperator;
import java.util.function.ToIntFunction;
import java.util.function.UnaryOperator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.api.records.impl.pb.ApplicationSubmissionContextPBImpl;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The placement pipeline: reads a job's block placement and plans it, all off the dispatcher
 * thread — the read on one of {@code placement.threads} threads, interrupted at {@code
 * placement.read-timeout-ms}; then the plan, one job at a time (so each sees the last one's tasks
 * queued), within {@code plan.budget-ms} (the fallback assigner past it); then the plan enters the
 * engine {@value PlanEntry#APPLY_CHUNK} tasks per hold of the scheduler's monitor. A job that finds the
 * read or plan queue full ({@code placement.max-waiting}), whose read fails or times out, or whose
 * plan fails, is served from its asks; nothing else is affected.
 */
final class PlacementPipeline {
  private static final Logger LOG = LoggerFactory.getLogger(PlanService.class);

  private final SchedulerContext ctx;
  private final NodeSizes sizes;
  /** Normalizes a map container's size as the scheduler normalizes asks. */
  private final UnaryOperator<Resource> normalize;
  /** The ResourceManager's own configuration: file system clients are made from it, never from a refresh's. */
  private final Configuration rmConf;
  private final ThreadPoolExecutor readers;
  private final ThreadPoolExecutor plans;
  /** Runs the assigner and the levelling, so a plan can be abandoned at its budget. */
  private final ExecutorService planner;
  private final BudgetedPlanner budgeted;
  /** Interrupts a placement read at its timeout. */
  private final ScheduledExecutorService watchdog;
  private volatile PlacementReader reader;
  /** The bytes of placements read and not yet planned, within {@code placement.max-bytes-in-flight}. */
  private final ByteBudget inFlight = new ByteBudget();

  PlacementPipeline(SchedulerContext ctx, NodeSizes sizes, UnaryOperator<Resource> normalize, Configuration rmConf) {
    this.ctx = ctx;
    this.sizes = sizes;
    this.normalize = normalize;
    this.rmConf = rmConf;
    Settings s = ctx.settings();
    PlacementBounds b = s.bounds();
    readers = new ThreadPoolExecutor(b.placementThreads(), b.placementThreads(), 60, TimeUnit.SECONDS,
        new LinkedBlockingQueue<>(b.maxWaiting()), daemon("dataloc-placement"));
    readers.allowCoreThreadTimeOut(true);
    plans = new ThreadPoolExecutor(1, 1, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(b.maxWaiting()),
        daemon("dataloc-plans"));
    planner = Executors.newFixedThreadPool(1, daemon("dataloc-planner"));
    budgeted = new BudgetedPlanner(planner);
    watchdog = Executors.newSingleThreadScheduledExecutor(daemon("dataloc-read-watchdog"));
    reconfigure(s);
  }

  private static ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }

  /** New settings: reads started from now on use them (AdminService hands a refresh only yarn-site.xml). */
  void reconfigure(Settings s) {
    reader = new PlacementReader(rmConf, s.sources(), s.hintEnv(), s.bounds(), s.readTimeoutMs());
  }

  void stop() {
    readers.shutdownNow();
    plans.shutdownNow();
    planner.shutdownNow();
    watchdog.shutdownNow();
  }

  /** Starts reading a new job's placement (under the plan lock, at submission). */
  void start(DatalocApp a) {
    RMApp rmApp = ctx.rmContext().getRMApps().get(a.id);
    if (ctx.degraded()) {
      ctx.apps().goOnline(a, "submitted while Dataloc was degraded after an error");
      return;
    }
    if (rmApp == null || rmApp.getApplicationSubmissionContext() == null) {
      ctx.apps().goOnline(a, "no submission context");
      return;
    }
    a.startReading();
    // A copy, made before the AM launcher exists: it reads the same protobuf-backed record later.
    var submitted = rmApp.getApplicationSubmissionContext();
    ApplicationSubmissionContext copy = submitted instanceof ApplicationSubmissionContextPBImpl
        ? new ApplicationSubmissionContextPBImpl(((ApplicationSubmissionContextPBImpl) submitted).getProto())
        : submitted;
    String type = rmApp.getApplicationType();
    PlacementReader r = reader;
    Settings s = ctx.settings();
    // The split's host names become node ids as they are read: names no node has are not kept.
    Map<String, Integer> known = ctx.engine().state().frozenHostIndex();
    ToIntFunction<String> hostId = name -> known.getOrDefault(name, -1);
    a.hostsAtRead = known.size();
    try {
      Future<?> read = readers.submit(() -> read(a, r, copy, type, hostId, s));
      // The timeout counts from submission: a read still queued behind others when it strikes never
      // runs, so the job is served from its asks here (a running read is interrupted and does so).
      watchdog.schedule(() -> {
        if (read.cancel(true)) {
          readFailed(a, timeoutNote(s));
        }
      }, s.readTimeoutMs(), TimeUnit.MILLISECONDS);
      // Read and plan together have the read timeout plus twice the plan budget (the assigner's
      // and the fallback's), whether or not the
      // job's asks change meanwhile (a job waiting in the plan queue, its data hosts full, has
      // no early map and may ask nothing new for as long as the queue is).
      watchdog.schedule(() -> overdue(a, s), s.readTimeoutMs() + 2 * s.planBudgetMs() + 1, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      ctx.metrics().placementFailures.incr();
      ctx.apps().goOnline(a, "placement queue full (" + DatalocKeys.PLACEMENT_MAX_WAITING.fullName()
          + " = " + s.bounds().maxWaiting() + " jobs waiting)");
    }
  }

  /**
   * A job still waiting for its placement or plan past the read timeout plus twice the plan budget is
   * served from its asks (a plan already entering the engine finishes). Idempotent.
   */
  private void overdue(DatalocApp a, Settings s) {
    synchronized (ctx.lock()) {
      ctx.holds().enter();
      try {
        if (!ctx.apps().contains(a.id) || !a.waiting() || a.jobCreated) {
          return;
        }
        ctx.metrics().placementFailures.incr();
        ctx.apps().goOnline(a, "placement and plan took longer than " + DatalocKeys.READ_TIMEOUT.fullName()
            + " + 2 x " + DatalocKeys.PLAN_BUDGET.fullName() + " = "
            + (s.readTimeoutMs() + 2 * s.planBudgetMs()) + " ms");
        ctx.apps().markDirty(a.id);
      } finally {
        ctx.holds().exit("read: overdue");
      }
    }
  }

  private static String timeoutNote(Settings s) {
    return "placement read took longer than " + DatalocKeys.READ_TIMEOUT.fullName() + " = "
        + s.readTimeoutMs() + " ms";
  }

  /** Runs {@code body} under the scheduler's monitor if the job is still in {@code phase}; whether it ran. */
  private boolean ifStill(DatalocApp a, DatalocApp.Phase phase, String site, Runnable body) {
    synchronized (ctx.lock()) {
      ctx.holds().enter();
      try {
        if (a.phase() != phase || !ctx.apps().contains(a.id)) {
          return false;
        }
        try {
          body.run();
        } catch (VirtualMachineError e) {
          throw Containment.escalate(ctx, site, e); // shared state may be half changed
        }
        return true;
      } finally {
        ctx.holds().exit(site);
      }
    }
  }

  /**
   * A job whose placement cannot be read is served from its asks, counted once: by the watchdog
   * or by the read itself, whichever comes first.
   */
  private void readFailed(DatalocApp a, String why) {
    ifStill(a, DatalocApp.Phase.READING, "read: failed", () -> {
      ctx.metrics().placementFailures.incr();
      LOG.warn("Dataloc: cannot read the block placement of {} ({}); serving it online from its asks", a.id, why);
      ctx.apps().goOnline(a, why);
    });
  }

  private void read(DatalocApp a, PlacementReader r, ApplicationSubmissionContext submission, String type,
      ToIntFunction<String> hostId, Settings s) {
    PlacementReader.Placement placement;
    long started = System.nanoTime();
    try {
      ctx.faults().at(FaultInjector.READ, a.id);
      placement = r.read(submission, type, a.user, hostId);
      if (Thread.interrupted()) {
        throw new java.io.InterruptedIOException("interrupted");
      }
      ctx.metrics().readTime.add((System.nanoTime() - started) / 1_000_000);
    } catch (Throwable t) {
      Containment.rethrowIfFatalBesidesOwnWork(t);
      boolean interrupted = t instanceof InterruptedException || t instanceof java.io.InterruptedIOException
          || t instanceof java.nio.channels.ClosedByInterruptException;
      readFailed(a, interrupted ? timeoutNote(s) : "placement read failed: " + t.getMessage());
      return;
    }
    long bytes = placement == null ? 0 : placement.bytes();
    boolean reserved = inFlight.reserve(bytes, s.bounds().maxBytesInFlight());
    ctx.metrics().placementBytesInFlight.set(inFlight.held());
    if (!reserved) {
      ctx.metrics().placementFailures.incr();
      ifStill(a, DatalocApp.Phase.READING, "read: over the byte budget", () -> ctx.apps().goOnline(a,
          "placements waiting to be planned hold " + DatalocKeys.MAX_BYTES_IN_FLIGHT.fullName() + " = "
              + s.bounds().maxBytesInFlight() + " bytes (this one " + bytes + ")"));
      return;
    }
    try {
      plans.execute(() -> plan(a, placement, bytes, s));
    } catch (RejectedExecutionException e) {
      inFlight.release(bytes);
      ctx.metrics().placementBytesInFlight.set(inFlight.held());
      ctx.metrics().placementFailures.incr();
      ifStill(a, DatalocApp.Phase.READING, "read: plan queue full", () -> ctx.apps().goOnline(a,
          "plan queue full (" + DatalocKeys.PLACEMENT_MAX_WAITING.fullName() + ")"));
    }
  }

  /**
   * Plans one job (on the plans thread); any error costs that job its plan, nothing else. Its
   * placement's bytes leave the budget when the plan is made, whatever came of it.
   */
  private void plan(DatalocApp a, PlacementReader.Placement placement, long bytes, Settings s) {
    try {
      ctx.faults().at(FaultInjector.PLAN, a.id);
      planOrThrow(a, placement, s);
    } catch (Throwable t) {
      Containment.rethrowIfFatalBesidesOwnWork(t);
      ctx.metrics().plansFailed.incr();
      LOG.warn("Dataloc: planning {} failed; serving it from its asks", a.id, t);
      synchronized (ctx.lock()) {
        ctx.holds().enter();
        try {
          if (ctx.apps().contains(a.id)) {
            ctx.apps().goOnline(a, "planning failed: " + t);
          }
        } finally {
          ctx.holds().exit("plan: failed");
        }
      }
    } finally {
      inFlight.release(bytes);
      ctx.metrics().placementBytesInFlight.set(inFlight.held());
    }
  }

  private void planOrThrow(DatalocApp a, PlacementReader.Placement placement, Settings s)
      throws InterruptedException {
    // The nodes' sizes come from the node tracker (thread-safe), before the lock is taken.
    Resource map = placement == null ? null : placement.map();
    IntUnaryOperator slotsForJob = sizes.jobSlots(map == null ? null : normalize.apply(map), ctx::engine);
    PlanSnapshot snap = PlanSnapshot.take(ctx, a, placement, slotsForJob);
    if (snap == null) {
      return;
    }
    // The problem is built from the hosts' snapshot, outside the lock (linear in the job).
    PlanInput input = snap.hosts().input(placement.hosts());
    BudgetedPlanner.Result planned =
        budgeted.plan(input.problem(), s.assigner(), s.fallbackAssigner(), s.seed(), s.planBudgetMs());
    if (planned.overBudget()) {
      ctx.metrics().plansOverBudget.incr();
      LOG.warn("Dataloc: planning {} with {} exceeded {} ms; {}", a.id, s.assigner(), s.planBudgetMs(),
          planned.plan() == null ? planned.failure() : "using " + planned.planner());
    } else if (planned.plan() == null) {
      LOG.warn("Dataloc: planning {} failed: {}", a.id, planned.failure());
    }
    Assignment plan = planned.plan();
    AmReplay am = null;
    if (plan != null && placement.amOrder()) {
      // Racks from the hosts' snapshot (with yarn.scheduler.include-port-in-node-name the split's
      // host names match no node, and all go to the default rack).
      int[] racks = snap.rackOfHost();
      am = new AmReplay(placement.hosts(), h -> h < racks.length ? racks[h] : -1, snap.defaultRack());
    }
    PlanApplication prepared = plan == null ? null : PlanApplication.prepare(a.jobId, a.user, input, plan);
    if (prepared != null) {
      prepared.reserve(snap.taskCount(), snap.liveTasks(), snap.capacity()); // arrays grow here, not under the lock
    }
    // The plan's guard reads every task and host of the plan (5-8 ms for 100,000 maps on 10,000
    // nodes): made here too, off the lock.
    PlanGuard guard = plan == null ? null : ctx.guard(input.problem(), plan);
    // The plan enters the engine a chunk at a time, the lock released in between, so a job of any
    // size holds the lock for at most one chunk; its maps are served once all are in.
    PlanEntry applied = new PlanEntry(ctx, a, placement, planned, am, prepared, guard);
    while (applied.more() && ifStill(a, DatalocApp.Phase.PLANNING, "plan: apply", applied::chunk)) {
      // one chunk per hold of the monitor
    }
  }
}
