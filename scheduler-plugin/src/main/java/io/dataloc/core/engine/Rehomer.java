package io.dataloc.core.engine;

import io.dataloc.core.model.Level;
import io.dataloc.core.model.LocalChains;
import io.dataloc.core.online.OnlinePolicy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;
import java.util.function.LongFunction;

/**
 * Re-homing a task the application displaced: the MapReduce AM runs, in the container decided for
 * task {@code d}, the first pending task of the host's list, {@code a}, which may differ. Then
 * {@code d} must go back to a queue where it is data-local without the job's other queued tasks
 * losing theirs: a {@linkplain LocalChains local chain} from {@code d}'s local hosts to the queue
 * {@code a} leaves keeps every host's planned count; failing that, one to a host with less work
 * (running and queued) than {@code d}'s host keeps locality without making any host busier than
 * the busier of the two. Searches are bounded ({@value #CHAIN_VISIT_LIMIT} queued tasks visited;
 * jobs above {@value #CHAIN_SEARCH_LIMIT} queued tasks are not searched) because they run under the
 * scheduler's lock, once per container the AM fills with another task. Reads the engine, never
 * changes it.
 */
final class Rehomer {
  /** Jobs with more queued tasks than this are not searched for local chains (cost per container). */
  static final int CHAIN_SEARCH_LIMIT = 20_000;
  /** Queued tasks one chain search may look at before it gives up (as if there were no chain). */
  static final int CHAIN_VISIT_LIMIT = 2_048;

  private final EngineState state;
  private final OnlinePolicy policy;
  /** A job's pending tasks, in task order (for a policy that cannot list a host's queue by job). */
  private final LongFunction<List<Integer>> pendingOf;
  private final LocalChains chains = new LocalChains();

  Rehomer(EngineState state, OnlinePolicy policy, LongFunction<List<Integer>> pendingOf) {
    this.state = state;
    this.policy = policy;
    this.pendingOf = pendingOf;
  }

  /** See {@link DecisionEngine#proposeReplacement}. */
  Rehoming propose(Decision d, int actualTask) {
    if (actualTask == d.task() || actualTask < 0 || actualTask >= state.taskCount()
        || policy.queueHostOf(actualTask) < 0 || d.queue() != d.host()
        || state.job(d.task()).pending() - (state.queued(d.task()) ? 1 : 0) > CHAIN_SEARCH_LIMIT) {
      return Rehoming.noChain(d.task(), actualTask, true);
    }
    List<LocalChains.Move> chain = localChain(d.task(), actualTask, d.host());
    return new Rehoming(d.task(), actualTask, chain, chain != null);
  }

  /** See {@link DecisionEngine#replaceStarted}; {@code started} records a task's start time. */
  Decision commit(Decision d, int actualTask, Rehoming proposal, java.util.function.IntConsumer started) {
    if (actualTask == d.task() || actualTask < 0 || actualTask >= state.taskCount()
        || !state.queued(actualTask) || state.job(actualTask) != state.job(d.task())
        || state.state(d.task()) != TaskState.RUNNING) {
      return d;
    }
    int host = d.host();
    List<LocalChains.Move> chain = d.queue() == host ? chainFor(d.task(), actualTask, host, proposal) : null;
    state.stopOn(d.task());
    state.requeue(d.task());
    state.startOn(actualTask, host);
    started.accept(actualTask);
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
  /** The chain to apply now: the proposal's if it is for this pair and still holds, else a fresh search. */
  List<LocalChains.Move> chainFor(int decided, int actual, int host, Rehoming proposal) {
    return proposal != null && proposal.isFor(decided, actual) && stillHolds(proposal.chain(), decided)
        ? proposal.chain() : localChain(decided, actual, host);
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

  /**
   * The moves that re-home {@code returning} (decided for {@code host}: running there, or still a
   * proposal) while {@code taken} leaves its host queue; null if there are none. A chain back to
   * the queue {@code taken} leaves keeps every host's count; only without one may the chain end at
   * a host lighter than {@code host} with {@code returning} counted on it.
   */
  private List<LocalChains.Move> localChain(int returning, int taken, int host) {
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
    long limit = backlog(host)
        + (state.queued(returning) && policy.queueHostOf(returning) != host ? 1 : 0);
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
        for (int u : pendingOf.apply(job.id())) {
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
    public int localCount(int task) {
      return state.replicas(task).length;
    }

    @Override
    public int localHost(int task, int i) {
      return state.replicas(task)[i];
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
}
