package io.dataloc.core.am;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Why one job waits: the containers it was refused lately, each with the node, the cause, the task
 * the decision was about and the host the plan queued that task for — what an operator asks when a
 * job sits with pending maps and free nodes.
 *
 * <p>Refusals repeat: a plan that keeps a node off a job declines it at every heartbeat (standalone)
 * or every few milliseconds (inside the CapacityScheduler). Repeats of one cause on one node
 * coalesce into one {@link Entry} with a count and the first and last time, so the log reads as a
 * short list however fast the refusals come. Bounded: it keeps the {@code nodes} nodes refused most
 * recently, at most one entry per cause each ({@code nodes × Cause.values().length} entries); the
 * node refused least recently goes first. A refusal costs one hash lookup and allocates only when it
 * opens an entry.
 *
 * <p>The job's wait is counted from its first refusal after it last got a container of the kind
 * refused ({@link #served}) to now. Times are the caller's clock in ms; the log never reads a clock. Not
 * thread-safe: the owner's lock guards it.
 */
public final class WaitLog {
  /** Why a container went to another job, or to none. */
  public enum Cause {
    /** {@link PlanGuard.Verdict#DECLINE_NON_LOCAL}. */
    DECLINE_NON_LOCAL("the map would run away from its data while it can still run data-local elsewhere"),
    /** {@link PlanGuard.Verdict#DECLINE_PLAN_SHAPE}. */
    DECLINE_PLAN_SHAPE("the map would push this node beyond the plan's shape (its waves or tasks at once)"),
    /** The plan holds no map of the job for this node (the CapacityScheduler's veto). */
    NOT_PLANNED_HERE("the plan holds none of the job's maps for this node"),
    /** {@link MapService.Refusal#NOT_ASKING}. */
    NOT_ASKING("the application asks for no maps now"),
    /** {@link MapService.Refusal#BLACKLISTED}. */
    BLACKLISTED("the node is blacklisted for the application"),
    /** {@link MapService.Refusal#TOO_LARGE}. */
    TOO_LARGE("the job's map containers do not fit the node's free room"),
    /** {@link MapService.Refusal#ASKS_FORBID}. */
    ASKS_FORBID("the application's asks do not allow this node"),
    /** {@link AmSiting.Verdict#WAIT}: the job's ApplicationMaster waits for a node whose data fewer maps need. */
    AM_SITING("the ApplicationMaster declined this node: live maps need its data more than another node's"),
    /**
     * The job, past its maps, holds more than {@code reduce.max-share} of the cluster while other
     * applications run: its reduces take no new container ({@link io.dataloc.core.jobs.LastPhaseCap}).
     */
    LAST_PHASE_CAPPED("the job holds more than reduce.max-share of the cluster while others run: its reduces wait");

    private final String meaning;

    Cause(String meaning) {
      this.meaning = meaning;
    }

    /** What the cause means, for an operator. */
    public String meaning() {
      return meaning;
    }

    /** The cause of a refusal by the caller's facts. */
    public static Cause of(MapService.Refusal r) {
      switch (r) {
        case NOT_ASKING:
          return NOT_ASKING;
        case BLACKLISTED:
          return BLACKLISTED;
        case TOO_LARGE:
          return TOO_LARGE;
        default:
          return ASKS_FORBID;
      }
    }

    /** The cause of a decline by the plan's guard ({@code v} declines). */
    public static Cause of(PlanGuard.Verdict v) {
      return v == PlanGuard.Verdict.DECLINE_NON_LOCAL ? DECLINE_NON_LOCAL : DECLINE_PLAN_SHAPE;
    }
  }

  /** The refusals of one cause on one node since the entry opened. */
  public static final class Entry {
    private final String node;
    private final Cause cause;
    private final long first;
    private long last;
    private long count;
    private int task;
    private String planned;

    Entry(String node, Cause cause, long first) {
      this.node = node;
      this.cause = cause;
      this.first = first;
      this.last = first;
    }

    Entry(Entry e) {
      this(e.node, e.cause, e.first);
      last = e.last;
      count = e.count;
      task = e.task;
      planned = e.planned;
    }

    public String node() {
      return node;
    }

    public Cause cause() {
      return cause;
    }

    /** When the first and the latest of these refusals came (ms). */
    public long first() {
      return first;
    }

    public long last() {
      return last;
    }

    public long count() {
      return count;
    }

    /** The job's task index the latest refusal was about, or -1 if it was about no one task. */
    public int task() {
      return task;
    }

    /** The node whose queue held that task (the plan's choice for it), or null if none or not known. */
    public String planned() {
      return planned;
    }
  }

  private final int nodes;
  /** Node → its entries by cause ordinal; in order of the latest refusal, least recent first. */
  private final LinkedHashMap<String, Entry[]> byNode;
  private long waitingSince = -1;
  private long refusals;

  /** @param nodes how many nodes' refusals are kept (at least 1) */
  public WaitLog(int nodes) {
    if (nodes < 1) {
      throw new IllegalArgumentException("nodes must be at least 1: " + nodes);
    }
    this.nodes = nodes;
    this.byNode = new LinkedHashMap<>(16, 0.75f, true) {
      private static final long serialVersionUID = 1L;

      @Override
      protected boolean removeEldestEntry(Map.Entry<String, WaitLog.Entry[]> eldest) {
        return size() > WaitLog.this.nodes;
      }
    };
  }

  /**
   * A container on {@code node} was refused to the job at {@code now}, for {@code cause}, about its
   * task {@code task} (-1: no one task), which the plan queued for {@code planned} (null: none or
   * not known). Starts the job's wait if it was not waiting.
   */
  public void refused(long now, String node, Cause cause, int task, String planned) {
    Entry[] row = byNode.get(node);
    if (row == null) {
      row = new Entry[Cause.values().length];
      byNode.put(node, row);
    }
    Entry e = row[cause.ordinal()];
    if (e == null) {
      e = new Entry(node, cause, now);
      row[cause.ordinal()] = e;
    }
    e.last = Math.max(e.last, now);
    e.count++;
    e.task = task;
    e.planned = planned;
    refusals++;
    if (waitingSince < 0) {
      waitingSince = now;
    }
  }

  /**
   * The job got a container of the kind it was refused at {@code now} (a map; an AM container, a
   * reduce): its wait ends (the entries stay, as history).
   */
  public void served(long now) {
    waitingSince = -1;
  }

  /** How long the job has waited at {@code now} (ms): 0 if it is not waiting. */
  public long waitedMillis(long now) {
    return waitingSince < 0 ? 0 : Math.max(0, now - waitingSince);
  }

  /** Every refusal recorded, including those whose entries were dropped. */
  public long refusals() {
    return refusals;
  }

  /** Copies of the entries kept, the latest refusal first (ties: by node, then cause). */
  public List<Entry> entries() {
    List<Entry> out = new ArrayList<>();
    for (Iterator<Entry[]> it = byNode.values().iterator(); it.hasNext();) {
      for (Entry e : it.next()) {
        if (e != null) {
          out.add(new Entry(e));
        }
      }
    }
    out.sort(Comparator.comparingLong(Entry::last).reversed().thenComparing(Entry::node)
        .thenComparing(Entry::cause));
    return out;
  }
}
