package io.dataloc.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.core.workload.Scenarios;
import io.dataloc.yarn.CapacityPlans;
import io.dataloc.yarn.cs.DatalocCapacityScheduler;
import java.lang.reflect.Field;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractYarnScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.AppSchedulingInfo;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ClusterNodeTracker;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplicationAttempt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lock rule of the CapacityScheduler mode, checked while a planned job runs: Dataloc's plan
 * lock is a leaf — no lock of the CapacityScheduler, of an application attempt, of its
 * {@code AppSchedulingInfo} or of the node tracker is ever taken while it is held (Hadoop takes
 * those before calling Dataloc, so the other order could deadlock). The scheduler's, the attempt's,
 * its scheduling info's and the node tracker's read-write locks are swapped for checked ones
 * while the ResourceManager is idle; each acquisition asks whether the thread holds the plan lock.
 * The checker is shown to catch a violation made on purpose.
 */
class LockOrderTest {
  @TempDir Path dir;

  private static final List<String> VIOLATIONS = new CopyOnWriteArrayList<>();
  private static volatile Object planLock;
  private static final java.util.concurrent.atomic.AtomicLong CHECKED = new java.util.concurrent.atomic.AtomicLong();

  private static void check(String name) {
    CHECKED.incrementAndGet();
    Object l = planLock;
    if (l != null && Thread.holdsLock(l)) {
      StringBuilder where = new StringBuilder(name + " taken under the plan lock on " + Thread.currentThread().getName());
      for (StackTraceElement e : new Throwable().getStackTrace()) {
        where.append("\n  at ").append(e);
      }
      VIOLATIONS.add(where.toString());
    }
  }

  /** A read-write lock whose every acquisition is checked. */
  private static final class Checked extends ReentrantReadWriteLock {
    private final ReadLock read;
    private final WriteLock write;

    Checked(String name) {
      read = new ReadLock(this) {
        @Override public void lock() { check(name + " read"); super.lock(); }
        @Override public void lockInterruptibly() throws InterruptedException { check(name + " read"); super.lockInterruptibly(); }
        @Override public boolean tryLock() { check(name + " read"); return super.tryLock(); }
        @Override public boolean tryLock(long t, TimeUnit u) throws InterruptedException { check(name + " read"); return super.tryLock(t, u); }
      };
      write = new WriteLock(this) {
        @Override public void lock() { check(name + " write"); super.lock(); }
        @Override public void lockInterruptibly() throws InterruptedException { check(name + " write"); super.lockInterruptibly(); }
        @Override public boolean tryLock() { check(name + " write"); return super.tryLock(); }
        @Override public boolean tryLock(long t, TimeUnit u) throws InterruptedException { check(name + " write"); return super.tryLock(t, u); }
      };
    }

    @Override public ReadLock readLock() { return read; }
    @Override public WriteLock writeLock() { return write; }
  }

  private static void swap(Object owner, Class<?> declaring, String name) throws ReflectiveOperationException {
    Checked c = new Checked(declaring.getSimpleName());
    Field r = declaring.getDeclaredField("readLock");
    Field w = declaring.getDeclaredField("writeLock");
    r.setAccessible(true);
    w.setAccessible(true);
    r.set(owner, c.readLock());
    w.set(owner, c.writeLock());
  }

  @Test
  void thePlanLockIsALeaf() throws Exception {
    var topology = Scenarios.twoRacks(4);
    List<List<String>> splits = java.util.Collections.nCopies(60, List.of("h1", "h2"));
    var settings = new java.util.LinkedHashMap<>(CapacityModeTest.twoQueues(true, false));
    settings.put("yarn.scheduler.dataloc.cs.max-wait-ms", "50");
    try (MiniMr c = MiniMr.start(DatalocCapacityScheduler.class, settings, topology, 8192, dir)) {
      DatalocCapacityScheduler cs = (DatalocCapacityScheduler) c.rm.getResourceScheduler();
      CapacityPlans plans = cs.plans();
      c.rm.drainEvents();
      swap(cs, AbstractYarnScheduler.class, "scheduler");
      Field tracker = AbstractYarnScheduler.class.getDeclaredField("nodeTracker");
      tracker.setAccessible(true);
      swap(tracker.get(cs), ClusterNodeTracker.class, "node tracker");
      planLock = plans.lockForTesting();
      RMApp app = c.submitEdited("alice", splits, sub -> sub.setQueue("a"));
      MrJob job = c.launch(app, "h1", splits);
      var attempt = cs.getApplicationAttempt(app.getCurrentAppAttempt().getAppAttemptId());
      swap(attempt, SchedulerApplicationAttempt.class, "attempt");
      swap(attempt.getAppSchedulingInfo(), AppSchedulingInfo.class, "scheduling info");
      CapacityModeTest.awaitPhase(c, app, "planned");
      long before = CHECKED.get();
      assertTrue(Rounds.run(c, job, 300) > 0, job.describe());
      assertTrue(CHECKED.get() - before > 100, "the checked locks were taken while the job ran: " + (CHECKED.get() - before));
      assertTrue(plans.metrics().mapsNodeLocal() > 0, "the plan lock was taken while the job ran");
      assertEquals(List.of(), VIOLATIONS, "no lock taken under the plan lock");
      // The checker catches the other order.
      synchronized (plans.lockForTesting()) {
        cs.getNodeTracker().getAllNodes();
      }
      assertEquals(1, VIOLATIONS.size(), "a violation made on purpose is caught");
    } finally {
      planLock = null;
      VIOLATIONS.clear();
    }
  }
}
