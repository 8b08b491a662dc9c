package io.dataloc.yarn;

import io.dataloc.core.am.WaitLog;
import io.dataloc.core.model.Units;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Why one application waits, as read under the plan lock: its job ({@link JobReport}: phase, plan,
 * pending and running maps), how long it has waited, where its pending maps are queued and the
 * state of those nodes, where its maps ran, and its latest refusals ({@link WaitLog}). Immutable;
 * rendered as JSON by the web services ({@link #asMap}) and as one sentence on the page
 * ({@link #summary}).
 */
public final class WaitReport {
  /** Where some of the job's pending maps are queued: a node (or "shared": a queue of no node). */
  static final class Queue {
    final String node;
    final int maps;
    final int slots;
    final int running;
    final boolean alive;
    final boolean draining;

    Queue(String node, int maps, int slots, int running, boolean alive, boolean draining) {
      this.node = node;
      this.maps = maps;
      this.slots = slots;
      this.running = running;
      this.alive = alive;
      this.draining = draining;
    }
  }

  final JobReport job;
  final long now;
  final long waitedMillis;
  final long amWaitedMillis;
  final boolean parked;
  final List<Queue> queues;
  final Map<String, Integer> mapsByHost;
  final long refusals;
  final List<WaitLog.Entry> entries;

  WaitReport(DatalocApp a, JobReport job, long now, boolean parked, List<Queue> queues) {
    this.job = job;
    this.now = now;
    this.waitedMillis = a.waits.waitedMillis(now);
    this.amWaitedMillis = a.amDeclinedAt == null ? 0 : Math.max(0, now - a.amDeclinedAt);
    this.parked = parked;
    this.queues = List.copyOf(queues);
    this.mapsByHost = a.mapsByHost();
    this.refusals = a.waits.refusals();
    this.entries = a.waits.entries();
  }

  /** The job's state and plan, read in the same hold of the plan lock as its waits. */
  public JobReport job() {
    return job;
  }

  /** The application's id. */
  public String application() {
    return job.application();
  }

  /** The user who submitted it (for the caller's view ACL). */
  public String user() {
    return job.user();
  }

  /** Every refusal recorded for it (also those its bounded log no longer shows). */
  public long refusals() {
    return refusals;
  }

  /** Its latest refusals, the latest first ({@link WaitLog#entries}). */
  public List<WaitLog.Entry> latestRefusals() {
    return entries;
  }

  /** The nodes its maps ran on, the {@code top} busiest first ("h1 ×3, h2 ×3, …"). */
  public String ranOn(int top) {
    List<Map.Entry<String, Integer>> byCount = new ArrayList<>(mapsByHost.entrySet());
    byCount.sort((x, y) -> y.getValue().equals(x.getValue()) ? x.getKey().compareTo(y.getKey())
        : Integer.compare(y.getValue(), x.getValue()));
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < byCount.size(); i++) {
      if (i == top) {
        s.append(", …");
        break;
      }
      s.append(i == 0 ? "" : ", ").append(byCount.get(i).getKey()).append(" ×").append(byCount.get(i).getValue());
    }
    return s.toString();
  }

  /**
   * One sentence for the page: how long it has waited, where its pending maps are queued, and its
   * latest refusal with what it means.
   */
  public String summary() {
    StringBuilder s = new StringBuilder();
    if (waitedMillis == 0 && amWaitedMillis == 0) {
      s.append(job.pending() == 0 ? "not waiting" : "not refused since its last container");
    } else {
      s.append(String.format(Locale.ROOT, "waiting %.1f s", Math.max(waitedMillis, amWaitedMillis) / 1000.0));
    }
    if (job.pending() > 0 && !queues.isEmpty()) {
      s.append("; ").append(job.pending()).append(" pending maps queued at ");
      int shown = 0;
      for (Queue q : queues) {
        if (shown++ == 3) {
          s.append(", …");
          break;
        }
        s.append(shown > 1 ? ", " : "").append(q.node).append(" (").append(q.maps);
        if (!q.node.equals(WaitReports.SHARED)) {
          s.append("; ").append(q.running).append(" of ").append(q.slots).append(" slots busy")
              .append(q.alive ? "" : ", lost").append(q.draining ? ", decommissioning" : "");
        }
        s.append(')');
      }
    }
    if (!entries.isEmpty()) {
      WaitLog.Entry e = entries.get(0);
      s.append("; latest refusal: ").append(e.node()).append(" ×").append(e.count()).append(", ")
          .append(e.cause().meaning());
    }
    return s.toString();
  }

  /** The report as a JSON tree (maps, lists, strings and numbers), field names in camel case. */
  public Map<String, Object> asMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("application", job.application());
    m.put("user", job.user());
    m.put("phase", job.phase());
    m.put("waitingMs", waitedMillis);
    m.put("amWaitingMs", amWaitedMillis);
    m.put("pendingMaps", job.pending());
    m.put("runningMaps", job.running());
    m.put("parked", parked);
    m.put("placementSource", job.source());
    m.put("planner", job.planner());
    if (job.plan() != null) {
      m.put("planMakespan", Units.toDouble(job.plan().makespan()));
      m.put("planLowerBound", Units.toDouble(job.plan().lowerBound()));
    }
    List<Object> qs = new ArrayList<>();
    for (Queue q : queues) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("node", q.node);
      row.put("maps", q.maps);
      if (!q.node.equals(WaitReports.SHARED)) {
        row.put("slots", q.slots);
        row.put("running", q.running);
        row.put("alive", q.alive);
        row.put("decommissioning", q.draining);
      }
      qs.add(row);
    }
    m.put("pendingAt", qs);
    m.put("mapsByNode", mapsByHost);
    m.put("refusals", refusals);
    List<Object> es = new ArrayList<>();
    for (WaitLog.Entry e : entries) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("node", e.node());
      row.put("cause", e.cause().name());
      row.put("meaning", e.cause().meaning());
      row.put("count", e.count());
      row.put("firstMsAgo", now - e.first());
      row.put("lastMsAgo", now - e.last());
      if (e.task() >= 0) {
        row.put("task", e.task());
      }
      if (e.planned() != null) {
        row.put("plannedNode", e.planned());
      }
      es.add(row);
    }
    m.put("latestRefusals", es);
    m.put("summary", summary());
    return m;
  }
}
