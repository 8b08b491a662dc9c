package io.dataloc.yarn;

import org.apache.hadoop.yarn.api.records.ApplicationId;

/**
 * A test's way to make the scheduler fail where it works for one application, as Hadoop's
 * {@code DataNodeFaultInjector} does for the DataNode: the default does nothing. The sites are
 * {@link #ASSIGN_MAP} (a map the engine chose for the application), {@link #ASSIGN_OTHER} (an AM,
 * reduce or retried map from its asks), {@link #RECONCILE} (its asks brought into the engine),
 * {@link #COMPLETED} (one of its containers ended), {@link #HEARTBEAT} (a node's heartbeat,
 * before any application's work: {@code app} is null), {@link #READ} (its placement read is
 * about to start, on a placement thread) and {@link #PLAN} (its placement, read, is about to be
 * planned, on the plan thread): the two sites called without the scheduler's lock, where a test
 * may also wait, as a slow file system or a long plan would. Inside the CapacityScheduler:
 * {@link #PRECHECK} (whether a node goes to its map key), {@link #COMMIT} (a map container of
 * its being committed) and {@link #AM_SITING} (whether its AM takes a node), besides {@link #RECONCILE}; the placement component's own code between
 * YARN and the plan service fails at {@link #ALLOCATOR} (the site names the method).
 */
@FunctionalInterface
public interface FaultInjector {

  String ASSIGN_MAP = "assign-map";
  String ASSIGN_OTHER = "assign-other";
  String RECONCILE = "reconcile";
  String COMPLETED = "completed";
  String HEARTBEAT = "heartbeat";
  String READ = "read";
  String PLAN = "plan";
  String PRECHECK = "precheck";
  String COMMIT = "commit";
  String AM_SITING = "am-siting";
  /** Prefix of the placement component's sites: {@code allocator:precheckNode}, {@code allocator:allocate}, .... */
  String ALLOCATOR = "allocator:";

  FaultInjector NONE = (site, app) -> {};

  /**
   * Called at {@code site} (under the scheduler's lock but for {@link #READ} and {@link #PLAN}),
   * working for {@code app} (or null); may throw.
   */
  void at(String site, ApplicationId app);
}
