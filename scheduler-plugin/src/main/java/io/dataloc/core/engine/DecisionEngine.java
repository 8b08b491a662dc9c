package io.dataloc.core.engine;

import io.dataloc.core.jobs.JobOrderings;
import io.dataloc.core.model.Assignment;
import io.dataloc.core.model.LocalChains;
import io.dataloc.core.online.OnlinePolicies;
import io.dataloc.core.online.OnlinePolicy;
import java.util.List;

/**
 * The decision engine shared by the ResourceManager adapter and the simulator: events in (hosts
 * come and go, jobs and tasks arrive, slots free up, tasks finish), decisions out (run task i of
 * job J on host h, at a locality level, with a reason). "Plans route, queues serve": a job whose
 * tasks are known together may be planned by an offline assigner against the hosts' current
 * loads, and its tasks enter the policy's queues where the plan put them; tasks that arrive one at
 * a time are routed by the online policy; a free slot is served by the policy.
 *
 * <h2>Protocol</h2>
 *
 * <ol>
 *   <li><b>Hosts</b>: {@link #addHost}; {@link #setSlots} as a host's room changes;
 *       {@link #drainHost} (decommissioning), {@link #removeHost} (lost).
 *   <li><b>Jobs</b>: {@link #submitJob} (routed online); or planned by the caller off its lock
 *       ({@link BudgetedPlanner}, the one planning path): {@link #planHosts} under the lock, the
 *       problem built and planned outside it, then {@link #applySome} a chunk per hold; {@link #addTasks} as an
 *       online job's tasks arrive; {@link #setPriority}, {@link #setParked} (asks for nothing
 *       now); {@link #removeJob}.
 *   <li><b>A free slot</b>: {@link #propose} names the task to run, changing nothing; the caller
 *       checks its own facts, then {@link #commit}s the proposal (the task runs from then on) or
 *       drops it, and asks again with that job excluded. Nothing is taken back: a proposal never
 *       carried out simply is not. Where a refusal says something about the host, it is released
 *       by name — {@link #refuse} (the task routed away from this host), {@link #releaseQueued}
 *       (the job's queue on this host re-routed); each leaves alone a task no longer queued. If the application runs
 *       another task of the job in the container, {@link #proposeReplacement} says how, changing
 *       nothing, and {@link #replaceStarted} commits it. {@link #onSlotFree} proposes and commits
 *       at once (the simulator's slots).
 *   <li><b>Outcomes</b>: {@link #taskFinished} (feeds the learned rates and costs),
 *       {@link #taskFailed}, {@link #dropPending}, {@link #startedOutside} (the application ran a
 *       queued task without a decision).
 * </ol>
 *
 * <p>The engine's parts: {@link EngineHosts}, {@link EngineJobs} (the one owner of jobs and their
 * task lists), {@link Admissions}, {@link StarvationGuard}, {@link Rehomer} (over the shared
 * {@link LocalChains} search), {@link Proposals} (a free slot served) and {@link TaskOutcomes}
 * (a task started, finished, failed, refused or dropped); the state they share is {@link
 * EngineState}'s.
 *
 * <p>Deterministic: no wall clock (the caller advances virtual time with {@link #advanceTo}), one
 * seeded random source, ties by index. Not thread-safe: the adapter calls it under its lock.
 */
public final class DecisionEngine {
  private final EngineConfig config;
  private final EngineState state;
  private final OnlinePolicy policy;
  private final EngineLearning learning;
  private final StarvationGuard guard;
  private final EngineJobs jobs;
  private final Rehomer rehomer;
  private final Admissions admissions;
  private final EngineHosts hosts;
  private final TaskOutcomes outcomes;
  private final Proposals proposals;

  public DecisionEngine(EngineConfig config) {
    this.config = config;
    this.state = new EngineState(config.seed(), JobOrderings.create(config.ordering()));
    this.policy = OnlinePolicies.create(config.policy(), config.nodeDelay(), config.rackDelay());
    this.learning = new EngineLearning(config);
    policy.attach(state, learning.rates());
    this.guard = new StarvationGuard(config.starvation(), state, policy);
    this.jobs = new EngineJobs(state, policy, guard);
    this.rehomer = new Rehomer(state, policy, jobs::pending);
    this.admissions = new Admissions(config, state, policy, jobs, this::planCost);
    this.hosts = new EngineHosts(state, policy, guard);
    this.outcomes = new TaskOutcomes(state, policy, guard, jobs, learning);
    this.proposals = new Proposals(state, policy, guard, jobs, outcomes);
  }

  /** Read-only view for reports, tests and the scheduler page. */
  public EngineState state() {
    return state;
  }

  public OnlinePolicy policy() {
    return policy;
  }

  /**
   * Advances virtual time (never backwards), and releases the next tasks of removed jobs, if any
   * ({@link #removeJob}): the front ends call it at every heartbeat.
   */
  public void advanceTo(long now) {
    state.now = Math.max(state.now, now);
    jobs.reclaim(EngineJobs.RECLAIM_CHUNK);
  }

  /** Adds (or revives) a host; {@code rack} may be null. Returns its index. */
  public int addHost(String name, String rack, int slots) {
    return hosts.add(name, rack, slots);
  }

  /**
   * The host is being decommissioned: no new tasks or plans; its queue re-routed, its running tasks
   * run on ({@link #removeHost} when it leaves, {@link #addHost} if it comes back). Idempotent.
   */
  public int drainHost(int host) {
    return hosts.drain(host);
  }

  /** How many tasks the host may run at once now (its free room; 0 while other work fills it). */
  public void setSlots(int host, int slots) {
    hosts.setSlots(host, slots);
  }

  /**
   * The host is gone: its queued tasks are routed again and its running tasks become pending
   * again (the AM will re-run them). Returns how many tasks were re-routed.
   */
  public int removeHost(int host) {
    return hosts.remove(host, outcomes::backToPending);
  }

  /** A job with its tasks routed online (no plan). {@code replicaHosts[i]} are host names. */
  public Admission submitJob(long jobId, String user, List<List<String>> replicaHosts) {
    return admissions.submitJob(jobId, user, replicaHosts);
  }

  /**
   * The planning problem for a job's tasks against the current cluster, where host {@code h} runs
   * at most {@code jobSlots.applyAsInt(h)} of them at once (null if no live host).
   */
  PlanInput planInput(List<List<String>> replicaHosts, java.util.function.IntUnaryOperator jobSlots) {
    return admissions.planInput(replicaHosts, jobSlots);
  }

  /** The cost model plans are made with now: the configured one, raised by {@link CostLearning}. */
  io.dataloc.core.model.CostModel planCost() {
    return learning.planCost();
  }

  /**
   * The hosts a plan is made on, with their slots for this job and their backlog ({@link
   * PlanHosts#of}): the caller takes this under its lock in {@code O(hosts)} and builds the problem
   * (linear in the job) outside it, with {@link PlanHosts#input}. Null if no host is live.
   */
  public PlanHosts planHosts(java.util.function.IntUnaryOperator jobSlots) {
    return admissions.planHosts(jobSlots);
  }

  /** Admits a job with a plan computed elsewhere, all at once (tests; the adapter uses {@link #applySome}). */
  Admission applyPlan(long jobId, String user, List<List<String>> replicaHosts, PlanInput in, Assignment plan) {
    return admissions.applyPlan(jobId, user, in, plan);
  }

  /**
   * Applies up to {@code maxTasks} more tasks of a prepared plan: the first call admits the job;
   * each task enters its planned host's queue if that host is alive, else it is routed. The
   * job's tasks already applied may be served meanwhile. Returns true when every task is in.
   */
  public boolean applySome(PlanApplication app, int maxTasks) {
    return admissions.applySome(app, maxTasks);
  }

  /** Tasks of an existing job arriving one at a time (or a new job's first ones). */
  public void addTasks(long jobId, String user, List<List<String>> replicaHosts) {
    admissions.addTasks(jobId, user, replicaHosts);
  }

  /**
   * The job is gone (finished or killed): from now on no decision serves it, its pending tasks are
   * dropped, its running ones stop counting, and every one of its task numbers is freed for reuse;
   * returns how many were pending. Its tasks are released {@value EngineJobs#RECLAIM_CHUNK} per call,
   * the earliest removed job's first: the first part now, the rest at the next calls of {@link
   * #advanceTo} (a job's tasks all at once held the ResourceManager's lock for 75-81 ms of CPU with
   * 100,000 maps); until then they count in their hosts' loads and queues.
   */
  public int removeJob(long jobId) {
    return jobs.remove(jobId);
  }

  /** Whether removed jobs' tasks are still being released ({@link #removeJob}). */
  public boolean reclaiming() {
    return jobs.reclaiming();
  }

  public JobState job(long jobId) {
    return jobs.get(jobId);
  }

  public int activeJobs() {
    return jobs.count();
  }

  /**
   * One free slot is served now by {@link #propose}s, each refused proposal's job excluded from
   * the next, until one is committed or the slot is given up ({@link #endSlot}, always). Between
   * the proposals only the refused jobs' tasks may change (released, routed away); the starvation
   * guard and the policy ({@link OnlinePolicy#beginSlot}) rely on that to look at each job once per
   * slot.
   */
  public void beginSlot() {
    proposals.beginSlot();
  }

  /** The slot begun by {@link #beginSlot} is served or given up. */
  public void endSlot() {
    proposals.endSlot();
  }

  /**
   * Turns the per-slot memory of the guard and the policy off (a test compares the decisions with
   * and without it); the guard owns the switch.
   */
  void forgetLooks() {
    guard.forgetLooks();
  }

  /** A slot on {@code host} is free: what runs there, or null; {@link #propose} and {@link #commit} at once. */
  public Decision onSlotFree(int host) {
    Decision d = propose(host, java.util.Set.of());
    return d == null ? null : commit(d);
  }

  /**
   * A slot on {@code host} is free: the task the engine would run there, never one of the excluded
   * jobs (caller's ids), or null. Changes no task, queue or job — the task stays queued until
   * {@link #commit}, and asking again gives the same answer — but for the decision clock, which
   * counts every question (the starvation guard's rounds), and a slot left idle: with no task to
   * propose, the policy hears that the slot was passed up (delay scheduling counts a skip).
   */
  public Decision propose(int host, java.util.Set<Long> excludedJobs) {
    return proposals.propose(host, excludedJobs);
  }

  /**
   * The task job {@code jobId} would run in a free slot on {@code host}, or null (unknown, parked,
   * nothing for this host): for a front end whose own queues chose the job (the CapacityScheduler),
   * which asks on every visit of every node. Pure: no clock ticks, no pass is heard, the starvation
   * guard is not asked (the front end chooses across jobs); asking again gives the same answer. A
   * proposal like {@link #propose}'s, carried out with {@link #commit}. Amortised {@code O(1)} for
   * queue-based policies ({@link OnlinePolicy#pickFor}).
   */
  public Decision proposeFor(long jobId, int host) {
    return proposals.proposeFor(jobId, host);
  }

  /**
   * The caller carries out proposal {@code d} (the latest {@link #propose}, nothing having changed
   * since): its task leaves its queue and runs on the host from now on. Returns {@code d}. A
   * proposal whose task is no longer queued, or whose host is gone, is a caller's error.
   */
  public Decision commit(Decision d) {
    return proposals.commit(d);
  }

  /**
   * Parks a job (its tasks stay where they are, and no decision hands one out) or lets it run
   * again: for an application that asks for no containers now, so its tasks are not taken out and
   * put back on every heartbeat. Idempotent; unknown jobs are ignored.
   */
  public void setParked(long jobId, boolean park) {
    jobs.setParked(jobId, park);
  }

  /**
   * Sets a job's priority (YARN's application priority): a job of higher priority is served
   * first from every queue, whatever the job ordering says; the ordering ranks jobs of equal
   * priority. The starvation guard still serves a job of lower priority that has waited its
   * rounds. Unknown jobs are ignored.
   */
  public void setPriority(long jobId, int priority) {
    jobs.setPriority(jobId, priority);
  }

  /**
   * The application ran this queued task on {@code host} with no decision of the engine (its maps
   * were served from its asks while its plan was made): the task leaves its queue and runs there.
   * Returns false, changing nothing, if the task is not queued or the host is not live.
   */
  public boolean startedOutside(int task, int host) {
    return outcomes.startedOutside(task, host);
  }

  /** Whether the job is parked (tests and reports). */
  public boolean parked(long jobId) {
    return jobs.parked(jobId);
  }

  /**
   * Proposes, changing nothing, how the engine would take the application running {@code
   * actualTask} in the container decided for {@code d} (see {@link Rehoming}): {@code d}'s task
   * goes back to a host queue where it is local, pushing queued tasks of the same job along a
   * {@linkplain LocalChains chain} of hosts where each is local, ending at the queue {@code
   * actualTask} leaves (every host keeps its planned number of tasks) or at a host with less work
   * (running and queued) than the decision's host. It keeps locality as well when {@code
   * actualTask} was not queued on a host (the common queue takes {@code d}'s task), when {@code
   * d}'s task did not come from this host's own queue (it goes back to the queue it came from), or
   * when the job is too large to search.
   */
  public Rehoming proposeReplacement(Decision d, int actualTask) {
    return rehomer.propose(d, actualTask);
  }

  /**
   * The application ran {@code actualTask} where decision {@code d} meant {@code d.task()} (the
   * MapReduce AM picks the first pending task in the host's list, which may differ): the actual
   * task becomes running on the decision's host, the decided one pending again. If it came from
   * this host's queue and a local chain exists ({@code proposal}'s, if it is for this pair and
   * still holds; else searched now), queued tasks shift along it so every host keeps its planned
   * number of local tasks; otherwise it returns to the queue it came from. Returns the decision as
   * it really is. {@code proposal} may be null.
   */
  public Decision replaceStarted(Decision d, int actualTask, Rehoming proposal) {
    return rehomer.commit(d, actualTask, proposal, outcomes::started);
  }

  /**
   * The job cannot use {@code host} for now (its tasks there would not be local): its tasks queued
   * for that host are routed again, to hosts that can run them. Returns how many moved.
   */
  public int releaseQueued(long jobId, int host) {
    return jobs.releaseQueued(jobId, host);
  }

  /** Tasks of a job queued in {@code host}'s local queue, but for task {@code except} (-1: none). */
  public int queuedOn(long jobId, int host, int except) {
    return jobs.queuedOn(jobId, host, except);
  }

  /** Pending (queued) engine tasks of a job, in task order. */
  public List<Integer> pendingTasks(long jobId) {
    return jobs.pending(jobId);
  }

  /** Drops one pending task (the application no longer needs it); false if it was not pending. */
  public boolean dropPending(int task) {
    return outcomes.dropPending(task);
  }

  /** The task finished: frees its slot, charges its user, feeds rate learning. */
  public void taskFinished(int task) {
    outcomes.finished(task);
  }

  /**
   * Proposal {@code d} cannot run on its host (the node is blacklisted for the application, or its
   * asks forbid it): the task, still queued, is routed anew anywhere but there. A task no longer
   * queued is left alone.
   */
  public void refuse(Decision d) {
    outcomes.refuse(d);
  }

  /** The task failed or its container was lost: it becomes pending again and is routed. */
  public void taskFailed(int task) {
    outcomes.failed(task);
  }

  /** The engine task number of a job's i-th task, or -1. */
  public int task(long jobId, int indexInJob) {
    return jobs.task(jobId, indexInJob);
  }
}
