package io.dataloc.yarn;

import java.util.function.Function;
import java.util.function.ToIntFunction;
import java.util.function.UnaryOperator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;

/**
 * The plan service both front ends share — the standalone {@link LocalityScheduler} and the
 * CapacityScheduler's placement component ({@code io.dataloc.yarn.cs}): the engine and the
 * settings ({@link DatalocState}), the registry of applications, the placement read and the plan
 * ({@link PlacementPipeline}, {@link PlanEntry}), the engine's hosts ({@link EngineNodes}), the
 * engine kept true to the asks ({@link JobAsks}), what an error costs ({@link Containment}) and why
 * a job waits ({@link WaitReports}).
 * One of each per ResourceManager; no front end keeps a second copy of any.
 *
 * <p><b>The plan lock.</b> Every part changes shared state under one lock: the standalone
 * scheduler's monitor, or inside the CapacityScheduler a leaf lock of the service's own. Hadoop
 * holds the CapacityScheduler's lock, then an application's, then its {@code AppSchedulingInfo}'s
 * when it calls the component; so under the plan lock nothing calls back into the
 * CapacityScheduler, an attempt, an {@code AppSchedulingInfo}, the node tracker, or does blocking
 * I/O: a front end snapshots what it needs first, then takes the lock.
 */
final class PlanService {
  final DatalocState state;
  final NodeSizes sizes;
  final PlacementPipeline pipeline;
  final Containment containment;
  final EngineNodes nodes;
  final JobAsks asks;
  final WaitReports waits;

  /**
   * @param lock the plan lock (see the class comment)
   * @param attempts an application's current attempt (standalone only; else every answer null)
   * @param priorities an application's priority as YARN holds it
   * @param clock the front end's clock in ms (YARN's {@code Clock})
   * @param timedDeclines a plan's declines are bounded in ms on {@code clock} (else counted per heartbeat)
   * @param rebuild replaces the engine after a degraded spell (under the plan lock)
   */
  PlanService(Object lock, Settings settings, Configuration rmConf, RMContext rmContext,
      NodeSizes sizes, UnaryOperator<Resource> normalize, Function<ApplicationId, DatalocAppAttempt> attempts,
      ToIntFunction<ApplicationId> priorities, java.util.function.LongSupplier clock, boolean timedDeclines,
      java.util.function.Consumer<Settings> rebuild) {
    this.sizes = sizes;
    state = new DatalocState(lock, settings, DatalocMetrics.register(), rmContext, attempts, priorities,
        clock, timedDeclines);
    containment = new Containment(state, () -> rebuild.accept(state.settings()));
    pipeline = new PlacementPipeline(state, sizes, normalize, rmConf);
    nodes = new EngineNodes(state);
    asks = new JobAsks(state);
    waits = new WaitReports(state);
  }

  void stop() {
    pipeline.stop();
  }
}
