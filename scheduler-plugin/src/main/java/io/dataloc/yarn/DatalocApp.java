package io.dataloc.yarn;

import io.dataloc.core.am.AmReplay;
import io.dataloc.core.am.WaitLog;
import io.dataloc.core.model.Evaluation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.NodeType;

/**
 * What the adapter knows of one application (guarded by the scheduler's monitor).
 *
 * <p>Its life is a small state machine; every transition is guarded, so a step taken out of order
 * is an error that costs this application, never a silent mix of states:
 *
 * <pre>
 *   ONLINE --startReading--> READING --startPlanning--> PLANNING --planned--> PLANNED
 *      ^                        |                          |                    |
 *      +------------------------+---------- online --------+--------------------+
 * </pre>
 *
 * A job starts ONLINE (served from its asks) and is read and planned once, at submission; any
 * state may fall back to ONLINE (a failed read or plan, an error, a new AM attempt, a rebuilt
 * engine), and ONLINE is final for that job: it is never planned again.
 */
final class DatalocApp implements io.dataloc.core.am.MapService.Replayed {
  enum Phase { READING, PLANNING, PLANNED, ONLINE }

  /** How many nodes' refusals an application's wait log keeps (at most 8 entries each). */
  static final int WAIT_NODES = 8;

  /** A map container served from a job's asks before its plan came. */
  static final class EarlyMap {
    private final ContainerId container;
    private final String host;
    private final String rack;

    EarlyMap(ContainerId container, String host, String rack) {
      this.container = container;
      this.host = host;
      this.rack = rack;
    }

    public ContainerId container() {
      return container;
    }

    public String host() {
      return host;
    }

    public String rack() {
      return rack;
    }

    @Override
    public boolean equals(Object o) {
      if (o == this) {
        return true;
      }
      if (!(o instanceof EarlyMap)) {
        return false;
      }
      EarlyMap that = (EarlyMap) o;
      return Objects.equals(container, that.container)
          && Objects.equals(host, that.host)
          && Objects.equals(rack, that.rack);
    }

    @Override
    public int hashCode() {
      return Objects.hash(container, host, rack);
    }

    @Override
    public String toString() {
      return "EarlyMap[container=" + container
          + ", host=" + host
          + ", rack=" + rack + "]";
    }
  }

  final ApplicationId id;
  final long jobId;
  final String user;
  private Phase phase = Phase.ONLINE;
  private boolean everPlanned;
  /** When it was submitted (the front end's clock, ms): its wait for an AM is counted from here. */
  final long submittedMillis;
  /** The nodes the engine knew when its placement read began (ids at or above are unknown to it). */
  int hostsAtRead;
  /** The replay of its MapReduce AM's container-to-task rule, while planned (else null). */
  AmReplay am;
  /** When its AM was first declined by {@link AmSites} (the front end's clock, ms), or null while it is not waiting. */
  Long amDeclinedAt;
  /** The engine holds a job for it (made by the first plan chunk, or by its first online tasks). */
  boolean jobCreated;
  boolean sawMaps;
  /** When its planned job was last topped up from its asks ({@link JobAsks}); Long.MIN_VALUE: never. */
  long lastTopUpMillis = Long.MIN_VALUE;
  /** Out of the engine after an error in its work: served from its asks (see Containment). */
  boolean contained;
  /** Killed after a second error: nothing more is allocated to it. */
  boolean killed;
  /** Its map asks forbid relaxing locality: served from them, never planned (for good). */
  boolean strict;
  String source = "asks";
  String planner = "none";
  String note = "";
  String lastReason = "";
  /** Why it waits: its latest refusals, on the {@value #WAIT_NODES} nodes refused most recently. */
  final WaitLog waits = new WaitLog(WAIT_NODES);
  Evaluation plan;
  double planMillis;
  /** The plan's declines (its shape, the declines in a row per node), while planned (else null). */
  io.dataloc.core.am.PlanGuard guard;
  int tasks;
  int nodeLocal;
  int rackLocal;
  int offSwitch;

  /**
   * A MapReduce job recovered after a ResourceManager restart: its maps may have run, or all
   * ended, under the RM before, which this one never saw.
   */
  boolean recoveredMapReduce;

  /**
   * Whether it has a map phase, so that what else it asks for comes after: it has had a map
   * container here, or it is a MapReduce job recovered after a restart.
   */
  boolean ranMaps() {
    return recoveredMapReduce || nodeLocal + rackLocal + offSwitch > 0;
  }

  /** Map containers allocated on each host over the job's life. */
  private final Map<String, Integer> mapsByHost = new HashMap<>();
  /** Map containers served from its asks while it waited for its plan, in order (bounded). */
  final List<EarlyMap> early = new ArrayList<>();
  /** More were served than {@code early} holds: they cannot be tied to tasks. */
  boolean earlyOverflow;
  /** Its containers that ended while it waited for its plan (an early map among them is done, not running). */
  final java.util.Set<ContainerId> earlyEnded = new java.util.HashSet<>();
  /**
   * CapacityScheduler mode: the maps its AM asks for now (at its last ask); when its plan's
   * declines began (or last ended with a container, clock ms); the tasks committed on each host,
   * in order, awaiting their containers.
   */
  int wantedMaps;
  boolean askingMaps;
  long declinesSince;
  boolean fallingBack;
  final Map<String, java.util.ArrayDeque<Integer>> awaitingContainers = new HashMap<>();

  DatalocApp(ApplicationId id, long jobId, String user, long submittedMillis) {
    this.id = id;
    this.submittedMillis = submittedMillis;
    this.jobId = jobId;
    this.user = user;
  }

  Phase phase() {
    return phase;
  }

  /** Its placement read begins (at submission, once). */
  void startReading() {
    require(phase == Phase.ONLINE && !everPlanned && !jobCreated, "startReading");
    everPlanned = true;
    phase = Phase.READING;
  }

  /** Its placement was read: the plan begins. */
  void startPlanning(String placementSource) {
    require(phase == Phase.READING, "startPlanning");
    source = placementSource;
    phase = Phase.PLANNING;
  }

  /** Its whole plan is in the engine. */
  void planned() {
    require(phase == Phase.PLANNING && jobCreated, "planned");
    phase = Phase.PLANNED;
  }

  /** Served from its asks from now on (its plan, replay and early maps are forgotten). */
  void online(String why) {
    phase = Phase.ONLINE;
    am = null;
    guard = null;
    early.clear();
    earlyOverflow = false;
    earlyEnded.clear();
    awaitingContainers.clear();
    source = "asks";
    note = why;
  }

  private void require(boolean ok, String step) {
    if (!ok) {
      throw new IllegalStateException(id + ": " + step + " in phase " + phase
          + (jobCreated ? " with its engine job created" : ""));
    }
  }

  /** Out of the engine: its maps are served from its asks as everything else of it is. */
  boolean servedFromAsks() {
    return contained || strict;
  }

  /** Its placement is being read or planned: its maps are served from its asks meanwhile. */
  boolean waiting() {
    return phase == Phase.READING || phase == Phase.PLANNING;
  }

  void early(ContainerId container, String host, String rack, int bound) {
    if (early.size() < bound) {
      early.add(new EarlyMap(container, host, rack));
    } else {
      earlyOverflow = true;
    }
  }

  void count(NodeType type, String host) {
    switch (type) {
      case NODE_LOCAL:
        nodeLocal++;
        break;
      case RACK_LOCAL:
        rackLocal++;
        break;
      default:
        offSwitch++;
        break;
    }
    mapsByHost.merge(host, 1, Integer::sum);
  }

  /** Map containers allocated on each host over the job's life, by host name (a copy). */
  Map<String, Integer> mapsByHost() {
    return new TreeMap<>(mapsByHost);
  }

  @Override
  public AmReplay am() {
    return am;
  }

  @Override
  public io.dataloc.core.am.PlanGuard guard() {
    return guard;
  }

  @Override
  public int mapsOn(String host) {
    return mapsByHost.getOrDefault(host, 0);
  }

  /** How the scheduler page names its state. */
  String phaseName() {
    return killed ? "killed" : contained ? "contained" : strict ? "strict locality" : phase.name().toLowerCase();
  }
}
