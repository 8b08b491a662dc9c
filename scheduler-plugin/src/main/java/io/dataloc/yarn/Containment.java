package io.dataloc.yarn;

import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppEvent;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppEventType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Error containment: an exception keeps the RM up (a virtual machine error does not: see
 * {@link #rethrowIfFatal}). One met while working for an application costs
 * that application ({@link #contain}); any other switches the scheduler to plain locality
 * scheduling (every request served from its asks) and leaves the engine alone, as it may be
 * inconsistent, until {@code error.recovery-ms} pass without another error ({@link #recoverIfQuiet})
 * or {@code -refreshQueues} rebuilds it ({@link #endDegraded}).
 */
final class Containment {
  private static final Logger LOG = LoggerFactory.getLogger(PlanService.class);

  private final SchedulerContext ctx;
  /** Replaces the engine with an empty one and sends every application online (under the lock). */
  private final Runnable rebuildEngine;
  private volatile boolean degraded;
  private long lastErrorMillis;

  Containment(SchedulerContext ctx, Runnable rebuildEngine) {
    this.ctx = ctx;
    this.rebuildEngine = rebuildEngine;
  }

  boolean degraded() {
    return degraded;
  }

  /** Handles an error met while {@code what}, blamed on {@code blamed} (null: on no application). */
  void fail(String what, Throwable t, ApplicationId blamed) {
    rethrowIfFatal(t);
    ctx.metrics().errors.incr();
    if (blamed != null) {
      try {
        if (contain(blamed, what, t)) {
          return;
        }
      } catch (Throwable t2) {
        rethrowIfFatal(t2);
        t.addSuppressed(t2);
        what = what + " (and then while taking " + blamed + " out of the engine)";
      }
    }
    degrade(what, t);
  }

  /**
   * Rethrows what the JVM cannot be trusted after: every {@link VirtualMachineError}, out of memory
   * and stack overflow included. Here, on a Hadoop thread, such an error may have struck inside
   * YARN's own bookkeeping (between a container's record and its node's accounting, say), so it
   * goes on to YARN, whose dispatcher ends the ResourceManager and lets the standby take over with
   * a consistent state.
   */
  static void rethrowIfFatal(Throwable t) {
    if (t instanceof VirtualMachineError) {
      throw (VirtualMachineError) t;
    }
    if (t instanceof Escalated) {
      throw (Escalated) t;
    }
  }

  /**
   * A virtual machine error on one of Dataloc's own threads while it changed state the scheduler
   * shares (a plan entering the engine, under the monitor): the books may be half written, so the
   * ResourceManager is told, as YARN's own critical threads tell it ({@code CRITICAL_THREAD_CRASH}:
   * it fails over to the standby, or exits), and the error goes on, wrapped so that no handler of
   * Dataloc's swallows it.
   */
  static Escalated escalate(SchedulerContext ctx, String where, VirtualMachineError e) {
    LOG.error("Dataloc: {} on its own thread while {}: the ResourceManager is told (critical thread crash)",
        e.getClass().getSimpleName(), where, e);
    try {
      ctx.rmContext().getDispatcher().getEventHandler().handle(new org.apache.hadoop.yarn.server.resourcemanager
          .RMFatalEvent(org.apache.hadoop.yarn.server.resourcemanager.RMFatalEventType.CRITICAL_THREAD_CRASH,
              "Dataloc: " + e + " while " + where));
    } catch (RuntimeException | Error again) {
      e.addSuppressed(again);
    }
    return new Escalated(e);
  }

  /** A virtual machine error the ResourceManager has been told of ({@link #escalate}). */
  static final class Escalated extends Error {
    private static final long serialVersionUID = 1L;

    Escalated(VirtualMachineError cause) {
      super(cause);
    }
  }

  /**
   * As {@link #rethrowIfFatal}, on Dataloc's own threads around work only Dataloc allocates (a
   * placement read, a plan): there an out-of-memory or stack-overflow error is that work's own, gone
   * once thrown, and costs only the job it was for; other virtual machine errors are rethrown.
   */
  static void rethrowIfFatalBesidesOwnWork(Throwable t) {
    if (t instanceof VirtualMachineError && !(t instanceof OutOfMemoryError) && !(t instanceof StackOverflowError)) {
      throw (VirtualMachineError) t;
    }
    if (t instanceof Escalated) {
      throw (Escalated) t;
    }
  }

  /**
   * The application an error came from pays for it: the first time it leaves the engine (its plan
   * and queued maps are dropped) and is served from its asks as the FIFO scheduler would; a second
   * error kills it with a diagnostic its user sees. False if the application is not known here
   * (the error is then the scheduler's).
   */
  private boolean contain(ApplicationId id, String what, Throwable t) {
    synchronized (ctx.lock()) {
      DatalocApp a = ctx.apps().get(id);
      if (a == null) {
        return false;
      }
      if (!a.contained) {
        a.contained = true;
        ctx.apps().goOnline(a, "taken out of the engine after a Dataloc error while " + what
            + "; served from its asks");
        ctx.apps().clean(id);
        ctx.metrics().appsContained.incr();
        LOG.warn("Dataloc error while {}: {} leaves the engine and is served from its asks; other applications "
            + "are not affected", what, id, t);
      } else if (!a.killed) {
        a.killed = true;
        ctx.metrics().appsKilled.incr();
        // What the user sees says what happened, not the exception (its text is in the RM's log).
        String msg = "Killed by the Dataloc scheduler after a second error while " + what
            + " (details in the ResourceManager log)";
        LOG.error("Dataloc: {}: {}", id, msg, t);
        ctx.rmContext().getDispatcher().getEventHandler().handle(new RMAppEvent(id, RMAppEventType.KILL, msg));
      } else {
        LOG.warn("Dataloc error while {} for {} (being killed): {}", what, id, t.toString());
      }
      return true;
    }
  }

  private void degrade(String what, Throwable t) {
    synchronized (ctx.lock()) {
      lastErrorMillis = ctx.nowMillis();
      if (!degraded) {
        degraded = true;
        ctx.metrics().degraded.set(1);
        LOG.warn("Dataloc error while {}; degrading to plain locality-aware scheduling", what, t);
      } else {
        LOG.warn("Dataloc error while {} (already degraded): {}", what, t.toString());
      }
    }
  }

  /** After {@code error.recovery-ms} without an error, a degraded spell ends with a new engine. */
  void recoverIfQuiet() {
    long quiet = ctx.settings().recoveryMs();
    if (!degraded || quiet <= 0 || ctx.nowMillis() - lastErrorMillis < quiet) {
      return;
    }
    rebuildEngine.run();
    degraded = false;
    ctx.metrics().degraded.set(0);
    ctx.metrics().recoveries.incr();
    LOG.warn("Dataloc: no error for {} ms: the engine is rebuilt; running jobs are served from their asks, new jobs "
        + "are planned", quiet);
  }

  /** A refresh rebuilt the engine: a degraded spell ends (the operator's way back after an error). */
  void endDegraded() {
    if (degraded) {
      degraded = false;
      ctx.metrics().degraded.set(0);
      LOG.warn("Dataloc: back to locality planning after -refreshQueues (the engine was rebuilt)");
    }
  }
}
