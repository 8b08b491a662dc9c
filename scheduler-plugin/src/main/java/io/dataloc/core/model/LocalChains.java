package io.dataloc.core.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.IntPredicate;

/**
 * Local chains: a breadth-first search over hosts for a chain of data-local moves.
 *
 * <p><b>Problem.</b> Tasks sit on hosts (queued there, or placed there by a plan); task {@code t}
 * is local on the hosts {@code R(t)} holding its block. A <em>chain</em> from a start to a host
 * {@code y_k} is a sequence of moves {@code (t_1 → y_1), (t_2 → y_2), …, (t_k → y_k)} with
 * {@code y_i ∈ R(t_i)} and {@code t_{i+1}} sitting on {@code y_i}; {@code t_1} is either a task
 * entering the graph (the engine: a task the MapReduce AM displaced, to be re-homed) or a task
 * sitting on a source host (plan levelling: one task off the fullest host). Applying the chain
 * moves each {@code t_i} to {@code y_i}: every host in between gives one task and takes one, so
 * keeps its count; {@code y_k} takes one more; every moved task stays data-local. The search
 * ends at the first host the caller's {@code target} accepts (the queue a displaced task leaves,
 * a host with less work, a host whose fill stays below the source's).
 *
 * <p><b>Algorithm.</b> Breadth first over hosts, each host entered once (through the first task
 * that reaches it), so the chain found has the fewest moves of any, and the search is
 * {@code O(V·r)} for {@code V} tasks visited and {@code r} replicas per task; {@code visitLimit}
 * bounds {@code V} (the engine searches under the scheduler's lock). Deterministic: hosts and
 * tasks are visited in the order the graph gives them. Scratch arrays are stamped per search
 * rather than cleared, so a search costs what it visits, not the cluster's size.
 *
 * <p>The one chain search of the project: the engine's re-homing ({@code
 * io.dataloc.core.engine.Rehomer}, once per container the AM fills with another task) and plan
 * levelling ({@link io.dataloc.core.offline.HostLevelling}) both run it. It allocates nothing per
 * host it expands (an int queue, one reused visitor) and reads replicas by count and index: a
 * first version that did (a boxed queue, a lambda per host, a copied replica array) made the RM
 * benchmark's 100,000-map plan take 678–880 ms instead of about 550. Not thread-safe (one
 * instance per owner).
 */
public final class LocalChains {
  /** The graph a search walks. */
  public interface Graph {
    int hosts();

    /** Visits the movable tasks sitting on {@code host}, in a fixed order, while {@code visit} returns true. */
    void forEachOn(int host, IntPredicate visit);

    /** How many hosts hold {@code task}'s data. */
    int localCount(int task);

    /** The {@code i}-th host where {@code task} is local ({@code i < localCount(task)}), in a fixed order. */
    int localHost(int task, int i);

    /** Whether a chain may pass through or end at {@code host} (a live host, say). */
    boolean usable(int host);
  }

  /** One move of a chain: {@code task} goes to {@code host}. */
  public static final class Move {
    private final int task;
    private final int host;

    public Move(int task, int host) {
      this.task = task;
      this.host = host;
    }

    public int task() {
      return task;
    }

    public int host() {
      return host;
    }

    @Override
    public boolean equals(Object o) {
      if (o == this) {
        return true;
      }
      if (!(o instanceof Move)) {
        return false;
      }
      Move that = (Move) o;
      return task == that.task
          && host == that.host;
    }

    @Override
    public int hashCode() {
      return Objects.hash(task, host);
    }

    @Override
    public String toString() {
      return "Move[task=" + task
          + ", host=" + host + "]";
    }
  }

  private int[] seen = new int[0];
  private int[] prev = new int[0];
  private int[] via = new int[0];
  private int epoch;

  /**
   * The shortest chain from the start to a host {@code target} accepts, as its moves from that
   * host back to the start; null if there is none within {@code visitLimit} visited tasks.
   *
   * @param source a host the chain starts from (its tasks may move off it), or -1
   * @param entering a task entering the graph (its first move takes it to one of its local
   *     hosts), or -1; exactly one of {@code source} and {@code entering} is given
   */
  public List<Move> search(Graph g, int source, int entering, IntPredicate target, int visitLimit) {
    if ((source < 0) == (entering < 0)) {
      throw new IllegalArgumentException("give a source host or an entering task: " + source + ", " + entering);
    }
    int hosts = g.hosts();
    if (seen.length < hosts) {
      seen = new int[hosts];
      prev = new int[hosts];
      via = new int[hosts];
      queue = new int[hosts];
    }
    if (++epoch == 0) { // wrapped: every stamp is stale again
      java.util.Arrays.fill(seen, 0);
      epoch = 1;
    }
    head = 0;
    tail = 0;
    visitor.start(g, target, visitLimit);
    int found = -1;
    if (source >= 0) {
      seen[source] = epoch;
      queue[tail++] = source;
    } else {
      found = reach(g, entering, -1, target);
    }
    while (found < 0 && head < tail && visitor.visits < visitLimit) {
      visitor.from = queue[head++];
      g.forEachOn(visitor.from, visitor);
      found = visitor.hit;
    }
    visitor.start(null, null, 0); // holds no reference to the caller's graph
    if (found < 0) {
      return null;
    }
    List<Move> moves = new ArrayList<>();
    for (int y = found; y >= 0 && y != source; y = prev[y]) {
      moves.add(new Move(via[y], y));
    }
    return moves;
  }

  /** The hosts entered and not yet expanded (each host enters once per search): {@code queue[head, tail)}. */
  private int[] queue = new int[0];
  private int head;
  private int tail;
  private final Visitor visitor = new Visitor();

  /** Visits the tasks on the host being expanded (one object, reused: no allocation per host). */
  private final class Visitor implements IntPredicate {
    private Graph g;
    private IntPredicate target;
    private int limit;
    int from;
    int hit;
    int visits;

    void start(Graph graph, IntPredicate accept, int visitLimit) {
      g = graph;
      target = accept;
      limit = visitLimit;
      hit = -1;
      visits = 0;
    }

    @Override
    public boolean test(int u) {
      hit = reach(g, u, from, target);
      return hit < 0 && ++visits < limit;
    }
  }

  /** Enters the unseen usable local hosts of {@code task} from {@code from}; the first one accepted, or -1. */
  private int reach(Graph g, int task, int from, IntPredicate target) {
    for (int i = 0, n = g.localCount(task); i < n; i++) {
      int y = g.localHost(task, i);
      if (seen[y] == epoch || !g.usable(y)) {
        continue;
      }
      seen[y] = epoch;
      prev[y] = from;
      via[y] = task;
      if (target.test(y)) {
        return y;
      }
      queue[tail++] = y;
    }
    return -1;
  }
}
