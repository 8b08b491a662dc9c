package io.dataloc.core.engine;

import io.dataloc.core.jobs.JobOrderings;
import io.dataloc.core.model.Assignment;
import io.dataloc.core.model.Evaluation;
import io.dataloc.core.model.Level;
import io.dataloc.core.model.LocalChains;
import io.dataloc.core.offline.Assigner;
import io.dataloc.core.offline.AssignerOptions;
import io.dataloc.core.offline.Assigners;
import io.dataloc.core.online.OnlinePolicies;
import io.dataloc.core.online.OnlinePolicy;
import io.dataloc.core.online.ServiceRates;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;

/**
 * The decision engine shared by the ResourceManager adapter and the simulator: events in (hosts
 * come and go, jobs and tasks arrive, slots free up, tasks finish), decisions out (run task i of
 * job J on host h, at a locality level, with a reason). "Plans route, queues serve": a job whose
 * tasks are known together may be planned by an offline {@link Assigner} against the hosts'
 * current loads, and its tasks enter the policy's queues where the plan put them; tasks that
 * arrive one at a time are routed by the online policy; a free slot is served by the policy.
 *
 * <p>Deterministic: no wall clock (the caller advances virtual time with {@link #advanceTo}), one
 * seeded random source, ties by index. Not thread-safe: the adapter calls it under its one lock.
 */
public final class DecisionEngine {
  private final EngineConfig config;
  private final EngineState state;
  private final OnlinePolicy policy;
  private final ServiceRates rates;
  private final CostLearning costs;
  /** How long finished tasks took at each level: the one record rates and learned costs read. */
  private final io.dataloc.core.model.ObservedDurations observed = new io.dataloc.core.model.ObservedDurations();
  private final Assigner planner;
  private final Map<Long, JobState> jobs = new LinkedHashMap<>();
  private final Map<JobState, List<Integer>> jobTasks = new HashMap<>();
  /**
   * Tasks that arrived one at a time (not from a plan): forgotten as soon as they finish or are
   * dropped, so a job that lives long and runs many of them holds only its live ones.
   */
  private final java.util.BitSet oneByOne = new java.util.BitSet();
  private long[] startedAt = new long[64];
  private int nextJobIndex;

  public DecisionEngine(EngineConfig config) {
    this.config = config;
    this.state = new EngineState(config.seed(), JobOrderings.create(config.ordering()));
    this.policy = OnlinePolicies.create(config.policy(), config.nodeDelay(), config.rackDelay());
    this.rates = new ServiceRates(config.alpha(), config.beta(), config.gamma(), config.learnSamples());
    this.costs = new CostLearning(config.costLearnSamples());
    this.planner = config.planner().equals("none") ? null
        : Assigners.create(config.planner(), AssignerOptions.defaults().withSeed(config.seed()));
    policy.attach(state, rates);
  }

  public EngineConfig config() {
    return config;
  }

  /** Read-only view for reports, tests and the scheduler page. */
  public EngineState state() {
    return state;
  }

  public OnlinePolicy policy() {
    return policy;
  }

  public ServiceRates rates() {
    return rates;
  }

  /** Advances virtual time (never backwards). */
  public void advanceTo(long now) {
    state.now = Math.max(state.now, now);
  }

  // ---------------------------------------------------------------- hosts

  /** Adds (or revives) a host; {@code rack} may be null. Returns its index. */
  public int addHost(String name, String rack, int slots) {
    if (slots < 0) {
      throw new IllegalArgumentException("host " + name + ": slots must be >= 0");
    }
    int h = state.addHost(name, rack, slots);
    liveSlots = -1;
    policy.hostAdded(h);
    return h;
  }

  /**
   * The host is being decommissioned: it takes no new tasks and no plan puts work on it; its
   * queued tasks are routed again; its running tasks run on ({@link #removeHost} when it leaves,
   * {@link #addHost} if it comes back). Returns how many tasks were re-routed. Idempotent.
   */
  public int drainHost(int host) {
    if (host < 0 || host >= state.hostCount() || !state.alive(host)) {
      return 0;
    }
    state.setAlive(host, false);
    state.setDraining(host, true);
    liveSlots = -1;
    int moved = 0;
    for (int t : policy.hostLost(host)) {
      policy.route(t);
      moved++;
    }
    return moved;
  }

  public void setSlots(int host, int slots) {
    liveSlots = -1;
    state.setSlots(host, Math.max(0, slots));
  }

  /**
   * The host is gone: its queued tasks are routed again and its running tasks become pending
   * again (the AM will re-run them). Returns how many tasks were re-routed.
   */
  public int removeHost(int host) {
    if (host < 0 || host >= state.hostCount() || !state.alive(host) && !state.draining(host)) {
      return 0;
    }
    int moved = drainHost(host);
    state.setDraining(host, false);
    for (int t = 0; t < state.taskCount(); t++) {
      if (state.state(t) == TaskState.RUNNING && state.hostOf(t) == host && backToPending(t)) {
        policy.route(t);
        moved++;
      }
    }
    return moved;
  }

  // ---------------------------------------------------------------- jobs

  /** What happened when a job was admitted. */
  public record Admission(long jobId, int tasks, boolean planned, String planner, Evaluation plan, String note) {}

  /** A job with its tasks routed online (no plan). {@code replicaHosts[i]} are host names. */
  public Admission submitJob(long jobId, String user, List<List<String>> replicaHosts) {
    JobState j = newJob(jobId, user);
    for (List<String> reps : replicaHosts) {
      policy.route(addOneByOne(j, reps));
    }
    return new Admission(jobId, replicaHosts.size(), false, "none", null, "routed online");
  }

  /**
   * A job whose tasks arrive together: planned with the configured assigner against the hosts'
   * current loads, unless there is no planner, the job exceeds the plan size limit, or no host is
   * alive; then routed online. A failing planner never loses tasks: they are routed online.
   */
  public Admission submitPlannedJob(long jobId, String user, List<List<String>> replicaHosts) {
    if (planner == null) {
      return submitJob(jobId, user, replicaHosts);
    }
    if (replicaHosts.size() > config.maxPlanTasks()) {
      Admission a = submitJob(jobId, user, replicaHosts);
      return new Admission(jobId, a.tasks(), false, planner.name(), null,
          "job has " + replicaHosts.size() + " tasks, above the plan limit " + config.maxPlanTasks());
    }
    PlanInput in = planInput(replicaHosts);
    if (in == null) {
      Admission a = submitJob(jobId, user, replicaHosts);
      return new Admission(jobId, a.tasks(), false, planner.name(), null, "no live host to plan on");
    }
    Assignment plan;
    try {
      plan = planner.assign(in.problem());
    } catch (RuntimeException e) {
      Admission a = submitJob(jobId, user, replicaHosts);
      return new Admission(jobId, a.tasks(), false, planner.name(), null, "planner failed: " + e.getMessage());
    }
    return applyPlan(jobId, user, replicaHosts, in, plan);
  }

  /** The planning problem for a job's tasks against the current cluster (null if no live host). */
  public PlanInput planInput(List<List<String>> replicaHosts) {
    return planInput(replicaHosts, state::slots);
  }

  /**
   * As above, where host {@code h} runs {@code jobSlots.applyAsInt(h)} of this job's tasks at once
   * (a job whose containers are larger than the cluster's slot fits fewer), never more than its
   * slots and never fewer than one.
   */
  public PlanInput planInput(List<List<String>> replicaHosts, java.util.function.IntUnaryOperator jobSlots) {
    PlanHosts hosts = planHosts(jobSlots);
    return hosts == null ? null : hosts.input(replicaHosts);
  }

  /**
   * The live hosts a plan may use and the work each holds now, for {@link PlanHosts#input} to build
   * the problem from without the engine: the caller takes this under its lock in {@code O(hosts)}
   * and builds the problem (linear in the job) outside it. Null if no host is alive.
   */
  /** The cost model plans are made with now: the configured one, raised by {@link CostLearning}. */
  public io.dataloc.core.model.CostModel planCost() {
    return costs.costs(config.planCost(), observed);
  }

  /**
   * The hosts a plan is made on, with their slots for this job and their backlog: the live hosts
   * with map slots now. When no live host has one — a cluster full at this moment, of other work or
   * of this job's own maps started before its plan — every live host, with the slots the job's
   * containers would have there: the plan's tasks then wait in their queues until slots free.
   * Null if no host is live.
   */
  public PlanHosts planHosts(java.util.function.IntUnaryOperator jobSlots) {
    int hostCount = state.hostCount();
    int live = 0;
    int withSlots = 0;
    for (int h = 0; h < hostCount; h++) {
      if (state.alive(h)) {
        live++;
        withSlots += state.slots(h) > 0 ? 1 : 0;
      }
    }
    if (live == 0) {
      return null;
    }
    boolean full = withSlots == 0;
    int n = full ? live : withSlots;
    boolean racks = true;
    String[] names = new String[n];
    String[] rackNames = new String[n];
    int[] slots = new int[n];
    long[] loads = new long[n];
    int[] engineHost = new int[n];
    long wLoc = config.planCost().local();
    int c = 0;
    for (int h = 0; h < hostCount; h++) {
      if (state.alive(h) && (full || state.slots(h) > 0)) {
        slots[c] = Math.max(1, full ? jobSlots.applyAsInt(h) : Math.min(state.slots(h), jobSlots.applyAsInt(h)));
        long backlog = (long) state.running(h) + policy.queuedFor(h);
        loads[c] = backlog * wLoc / slots[c];
        names[c] = state.hostName(h);
        racks &= state.rackOf(h) != EngineState.NO_RACK;
        rackNames[c] = racks ? state.rackName(state.rackOf(h)) : null;
        engineHost[c] = h;
        c++;
      }
    }
    if (!racks) {
      java.util.Arrays.fill(rackNames, null); // racks only if every planned host has one
    }
    return new PlanHosts(names, rackNames, slots, loads, engineHost, state.frozenHostIndex(), planCost());
  }


  /**
   * Admits a job with a plan computed elsewhere (the adapter plans off its lock). Planned tasks
   * whose host died meanwhile, and tasks the plan did not cover (no live replica), are routed.
   */
  public Admission applyPlan(long jobId, String user, List<List<String>> replicaHosts, PlanInput in, Assignment plan) {
    PlanApplication app = PlanApplication.prepare(jobId, user, in, plan);
    while (!applySome(app, Integer.MAX_VALUE)) {
      // one call applies everything
    }
    Admission a = app.admission();
    return planner == null ? a : new Admission(a.jobId(), a.tasks(), true, planner.name(), a.plan(), a.note());
  }


  /**
   * Applies up to {@code maxTasks} more tasks of a prepared plan: the first call admits the job;
   * each task enters its planned host's queue if that host is alive, else it is routed. The
   * job's tasks already applied may be served meanwhile. Returns true when every task is in.
   */
  public boolean applySome(PlanApplication app, int maxTasks) {
    if (app.spare != null) {
      state.adopt(app.spare);
      app.spare = null;
    }
    JobState j = jobs.get(app.jobId);
    if (app.next == 0 && j == null) {
      j = newJob(app.jobId, app.user);
    } else if (j == null) {
      throw new IllegalStateException("job " + app.jobId + " was removed while its plan was applied");
    }
    int end = (int) Math.min(app.replicas.length, (long) app.next + Math.max(1, maxTasks));
    for (int i = app.next; i < end; i++) {
      int t = addTask(j, app.replicas[i]);
      int h = app.host[i];
      if (h >= 0 && state.alive(h)) {
        policy.enqueuePlanned(t, h, app.level[i]);
      } else {
        policy.route(t);
      }
    }
    app.next = end;
    return end == app.replicas.length;
  }

  /** Tasks of an existing job arriving one at a time (or a new job's first ones). */
  public void addTasks(long jobId, String user, List<List<String>> replicaHosts) {
    JobState j = jobs.get(jobId);
    if (j == null) {
      j = newJob(jobId, user);
    }
    for (List<String> reps : replicaHosts) {
      policy.route(addOneByOne(j, reps));
    }
  }

  /**
   * The job is gone (finished or killed): its pending tasks are dropped, its running ones stop
   * counting, and every one of its task numbers is freed for reuse; returns how many were pending.
   */
  public int removeJob(long jobId) {
    JobState j = jobs.remove(jobId);
    if (j == null) {
      return 0;
    }
    int dropped = 0;
    for (int t : jobTasks.remove(j)) {
      if (state.queued(t)) {
        state.setState(t, TaskState.CANCELLED);
        policy.removed(t);
        dropped++;
      } else if (state.state(t) == TaskState.RUNNING) {
        state.stopOn(t);
        state.setState(t, TaskState.CANCELLED);
      }
      oneByOne.clear(t);
      state.free(t);
    }
    state.jobs.remove(j);
    parked.remove(j);
    return dropped;
  }

  public JobState job(long jobId) {
    return jobs.get(jobId);
  }

  public int activeJobs() {
    return jobs.size();
  }

  private JobState newJob(long jobId, String user) {
    if (jobs.containsKey(jobId)) {
      throw new IllegalArgumentException("job " + jobId + " already submitted");
    }
    JobState j = new JobState(nextJobIndex++, jobId, user == null ? "" : user, state.now);
    j.lastServed = decisions;
    jobs.put(jobId, j);
    jobTasks.put(j, new ArrayList<>());
    state.jobs.add(j);
    return j;
  }

  private int addOneByOne(JobState j, List<String> replicaHosts) {
    int t = addTask(j, replicaHosts.stream().mapToInt(state::hostIndex).filter(h -> h >= 0).distinct().toArray());
    oneByOne.set(t);
    return t;
  }

  /**
   * A task that arrived one at a time is over (done or dropped): its number is freed and it leaves
   * its job's list (the list's last task takes its place; planned tasks come first and never move).
   * The job's counts are kept.
   */
  private void release(int t) {
    if (!oneByOne.get(t)) {
      return;
    }
    oneByOne.clear(t);
    List<Integer> list = jobTasks.get(state.job(t));
    int p = state.indexInJob(t);
    int last = list.get(list.size() - 1);
    list.set(p, last);
    state.setIndexInJob(last, p);
    list.remove(list.size() - 1);
    state.free(t);
  }

  /** {@code reps}: distinct engine host indexes. */
  private int addTask(JobState j, int[] reps) {
    List<Integer> list = jobTasks.get(j);
    int t = state.addTask(j, list.size(), reps);
    list.add(t);
    j.total++;
    j.pending++;
    return t;
  }

  // ---------------------------------------------------------------- slots and tasks

  /** A slot on {@code host} is free: what runs there, or null (nothing suitable). */
  public Decision onSlotFree(int host) {
    return onSlotFree(host, java.util.Set.of());
  }

  /** As {@link #onSlotFree(int)}, never choosing a task of the excluded jobs (caller's ids). */
  public Decision onSlotFree(int host, java.util.Set<Long> excludedJobs) {
    if (host < 0 || host >= state.hostCount() || !state.alive(host)) {
      return null;
    }
    java.util.Set<JobState> excluded = new java.util.HashSet<>(parked);
    for (long id : excludedJobs) {
      JobState j = jobs.get(id);
      if (j != null) {
        excluded.add(j);
      }
    }
    decisions++;
    Decision starving = config.starvation() > 0 ? serveStarving(host, excluded) : null;
    if (starving != null) {
      return starving;
    }
    OnlinePolicy.Pick pick = excluded.isEmpty() ? policy.pick(host) : policy.pick(host, excluded);
    if (pick == null) {
      return null;
    }
    int t = pick.task();
    if (!state.queued(t)) {
      throw new IllegalStateException(policy.name() + " picked task " + t + " in state " + state.state(t));
    }
    start(t, host);
    JobState j = state.job(t);
    return new Decision(j.id(), state.indexInJob(t), t, host, pick.level(), pick.reason(), pick.queue());
  }

  /** Jobs that cannot run now (their application asks for nothing): never picked. */
  private final java.util.Set<JobState> parked = new java.util.HashSet<>();

  /**
   * Parks a job (its tasks stay where they are, and no decision hands one out) or lets it run
   * again: for an application that asks for no containers now, so its tasks are not taken out and
   * put back on every heartbeat. Idempotent; unknown jobs are ignored.
   */
  public void setParked(long jobId, boolean park) {
    JobState j = jobs.get(jobId);
    if (j != null) {
      if (park) {
        parked.add(j);
      } else {
        parked.remove(j);
      }
    }
  }

  /**
   * Sets a job's priority (YARN's application priority): a job of higher priority is served
   * first from every queue, whatever the job ordering says; the ordering ranks jobs of equal
   * priority. The starvation guard still serves a job of lower priority that has waited its
   * rounds. Unknown jobs are ignored.
   */
  public void setPriority(long jobId, int priority) {
    JobState j = jobs.get(jobId);
    if (j != null) {
      j.priority = priority;
    }
  }

  /**
   * The application ran this queued task on {@code host} with no decision of the engine (its maps
   * were served from its asks while its plan was made): the task leaves its queue and runs there.
   * Returns false, changing nothing, if the task is not queued or the host is not live.
   */
  public boolean startedOutside(int task, int host) {
    if (task < 0 || task >= state.taskCount() || !state.queued(task) || host < 0 || host >= state.hostCount()
        || !state.alive(host)) {
      return false;
    }
    policy.removed(task);
    start(task, host);
    return true;
  }

  /** Whether the job is parked (tests and reports). */
  public boolean parked(long jobId) {
    JobState j = jobs.get(jobId);
    return j != null && parked.contains(j);
  }

  private void start(int t, int host) {
    JobState j = state.job(t);
    j.pending--;
    j.running++;
    j.lastServed = decisions;
    state.startOn(t, host);
    ensureStarted(t);
  }

  /** Decisions made so far (the clock of the starvation guard). */
  private long decisions;
  /** Slots of the live hosts, recounted when hosts change (-1: to recount). */
  private long liveSlots = -1;

  /**
   * The starvation guard. A policy that weighs queues, such as MaxWeight, serves the longest queue
   * first: a job with one task queued for this host loses to another job's long common queue for as
   * long as that queue stays long. So before the policy picks, the job that has gone longest
   * without a container — more than {@code starvation} rounds of decisions, a round being as many
   * decisions as the live hosts have slots — runs its oldest task queued for this host here, else
   * (among the first {@value #STARVING_SCAN} of its task list) one waiting in a shared queue, else
   * one queued for another host that has no slot for maps now: that host may stay full for as long
   * as its containers run. Every job with work for a host that frees slots is so served within a bounded
   * number of decisions; policies without per-host queues are left alone.
   */
  private Decision serveStarving(int host, java.util.Set<JobState> excluded) {
    if (liveSlots < 0) {
      liveSlots = 0;
      for (int h = 0; h < state.hostCount(); h++) {
        liveSlots += state.alive(h) ? state.slots(h) : 0;
      }
    }
    long limit = (long) config.starvation() * Math.max(1, liveSlots);
    JobState best = null;
    int bestTask = -1;
    for (JobState j : state.jobs) {
      if (j.pending == 0 || excluded.contains(j) || decisions - j.lastServed <= limit
          || best != null && j.lastServed >= best.lastServed) {
        continue;
      }
      int t = queuedHere(j, host);
      if (t >= 0) {
        best = j;
        bestTask = t;
      }
    }
    if (best == null) {
      return null;
    }
    long waited = decisions - best.lastServed;
    int queue = policy.queueHostOf(bestTask);
    policy.removed(bestTask);
    start(bestTask, host);
    return new Decision(state.job(bestTask).id(), state.indexInJob(bestTask), bestTask, host, state.level(bestTask, host),
        Decision.STARVING + "no container for " + waited + " decisions", queue);
  }

  private static final int STARVING_SCAN = 256;

  /**
   * A task of the job queued for this host, else one in a shared queue, else one queued for another
   * host that has no slot for maps now (it may never have room: its containers may run for as long
   * as the cluster does), or -1.
   */
  private int queuedHere(JobState j, int host) {
    int[] found = {-1};
    boolean queues = policy.forEachQueued(host, j, t -> {
      found[0] = t;
      return false;
    });
    if (!queues || found[0] >= 0) {
      return found[0];
    }
    List<Integer> list = jobTasks.get(j);
    int elsewhere = -1;
    for (int i = 0; i < list.size() && i < STARVING_SCAN; i++) {
      int t = list.get(i);
      if (state.queued(t)) {
        int q = policy.queueHostOf(t);
        if (q < 0) {
          return t;
        }
        // Only from a host that cannot run maps now: a plan's tasks waiting for their own free
        // host wait on purpose (the policy's stealing rule decides when that stops paying).
        if (elsewhere < 0 && state.slots(q) == 0) {
          elsewhere = t;
        }
      }
    }
    return elsewhere;
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
    if (actualTask == d.task() || actualTask < 0 || actualTask >= state.taskCount()
        || policy.queueHostOf(actualTask) < 0 || d.queue() != d.host()) {
      return Rehoming.noChain(d.task(), actualTask, true);
    }
    if (state.job(d.task()).pending() > CHAIN_SEARCH_LIMIT) {
      return Rehoming.noChain(d.task(), actualTask, true);
    }
    List<LocalChains.Move> chain = localChain(d.task(), actualTask);
    return new Rehoming(d.task(), actualTask, chain, chain != null);
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
    if (actualTask == d.task() || actualTask < 0 || actualTask >= state.taskCount()
        || !state.queued(actualTask) || state.job(actualTask) != state.job(d.task())
        || state.state(d.task()) != TaskState.RUNNING) {
      return d;
    }
    int host = d.host();
    List<LocalChains.Move> chain = null;
    if (d.queue() == host) {
      chain = proposal != null && proposal.isFor(d.task(), actualTask) && stillHolds(proposal.chain(), d.task())
          ? proposal.chain() : localChain(d.task(), actualTask);
    }
    state.stopOn(d.task());
    state.requeue(d.task());
    state.startOn(actualTask, host);
    ensureStarted(actualTask);
    policy.removed(actualTask);
    if (chain != null) {
      for (LocalChains.Move move : chain) {
        policy.removed(move.task());
        policy.enqueuePlanned(move.task(), move.host(), Level.LOCAL);
      }
    } else {
      // No chain, or the task came from another queue: back to the host queue it came from
      // (where it is local), else routed like a new arrival.
      if (d.queue() >= 0 && state.alive(d.queue())) {
        policy.enqueuePlanned(d.task(), d.queue(), Level.LOCAL);
      } else {
        policy.route(d.task());
      }
    }
    return new Decision(d.jobId(), state.indexInJob(actualTask), actualTask, host, state.level(actualTask, host),
        d.reason() + "; the application ran task " + state.indexInJob(actualTask) + " instead", d.queue());
  }

  /** Whether a proposed chain can still be applied: its moved tasks queued (the decided one running), its hosts live. */
  private boolean stillHolds(List<LocalChains.Move> chain, int decided) {
    if (chain == null) {
      return true;
    }
    for (LocalChains.Move m : chain) {
      boolean movable = m.task() == decided ? state.state(m.task()) == TaskState.RUNNING : state.queued(m.task());
      if (!movable || !state.alive(m.host())) {
        return false;
      }
    }
    return true;
  }

  /** Jobs with more queued tasks than this are not searched for local chains (cost per container). */
  private static final int CHAIN_SEARCH_LIMIT = 20_000;
  /**
   * Queued tasks one chain search may look at before it gives up (as if there were no chain): the
   * search runs under the scheduler's lock, once per container the AM fills with another task.
   */
  private static final int CHAIN_VISIT_LIMIT = 2_048;
  private final LocalChains chains = new LocalChains();

  /**
   * The moves that re-home {@code returning} while {@code taken} leaves its host queue; null if
   * there are none. A chain back to the queue {@code taken} leaves keeps every host's count; only
   * without one may the chain end at a lighter host.
   */
  private List<LocalChains.Move> localChain(int returning, int taken) {
    int target = policy.queueHostOf(taken);
    JobState job = state.job(returning);
    if (target < 0 || job != state.job(taken) || job.pending() > CHAIN_SEARCH_LIMIT) {
      return null;
    }
    LocalChains.Graph graph = new QueuedTasks(job, returning, taken);
    List<LocalChains.Move> chain = chains.search(graph, -1, returning, y -> y == target, CHAIN_VISIT_LIMIT);
    if (chain != null) {
      return chain;
    }
    long limit = backlog(state.hostOf(returning));
    return chains.search(graph, -1, returning, y -> y == target || backlog(y) + 1 < limit, CHAIN_VISIT_LIMIT);
  }

  /** One job's queued tasks as a chain-search graph: live hosts, the two tasks of the swap left out. */
  private final class QueuedTasks implements LocalChains.Graph {
    private final JobState job;
    private final int returning;
    private final int taken;
    /** The job's queued tasks by host, for a policy that cannot list a host's queue by job. */
    private Map<Integer, List<Integer>> byHost;

    QueuedTasks(JobState job, int returning, int taken) {
      this.job = job;
      this.returning = returning;
      this.taken = taken;
    }

    @Override
    public int hosts() {
      return state.hostCount();
    }

    @Override
    public void forEachOn(int host, IntPredicate visit) {
      IntPredicate movable = u -> u == taken || u == returning || visit.test(u);
      if (byHost == null && policy.forEachQueued(host, job, movable)) {
        return;
      }
      if (byHost == null) {
        byHost = new HashMap<>();
        for (int u : pendingTasks(job.id())) {
          byHost.computeIfAbsent(policy.queueHostOf(u), k -> new ArrayList<>()).add(u);
        }
      }
      for (int u : byHost.getOrDefault(host, List.of())) {
        if (!movable.test(u)) {
          return;
        }
      }
    }

    @Override
    public int[] localHosts(int task) {
      return state.replicas(task);
    }

    @Override
    public boolean usable(int host) {
      return state.alive(host);
    }
  }

  /** Tasks running on a host plus tasks queued for it. */
  private long backlog(int host) {
    return (long) state.running(host) + policy.queuedFor(host);
  }

  private void ensureStarted(int task) {
    if (task >= startedAt.length) {
      startedAt = Arrays.copyOf(startedAt, Math.max(task + 1, startedAt.length * 2));
    }
    startedAt[task] = state.now;
  }

  /**
   * Takes back a decision that could not be carried out: the task is pending again, in its
   * host's queue if it came from one (or was local there), else routed.
   */
  public void unpick(Decision d) {
    if (backToPending(d.task())) {
      boolean queued = d.queue() >= 0 && state.alive(d.queue());
      policy.enqueuePlanned(d.task(), queued ? d.queue() : d.host(), queued ? Level.LOCAL : d.level());
    }
  }

  /**
   * The job cannot use {@code host} for now (its tasks there would not be local): its tasks queued
   * for that host are routed again, to hosts that can run them. Returns how many moved.
   */
  public int releaseQueued(long jobId, int host) {
    int moved = 0;
    for (int t : pendingTasks(jobId)) {
      if (policy.queueHostOf(t) == host) {
        policy.removed(t);
        policy.routeAvoiding(t, host);
        moved++;
      }
    }
    return moved;
  }

  /** Tasks of a job queued in {@code host}'s local queue. */
  public int queuedOn(long jobId, int host) {
    JobState j = jobs.get(jobId);
    if (j == null) {
      return 0;
    }
    int[] n = {0};
    if (policy.forEachQueued(host, j, t -> {
      n[0]++;
      return true;
    })) {
      return n[0];
    }
    for (int t : pendingTasks(jobId)) {
      if (policy.queueHostOf(t) == host) {
        n[0]++;
      }
    }
    return n[0];
  }

  /** Pending (queued) engine tasks of a job, in task order. */
  public List<Integer> pendingTasks(long jobId) {
    JobState j = jobs.get(jobId);
    List<Integer> out = new ArrayList<>();
    if (j != null) {
      for (int t : jobTasks.get(j)) {
        if (state.queued(t)) {
          out.add(t);
        }
      }
    }
    return out;
  }

  /** Drops one pending task (the application no longer needs it); false if it was not pending. */
  public boolean dropPending(int task) {
    if (task < 0 || task >= state.taskCount() || !state.queued(task)) {
      return false;
    }
    JobState j = state.job(task);
    state.setState(task, TaskState.CANCELLED);
    j.pending--;
    j.total--;
    policy.removed(task);
    release(task);
    return true;
  }

  /** The task finished: frees its slot, charges its user, feeds rate learning. */
  public void taskFinished(int task) {
    if (state.state(task) != TaskState.RUNNING) {
      return;
    }
    JobState j = state.job(task);
    int host = state.hostOf(task);
    long ticks = Math.max(1, state.now - startedAt[task]);
    observed.observe(state.level(task, host), ticks);
    rates.update(observed);
    state.chargeUser(j.user(), ticks);
    j.meanTaskTicks = Math.max(1, (j.meanTaskTicks * j.done + ticks) / (j.done + 1));
    j.running--;
    j.done++;
    state.stopOn(task);
    state.setState(task, TaskState.DONE);
    release(task);
  }

  /**
   * A decision on {@code host} could not be carried out there (the application excludes that
   * host, say): the task is pending again and routed anywhere but that host.
   */
  public void taskRefused(int task, int host) {
    if (backToPending(task)) {
      policy.routeAvoiding(task, host);
    }
  }

  /** The task failed or its container was lost: it becomes pending again and is routed. */
  public void taskFailed(int task) {
    if (backToPending(task)) {
      policy.route(task);
    }
  }

  /** A running task becomes pending (not yet queued anywhere); false if it was not running. */
  private boolean backToPending(int task) {
    if (state.state(task) != TaskState.RUNNING) {
      return false;
    }
    JobState j = state.job(task);
    j.running--;
    j.pending++;
    state.stopOn(task);
    state.requeue(task);
    return true;
  }

  /** The engine task number of a job's i-th task, or -1. */
  public int task(long jobId, int indexInJob) {
    JobState j = jobs.get(jobId);
    if (j == null) {
      return -1;
    }
    List<Integer> list = jobTasks.get(j);
    return indexInJob >= 0 && indexInJob < list.size() ? list.get(indexInJob) : -1;
  }
}
