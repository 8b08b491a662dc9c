package io.dataloc.it;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerExitStatus;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;

/**
 * An ApplicationMaster that asks and matches exactly as the MapReduce AM does
 * (RMContainerAllocator): one map request per task at priority 20, +1 on each split host, each
 * distinct rack and ANY; absolute totals for the entries that changed; containers matched in
 * three passes (first pending task in the host's list, then the rack's list, then any); leftover
 * containers released. A task runs for 1 round if data-local, 2 if rack-local, 3 otherwise, unless
 * a {@link Tasks} listener runs them ({@link #listen}: the replay's timed tasks, and reduces asked
 * at priority 10, anywhere, once a fraction of the maps is done, as the MapReduce AM's slow-start).
 * Reduces follow the MapReduce AM's {@code RMContainerAllocator}: while maps are pending, the
 * reduces asked for and held stay within a share of what the job holds plus its headroom that
 * grows with the maps done, up to half ({@code yarn.app.mapreduce.am.job.reduce.rampup.limit};
 * {@link #reduceLimit}); when no map fits the headroom, waiting reduces are preempted, enough for
 * one map and up to half of what the job holds ({@code reduce.preemption.limit}), at most enough
 * for every pending map, and asked for again.
 */
final class MrJob {
  static final int MAP_PRIORITY = 20;
  static final int REDUCE_PRIORITY = 10;

  /** Told of each task given a container; it reports the task done through {@link #complete}. */
  interface Tasks {
    void mapStarted(int task, String host, int level, ContainerId container);

    void reduceStarted(int reduce, String host, ContainerId container);

    /** The AM took back a reduce that had not begun its shuffle (its container is released). */
    void reducePreempted(ContainerId container);

    /** Whether the reduce in this container has begun its shuffle (the AM preempts only those that have not). */
    boolean shuffling(ContainerId container);
  }

  static final double REDUCE_RAMPUP_LIMIT = 0.5;
  static final double REDUCE_PREEMPTION_LIMIT = 0.5;
  /** Reduces the RM has been asked for (the ANY count last sent at priority 10). */
  private int reduceAsk;
  private int reducesStarted;

  private Tasks tasks;
  private int reduces;
  private int reduceAskAt;
  private int reducesUnassigned;
  private int mapsDone;
  private int reducesDone;
  private final Set<ContainerId> reduceContainers = new LinkedHashSet<>();
  private static final Resource MAP = Resource.newInstance(1024, 1);
  private final Resource map;

  final MockAM am;
  final List<List<String>> splits;
  private final Map<String, String> rackOf;
  private final Map<String, List<Integer>> hostList = new LinkedHashMap<>();
  private final Map<String, List<Integer>> rackList = new LinkedHashMap<>();
  private final boolean[] pending;
  /** How many of {@link #pending} are true. */
  private int pendingCount;
  final String[] ranOn;
  /** 0 data-local, 1 rack-local, 2 other. */
  final int[] level;
  private final boolean[] done;
  private final Map<String, Integer> hostAsk = new LinkedHashMap<>();
  private final Map<String, Integer> rackAsk = new LinkedHashMap<>();
  private int anyAsk;
  private final Set<String> changed = new LinkedHashSet<>();
  private final List<ContainerId> release = new ArrayList<>();
  private final Map<ContainerId, int[]> running = new HashMap<>();
  private final Map<ContainerId, String> containerHost = new HashMap<>();
  int released;

  MrJob(MockAM am, List<List<String>> splits, Map<String, String> rackOf) {
    this(am, splits, rackOf, MAP);
  }

  /** As above, with maps of {@code map} each. */
  MrJob(MockAM am, List<List<String>> splits, Map<String, String> rackOf, Resource map) {
    this.map = map;
    this.am = am;
    this.splits = splits;
    this.rackOf = rackOf;
    int m = splits.size();
    pending = new boolean[m];
    ranOn = new String[m];
    level = new int[m];
    done = new boolean[m];
    for (int t = 0; t < m; t++) {
      pending[t] = true;
      pendingCount++;
      for (String h : splits.get(t)) {
        hostList.computeIfAbsent(h, k -> new ArrayList<>()).add(t);
        add(hostAsk, h, 1);
      }
      for (String r : racks(t)) {
        rackList.computeIfAbsent(r, k -> new ArrayList<>()).add(t);
        add(rackAsk, r, 1);
      }
      anyAsk++;
      changed.add("*");
    }
  }

  private Set<String> racks(int t) {
    Set<String> out = new LinkedHashSet<>();
    for (String h : splits.get(t)) {
      out.add(rackOf.getOrDefault(h, "/default-rack"));
    }
    return out;
  }

  private void add(Map<String, Integer> m, String k, int d) {
    m.merge(k, d, Integer::sum);
    changed.add(k);
  }

  /**
   * Runs the tasks through {@code listener} from now on, with {@code reduces} reduces asked once
   * {@code slowStart} of the maps are done (at least one map).
   */
  void listen(Tasks listener, int reduces, double slowStart) {
    this.tasks = listener;
    this.reduces = reduces;
    this.reducesUnassigned = reduces;
    this.reduceAskAt = Math.max(1, (int) Math.ceil(slowStart * splits.size()));
  }

  /** The task in {@code container} ended: its node reports this status with its next heartbeat. */
  ContainerStatus complete(ContainerId container) {
    int[] run = running.remove(container);
    launched.remove(container);
    if (run != null) {
      done[run[0]] = true;
      mapsDone++;
    } else if (reduceContainers.remove(container)) {
      reducesDone++;
    }
    return ContainerStatus.newInstance(container, ContainerState.COMPLETE, "done", 0);
  }

  int mapsDone() {
    return mapsDone;
  }

  /** Every map and every reduce is done. */
  boolean allDone() {
    return mapsDone == splits.size() && reducesDone == reduces;
  }

  private List<ResourceRequest> asks() {
    List<ResourceRequest> out = new ArrayList<>();
    int want = wantedReduces();
    if (tasks != null && want != reduceAsk) {
      reduceAsk = want;
      out.add(ResourceRequest.newInstance(Priority.newInstance(REDUCE_PRIORITY), ResourceRequest.ANY, map, want));
    }
    for (String k : changed) {
      int n = k.equals("*") ? anyAsk : hostAsk.containsKey(k) ? hostAsk.get(k) : rackAsk.getOrDefault(k, 0);
      out.add(ResourceRequest.newInstance(Priority.newInstance(MAP_PRIORITY), k, map, Math.max(0, n)));
    }
    changed.clear();
    return out;
  }

  /** Containers of the job's size that fit its last headroom. */
  private int headroomContainers() {
    return headroom == null ? 0 : (int) Math.min(headroom.getMemorySize() / map.getMemorySize(),
        headroom.getVirtualCores() / Math.max(1, map.getVirtualCores()));
  }

  /** How many reduces to have asked for now: none before slow-start; within the ramp-up limit while maps wait. */
  private int wantedReduces() {
    if (tasks == null || reduces == 0 || mapsDone < reduceAskAt) {
      return 0;
    }
    int pending = pendingMaps();
    if (pending == 0) {
      return reducesUnassigned;
    }
    int held = running.size() + reduceContainers.size();
    int limit = reduceLimit(held + headroomContainers(), mapsDone, splits.size(), pending + running.size());
    return Math.max(0, Math.min(reducesUnassigned, limit - reduceContainers.size()));
  }

  /**
   * The most reduces the MapReduce AM lets a job ask for and hold while some of its maps are not
   * yet running ({@code RMContainerAllocator.scheduleReduces}), in containers of one size, as the
   * replay's are. Of what the job holds plus its headroom ({@code total}), the reduces' ideal
   * share ramps up with the maps done, {@code ⌊total · min(done / maps, 1/2)⌋} (the ramp-up limit
   * {@code yarn.app.mapreduce.am.job.reduce.rampup.limit}); if the rest is at least the maps still
   * to finish, asked for or running ({@code unfinished}), what they leave of it goes to the
   * reduces too. Exact, {@code ⌊total · done / maps⌋} in long arithmetic; the AM computes in
   * memory and floats, which may round a share down by one container.
   */
  static int reduceLimit(int total, int done, int maps, int unfinished) {
    long ramped = maps == 0 ? total : (long) total * done / maps;
    int ideal = (int) Math.min(ramped, (long) Math.floor(total * REDUCE_RAMPUP_LIMIT));
    return total - ideal >= unfinished ? total - unfinished : ideal;
  }

  /** No map fits the headroom while maps wait: take back waiting reduces, as the MapReduce AM does. */
  private void preemptReducesIfNeeded() {
    int pendingMaps = pendingMaps();
    if (tasks == null || pendingMaps == 0 || reduceContainers.isEmpty() || headroomContainers() > 0) {
      return;
    }
    int held = running.size() + reduceContainers.size();
    int n = Math.min(Math.max(1, (int) Math.ceil(REDUCE_PREEMPTION_LIMIT * held)), pendingMaps);
    for (var it = reduceContainers.iterator(); it.hasNext() && n > 0; ) {
      ContainerId c = it.next();
      if (tasks.shuffling(c)) {
        continue;
      }
      it.remove();
      release.add(c);
      tasks.reducePreempted(c);
      reducesUnassigned++;
      n--;
    }
  }

  private List<String> blacklistAdditions = new ArrayList<>();

  /** Asks the RM never to place this job's containers on these hosts (sent with the next heartbeat). */
  void blacklist(String... hosts) {
    blacklistAdditions.addAll(List.of(hosts));
    blacklisted.addAll(List.of(hosts));
  }

  /** One AM heartbeat: send changed asks, releases and blacklist changes; match what arrives. */
  void heartbeat() throws Exception {
    List<ContainerId> rel = new ArrayList<>(release);
    release.clear();
    var request = org.apache.hadoop.yarn.api.protocolrecords.AllocateRequest.newInstance(0, 0F, asks(), rel,
        org.apache.hadoop.yarn.api.records.ResourceBlacklistRequest.newInstance(blacklistAdditions, List.of()));
    blacklistAdditions = new ArrayList<>();
    var response = am.allocate(request);
    headroom = response.getAvailableResources();
    for (var status : response.getCompletedContainersStatuses()) {
      int[] run = running.remove(status.getContainerId());
      launched.remove(status.getContainerId());
      if (run != null && status.getExitStatus() != 0) {
        // Lost or killed before it finished: the map is pending again (the real AM re-requests it).
        requeue(run[0]);
      }
    }
    assign(response.getAllocatedContainers());
    preemptReducesIfNeeded();
  }

  private void requeue(int t) {
    if (!pending[t]) {
      pending[t] = true;
      pendingCount++;
    }
    ranOn[t] = null;
    for (String h : splits.get(t)) {
      add(hostAsk, h, 1);
    }
    for (String r : racks(t)) {
      add(rackAsk, r, 1);
    }
    anyAsk++;
    changed.add("*");
  }

  /** The headroom the RM sent with the last heartbeat's answer. */
  Resource headroom;

  /** Containers started since the last round, not yet reported RUNNING by their node. */
  private final Set<ContainerId> launched = new LinkedHashSet<>();

  /** Hosts blacklisted so far. */
  final Set<String> blacklisted = new LinkedHashSet<>();

  private void assign(List<Container> containers) {
    List<Container> left = new ArrayList<>(containers);
    if (tasks != null) {
      for (var it = left.iterator(); it.hasNext(); ) {
        Container c = it.next();
        if (c.getPriority().getPriority() == REDUCE_PRIORITY) {
          it.remove();
          reduceAsk = Math.max(0, reduceAsk - 1); // the RM counts its ask down as it allocates
          if (reducesUnassigned > 0) {
            reducesUnassigned--;
            reduceContainers.add(c.getId());
            tasks.reduceStarted(reducesStarted++, c.getNodeId().getHost(), c.getId());
          } else {
            release.add(c.getId());
            released++;
          }
        }
      }
    }
    left.removeIf(c -> match(c, hostList.get(c.getNodeId().getHost()), 0));
    left.removeIf(c -> match(c, rackList.get(rackOf.getOrDefault(c.getNodeId().getHost(), "/default-rack")), 1));
    left.removeIf(c -> match(c, allPending(), 2));
    for (Container c : left) {
      release.add(c.getId());
      released++;
    }
  }

  private List<Integer> allPending() {
    List<Integer> out = new ArrayList<>();
    for (int t = 0; t < pending.length; t++) {
      out.add(t);
    }
    return out;
  }

  private boolean match(Container c, List<Integer> list, int lvl) {
    if (list == null) {
      return false;
    }
    for (int t : list) {
      if (pending[t]) {
        pending[t] = false;
        pendingCount--;
        String host = c.getNodeId().getHost();
        ranOn[t] = host;
        level[t] = lvl;
        for (String h : splits.get(t)) {
          add(hostAsk, h, -1);
        }
        for (String r : racks(t)) {
          add(rackAsk, r, -1);
        }
        anyAsk--;
        changed.add("*");
        running.put(c.getId(), new int[] {t, lvl + 1});
        containerHost.put(c.getId(), host);
        launched.add(c.getId());
        if (tasks != null) {
          tasks.mapStarted(t, host, lvl, c.getId());
        }
        return true;
      }
    }
    return false;
  }

  /** Advances running maps by one round; each node reports its finished ones in one heartbeat. */
  void tick(Map<String, MockNM> nodes) throws Exception {
    for (Map.Entry<String, List<ContainerStatus>> e : finishRound().entrySet()) {
      MockNM nm = nodes.get(e.getKey());
      if (nm != null) { // else its node is gone; the RM reports the container lost
        nm.nodeHeartbeat(e.getValue(), true);
      }
    }
  }

  /**
   * Advances running maps by one round and returns, by host, the statuses of the maps that
   * finished (for the caller to send with that node's next heartbeat).
   */
  Map<String, List<ContainerStatus>> finishRound() {
    Map<String, List<ContainerStatus>> out = new HashMap<>();
    for (var it = running.entrySet().iterator(); it.hasNext(); ) {
      var e = it.next();
      if (launched.remove(e.getKey()) && e.getValue()[1] > 1) {
        // As a NodeManager does, the node reports the container RUNNING once it has started.
        out.computeIfAbsent(containerHost.get(e.getKey()), k -> new ArrayList<>()).add(
            ContainerStatus.newInstance(e.getKey(), ContainerState.RUNNING, "", ContainerExitStatus.INVALID));
      }
      if (--e.getValue()[1] <= 0) {
        done[e.getValue()[0]] = true;
        out.computeIfAbsent(containerHost.get(e.getKey()), k -> new ArrayList<>()).add(
            ContainerStatus.newInstance(e.getKey(), ContainerState.COMPLETE, "done", 0));
        it.remove();
      }
    }
    return out;
  }

  /** The replica hosts of each map not yet given a container. */
  List<List<String>> pendingSplits() {
    List<List<String>> out = new ArrayList<>();
    for (int t = 0; t < pending.length; t++) {
      if (pending[t]) {
        out.add(splits.get(t));
      }
    }
    return out;
  }

  /** Maps not yet given a container. */
  int pendingMaps() {
    return pendingCount;
  }

  /** Maps that ran rack-local (1) or off-switch (2). */
  int atLevel(int lvl) {
    int n = 0;
    for (int t = 0; t < level.length; t++) {
      n += ranOn[t] != null && level[t] == lvl ? 1 : 0;
    }
    return n;
  }

  /** What each host's NodeManager reports after an RM restart: the AM and the running maps. */
  Map<String, List<org.apache.hadoop.yarn.server.api.protocolrecords.NMContainerStatus>> runningContainers(
      String amHost) {
    Map<String, List<org.apache.hadoop.yarn.server.api.protocolrecords.NMContainerStatus>> out = new HashMap<>();
    ContainerId amContainer = ContainerId.newContainerId(am.getApplicationAttemptId(), 1);
    out.computeIfAbsent(amHost, k -> new ArrayList<>()).add(status(amContainer, 0));
    running.keySet().forEach(id -> out.computeIfAbsent(containerHost.get(id), k -> new ArrayList<>())
        .add(status(id, MAP_PRIORITY)));
    return out;
  }

  private org.apache.hadoop.yarn.server.api.protocolrecords.NMContainerStatus status(ContainerId id,
      int priority) {
    return org.apache.hadoop.yarn.server.api.protocolrecords.NMContainerStatus.newInstance(id, 0,
        ContainerState.RUNNING, map, "running", 0, Priority.newInstance(priority), 0, "",
        org.apache.hadoop.yarn.api.records.ExecutionType.GUARANTEED, -1);
  }

  /**
   * After an RM restart the MapReduce AM re-registers with the new RM and re-sends its whole ask
   * table (RMContainerAllocator on resync).
   */
  void resync(org.apache.hadoop.yarn.server.resourcemanager.MockRM rm) throws Exception {
    am.setAMRMProtocol(rm.getApplicationMasterService(), rm.getRMContext());
    am.registerAppAttempt(true);
    changed.addAll(hostAsk.keySet());
    changed.addAll(rackAsk.keySet());
    changed.add("*");
  }

  /** Maps that are running now. */
  org.apache.hadoop.yarn.api.records.ApplicationId applicationId() {
    return am.getApplicationAttemptId().getApplicationId();
  }

  int runningMaps() {
    return running.size();
  }

  String describe() {
    int p = 0;
    for (boolean b : pending) {
      p += b ? 1 : 0;
    }
    return am.getApplicationAttemptId() + ": pending " + p + ", running " + running.size() + ", any ask " + anyAsk
        + ", blacklisted " + blacklisted;
  }

  boolean finished() {
    for (boolean d : done) {
      if (!d) {
        return false;
      }
    }
    return true;
  }

  int dataLocal() {
    int n = 0;
    for (int t = 0; t < level.length; t++) {
      n += ranOn[t] != null && level[t] == 0 ? 1 : 0;
    }
    return n;
  }

  int maxPerHost() {
    Map<String, Integer> count = new HashMap<>();
    for (String h : ranOn) {
      if (h != null) {
        count.merge(h, 1, Integer::sum);
      }
    }
    return count.values().stream().mapToInt(Integer::intValue).max().orElse(0);
  }

  /** The maps that ran away from their data: "map T on HOST, data on [HOSTS]", for a failure's message. */
  List<String> offData() {
    List<String> out = new ArrayList<>();
    for (int t = 0; t < level.length; t++) {
      if (ranOn[t] != null && level[t] != 0) {
        out.add("map " + t + " on " + ranOn[t] + ", data on " + splits.get(t));
      }
    }
    return out;
  }

  Map<String, Integer> perHost() {
    Map<String, Integer> count = new java.util.TreeMap<>();
    for (String h : ranOn) {
      if (h != null) {
        count.merge(h, 1, Integer::sum);
      }
    }
    return count;
  }
}
