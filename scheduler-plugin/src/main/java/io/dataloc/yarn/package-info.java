/**
 * The ResourceManager adapter: {@link io.dataloc.yarn.LocalityScheduler} translates YARN's facts
 * for the engine of {@code io.dataloc.core} and carries out what it proposes.
 *
 * <h2>Parts</h2>
 *
 * {@code LocalityScheduler} keeps YARN's scheduler contract and the lock, {@code
 * SchedulerEventDispatch} hands each of its events to the part that carries it out; each part below does one job, wired once in {@code SchedulerParts}, and all share one
 * {@code DatalocState} (the engine, the settings, the metrics, the registry):
 *
 * <ul>
 *   <li>{@code AppRegistry}: the one owner of the id translations (application ↔ engine job,
 *       container → task) and of the applications whose asks changed; {@code DatalocApp}: one
 *       application's state machine (ONLINE → READING → PLANNING → PLANNED, any → ONLINE);
 *   <li>{@code AppLifecycle}: applications and attempts added and removed;
 *       {@code NodeEvents}: nodes added, resized, relabelled, decommissioned, lost;
 *   <li>{@code PlacementPipeline}: the placement read, the plan within its budget, the plan's
 *       entry into the engine in chunks;
 *   <li>{@code Heartbeat}: one node heartbeat's order; {@code EngineMaps}: YARN's facts for the
 *       core's free-slot loop ({@code core.am.MapService}: the engine's decision, the plan's
 *       declines, the AM's replay); {@code OtherWork}: everything the engine does not serve, as
 *       the FIFO scheduler serves it, but for AMs: {@code AmAsks} (whether a node can take an
 *       AM now, the one predicate), {@code AmAdmissions} (which AM the AM limit lets in next,
 *       {@code core.am.AmAdmission}) and {@code AmSites} (on which node,
 *       {@code core.am.AmSiting}); {@code Containers}: one container allocated, counted,
 *       completed;
 *   <li>{@code AskSync}: the engine kept true to the asks ({@code core.am.AskReconciler});
 *       {@code AmHeartbeat}: an AM's {@code allocate};
 *   <li>{@code ClusterRoom}: used resources, the AM limit, labelled nodes, headroom;
 *       {@code Priorities}: application priorities and their ACLs; {@code Containment}: what an
 *       error costs; {@code SchedulerReports}: read-only views.
 * </ul>
 *
 * <h2>Threads</h2>
 *
 * <ul>
 *   <li><b>The RM's scheduler dispatcher</b> calls {@code handle}: node heartbeats
 *       ({@code nodeUpdate}), applications and attempts added and removed, containers expired,
 *       nodes added, removed and resized; each that changes scheduling state takes the scheduler's
 *       monitor.
 *   <li><b>ApplicationMasterService handler threads</b> call {@code allocate}: containers the AM
 *       gives back are released first, under the scheduler's monitor (as YARN completes any
 *       container), with no attempt lock held; then it takes only the attempt's monitor (then the
 *       attempt's write lock, inside YARN's code) and marks the application in a concurrent set
 *       that the next heartbeat reconciles under the monitor.
 *   <li><b>ClientRMService handler threads</b> at submission call
 *       {@code checkAndGetApplicationPriority}: the submit and priority ACLs, resolving the user's
 *       groups (LDAP, a shell), with no lock of ours.
 *   <li><b>ClientRMService handler threads</b>: {@code updateApplicationPriority} takes
 *       {@code priorityChanges} around its state-store write, then the monitor to apply it;
 *       {@code getQueueInfo}, {@code checkAccess} and {@code getQueueUserAclInfo} take no lock of
 *       ours; {@code getAppsInQueue} takes the monitor.
 *   <li><b>{@code dataloc-placement}</b> ({@code placement.threads}): reads a job's split file and
 *       {@code job.xml} with no lock held; a failure takes the monitor to serve the job from its
 *       asks.
 *   <li><b>{@code dataloc-read-watchdog}</b>: cancels a read past {@code placement.read-timeout-ms}.
 *   <li><b>{@code dataloc-plans}</b>, one job at a time: takes the monitor for a snapshot of the
 *       hosts, builds the problem and plans with no lock held ({@code dataloc-planner} runs the
 *       assigner within its budget), then enters the plan into the engine a chunk at a time, the
 *       monitor taken per chunk.
 *   <li><b>Web and JMX threads</b>: the scheduler page takes the monitor for a snapshot; metrics
 *       are atomic.
 * </ul>
 *
 * <h2>Lock order</h2>
 *
 * {@code priorityChanges} → the scheduler's monitor → an attempt's monitor → that attempt's
 * write lock. No code takes them in another order: {@code allocate} takes the monitor only to
 * release containers, before any attempt lock. Work under the monitor reads no file, makes no
 * RPC, resolves no group and waits for no planner or other thread; it writes log lines through
 * the RM's appenders. Every hold of the monitor is measured ({@code LockHolds}); the RM benchmark
 * reports the longest.
 */
package io.dataloc.yarn;
