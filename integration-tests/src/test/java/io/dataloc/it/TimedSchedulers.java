package io.dataloc.it;

import io.dataloc.yarn.LocalityScheduler;
import java.util.List;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.api.records.SchedulingRequest;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.Allocation;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ContainerUpdates;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.SchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.SchedulerEventType;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler;

/**
 * Each scheduler under test, unchanged but for a clock around {@code handle} and
 * {@code allocate}: the RM calls them exactly as it calls the stock classes.
 */
final class TimedSchedulers {
  private TimedSchedulers() {}

  private static final java.lang.management.ThreadMXBean THREADS =
      java.lang.management.ManagementFactory.getThreadMXBean();

  static void timed(SchedulerEvent event, Runnable handling) {
    long c0 = THREADS.getCurrentThreadCpuTime();
    long t0 = System.nanoTime();
    handling.run();
    SchedulerClock.event(event.getType() == SchedulerEventType.NODE_UPDATE, System.nanoTime() - t0);
    SchedulerClock.cpu(THREADS.getCurrentThreadCpuTime() - c0);
  }

  static Allocation timed(java.util.function.Supplier<Allocation> allocating) {
    long c0 = THREADS.getCurrentThreadCpuTime();
    long t0 = System.nanoTime();
    try {
      return allocating.get();
    } finally {
      SchedulerClock.allocate(System.nanoTime() - t0);
      SchedulerClock.cpu(THREADS.getCurrentThreadCpuTime() - c0);
    }
  }

  public static final class Dataloc extends LocalityScheduler {
    @Override
    public void handle(SchedulerEvent event) {
      timed(event, () -> super.handle(event));
    }

    @Override
    public Allocation allocate(ApplicationAttemptId id, List<ResourceRequest> ask, List<SchedulingRequest> sr,
        List<ContainerId> release, List<String> add, List<String> remove, ContainerUpdates updates) {
      return timed(() -> super.allocate(id, ask, sr, release, add, remove, updates));
    }
  }

  public static final class Capacity extends CapacityScheduler {
    @Override
    public void handle(SchedulerEvent event) {
      timed(event, () -> super.handle(event));
    }

    @Override
    public Allocation allocate(ApplicationAttemptId id, List<ResourceRequest> ask, List<SchedulingRequest> sr,
        List<ContainerId> release, List<String> add, List<String> remove, ContainerUpdates updates) {
      return timed(() -> super.allocate(id, ask, sr, release, add, remove, updates));
    }
  }

  public static final class Fair extends FairScheduler {
    @Override
    public void handle(SchedulerEvent event) {
      timed(event, () -> super.handle(event));
    }

    @Override
    public Allocation allocate(ApplicationAttemptId id, List<ResourceRequest> ask, List<SchedulingRequest> sr,
        List<ContainerId> release, List<String> add, List<String> remove, ContainerUpdates updates) {
      return timed(() -> super.allocate(id, ask, sr, release, add, remove, updates));
    }
  }

  public static final class CapacityDataloc extends io.dataloc.yarn.cs.DatalocCapacityScheduler {
    @Override
    public void handle(SchedulerEvent event) {
      timed(event, () -> super.handle(event));
    }

    @Override
    public Allocation allocate(ApplicationAttemptId id, List<ResourceRequest> ask, List<SchedulingRequest> sr,
        List<ContainerId> release, List<String> add, List<String> remove, ContainerUpdates updates) {
      return timed(() -> super.allocate(id, ask, sr, release, add, remove, updates));
    }
  }
}
