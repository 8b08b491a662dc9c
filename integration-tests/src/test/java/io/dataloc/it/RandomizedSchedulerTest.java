package io.dataloc.it;

import io.dataloc.core.workload.Scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.dataloc.yarn.LocalityScheduler;
import io.dataloc.yarn.WaitReport;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceOption;
import org.apache.hadoop.yarn.server.api.protocolrecords.UpdateNodeResourceRequest;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerState;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNodeEventType;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.ContainerExpiredSchedulerEvent;
import org.apache.hadoop.yarn.util.resource.Resources;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded random event sequences against the real scheduler in a MockRM: jobs submitted (with or
 * without split files), AM and node heartbeats, maps finishing, nodes lost, decommissioned,
 * resized and re-added, containers expiring before launch, jobs killed, blacklists, settings
 * refreshed (good and bad), ApplicationMasters failing and retried, nodes decommissioned gracefully
 * (draining). After every step: no node beyond its capacity, the scheduler's used
 * resource and the queue's allocated resource equal the sum of live containers, no container on
 * a removed node or of a killed job, the engine's running tasks exactly the containers tied to
 * tasks, no error caught in the scheduler. At the end, with every node back, every surviving job
 * finishes its maps within a bounded number of rounds (liveness), and once every application is
 * killed the engine holds nothing.
 *
 * <p>Two scales: {@link Scale#SMALL} (5 hosts, up to 3 jobs of up to 11 maps, 30 steps) and
 * {@link Scale#LARGE} (20 hosts, up to 30 jobs of up to 200 maps, 80 steps).
 * {@code -Dreliability.sequences=N} sets how many small sequences run (default 300; the
 * {@code reliability} profile runs 3,000), a tenth as many large ones. A failure prints its seed
 * and a shrunk sequence: steps removed one at a time while the failure remains.
 */
class RandomizedSchedulerTest {
  /**
   * How big a sequence gets: hosts (8 GB each; AMs run on the first {@code amHosts}, which are
   * never lost, decommissioned, resized or drained), steps, concurrent jobs, maps per job.
   */
  record Scale(int hosts, int steps, int maxJobs, int maxMaps, int amHosts, int nodeMb) {
    static final Scale SMALL = new Scale(5, 30, 3, 11, 1, 4096);
    static final Scale LARGE = new Scale(20, 80, 30, 200, 4, 8192);

    boolean isAmHost(String h) {
      return Integer.parseInt(h.substring(1)) <= amHosts;
    }
  }

  /**
   * The scheduler's clock: one second passes per round, as between a cluster's node heartbeats.
   * (On the wall clock a round of this harness takes milliseconds, so the policy's waits, counted
   * in seconds, would never run out within the liveness bound.)
   */
  private final org.apache.hadoop.yarn.util.ControlledClock clock = new org.apache.hadoop.yarn.util.ControlledClock();
  /** Nodes decommissioned gracefully (draining) in the current sequence. */
  private final Set<String> draining = new HashSet<>();
  @TempDir Path dir;
  /** Decommissioning nodes above the size YARN shrank them to: host → allocation, which may only fall. */
  private final Map<String, Long> drainingOver = new java.util.HashMap<>();
  /** Nodes shrunk below their allocation: host → allocation, which may only fall. */
  private final Map<String, Long> overcommitted = new java.util.HashMap<>();
  /** The size an overcommitted node was last given by the admin service (its drain ends there). */
  private final Map<String, Long> adminSize = new java.util.HashMap<>();

  /** One step: an operation and three random arguments (interpreted against the state it meets). */
  record Step(int op, long a, long b, long c) {
    String name() {
      return switch (op) {
        case 0, 1 -> "submit";
        case 2 -> "lose";
        case 3 -> "re-add";
        case 4 -> "kill";
        case 5 -> "blacklist";
        case 6 -> "refresh";
        case 7 -> "decommission";
        case 8 -> "resize";
        case 9 -> "expire";
        case 14 -> "fail AM";
        case 15 -> "drain";
        default -> "round";
      };
    }
  }

  static List<Step> sequence(long seed, Scale scale) {
    SplittableRandom rnd = new SplittableRandom(seed);
    List<Step> steps = new ArrayList<>();
    for (int i = 0; i < scale.steps(); i++) {
      int op = rnd.nextInt(16);
      if (scale.maxJobs() > 3 && (op == 10 || op == 11)) {
        op = 0; // large sequences submit three times as often, to reach tens of jobs at once
      }
      steps.add(new Step(op, rnd.nextLong(), rnd.nextLong(), rnd.nextLong()));
    }
    return steps;
  }

  @Test
  void randomEventSequencesKeepTheSchedulerConsistentAndLive() throws Exception {
    sequences(Scale.SMALL, Integer.getInteger("reliability.sequences", 300), "small");
  }

  /** Many jobs of many maps on many hosts, AMs failing and retried, nodes draining. */
  @Test
  void manyJobsOnManyHostsStayConsistentAndLive() throws Exception {
    sequences(Scale.LARGE, Math.max(1, Integer.getInteger("reliability.sequences", 300) / 10), "large");
  }

  private void sequences(Scale scale, int sequences, String label) throws Exception {
    MiniMr.quiet = true; // thousands of RMs: MockRM's DEBUG root logger would write gigabytes
    int events = 0;
    Long only = Long.getLong("reliability.seed");
    for (int i = 0; i < sequences; i++) {
      if (only != null && only != (i == 0 && scale == Scale.SMALL ? 47514 : 7919L * (i + 1))) {
        continue;
      }
      // 47514 (= 6 × 7919) found that an engine rebuild (-refreshQueues) forgot which application
      // each engine job belongs to; it stays in the list.
      long seed = i == 0 && scale == Scale.SMALL ? 47514 : 7919L * (i + 1);
      List<Step> steps = sequence(seed, scale);
      String failure = run(steps, dir.resolve("s" + i), scale);
      if (failure != null) {
        System.out.println("randomized " + label + ": seed " + seed + " failed (shrinking): " + failure);
        List<Step> shrunk = shrink(steps, dir.resolve("shrink" + i), scale);
        fail("seed " + seed + " failed: " + failure + "\nshrunk to " + shrunk.size() + " steps: " + shrunk
            + "\nfailure of the shrunk sequence: " + run(shrunk, dir.resolve("again" + i), scale));
      }
      events += steps.size();
      MiniMr.deleteQuietly(dir.resolve("s" + i));
    }
    System.out.println("randomized " + label + ": " + sequences + " sequences, " + events
        + " events, all consistent and live");
  }

  /** Removes steps one at a time, keeping each removal after which the sequence still fails. */
  private List<Step> shrink(List<Step> steps, Path work, Scale scale) throws Exception {
    List<Step> current = new ArrayList<>(steps);
    boolean progress = true;
    int attempt = 0;
    while (progress) {
      progress = false;
      for (int i = current.size() - 1; i >= 0; i--) {
        List<Step> fewer = new ArrayList<>(current);
        fewer.remove(i);
        if (run(fewer, work.resolve("a" + attempt++), scale) != null) {
          current = fewer;
          progress = true;
        }
      }
    }
    return current;
  }

  /** Runs one sequence; null if every invariant held and every job finished, else what broke. */
  private String run(List<Step> steps, Path work, Scale scale) throws Exception {
    Map<String, String> topology = Scenarios.twoRacks(scale.hosts());
    List<String> trace = new ArrayList<>();
    overcommitted.clear();
    adminSize.clear();
    draining.clear();
    drainingOver.clear();
    // AMs are placed by the test on h1 whenever it has room, so the AM limit (ManyJobsTest's
    // business) is lifted here.
    try (MiniMr c = MiniMr.start(LocalityScheduler.class, Map.of("yarn.scheduler.dataloc.plan.time-budget-ms", "500",
        "yarn.scheduler.dataloc.maximum-am-resource-percent", "1"),
        topology, scale.nodeMb(), work)) {
      LocalityScheduler s = (LocalityScheduler) c.rm.getResourceScheduler();
      clock.setTime(System.currentTimeMillis());
      s.setClock(clock);
      Map<String, MockNM> gone = new LinkedHashMap<>();
      List<MrJob> jobs = new ArrayList<>();
      List<RMApp> apps = new ArrayList<>();
      Set<RMApp> killed = new HashSet<>();
      int k = 0;
      try {
        for (Step step : steps) {
          trace.add(k++ + ":" + apply(step, c, s, gone, jobs, apps, killed, scale));
          c.rm.drainEvents();
          checkInvariants(c, s, gone.keySet(), killed);
        }
        // Liveness: every node back at full size, every surviving job completes its maps.
        retireDecommissioned(c, gone);
        for (Map.Entry<String, MockNM> e : gone.entrySet()) {
          c.nodes.put(e.getKey(), c.register(e.getKey() + ":3999", scale.nodeMb()));
        }
        for (String h : draining) {
          c.rm.sendNodeEvent(c.nodes.get(h), RMNodeEventType.RECOMMISSION);
        }
        c.rm.drainEvents();
        for (int r = 0; r < 200 && !jobs.stream().allMatch(MrJob::finished); r++) {
          round(c, jobs, gone);
          checkInvariants(c, s, Set.of(), killed);
        }
        for (MrJob j : jobs) {
          assertTrue(j.finished(), "a job was starved (" + j.describe() + "; "
              + waits(s, j.am.getApplicationAttemptId().getApplicationId()) + "; nodes " + nodeStates(c, s)
              + "; scheduler " + s.reports().jobs() + ")");
        }
        for (RMApp app : killed) {
          assertEquals(RMAppState.KILLED, app.getState());
        }
        // Every application ends: the engine must hold nothing.
        for (RMApp app : apps) {
          c.rm.killApp(app.getApplicationId());
        }
        for (RMApp app : apps) {
          c.rm.waitForState(app.getApplicationId(), RMAppState.KILLED);
        }
        c.rm.drainEvents();
        // The nodes kill what the RM told them to and report it: then every node is empty again.
        for (int r = 0; r < 2; r++) {
          for (MockNM nm : c.nodeList()) {
            nm.nodeHeartbeat(true);
            c.rm.drainEvents();
          }
        }
        for (FiCaSchedulerNode n : allNodes(s)) {
          assertEquals(0, n.getAllocatedResource().getMemorySize(), "node " + n.getNodeName() + " still holds "
              + n.getCopiedListOfRunningContainers() + " after every application ended");
        }
        assertEquals(0, s.getUsedResource().getMemorySize(), "nothing used once every application ended");
        int[] counts = s.reports().engineCounts();
        assertEquals(0, counts[0], "no engine job once every application has ended");
        assertEquals(0, counts[1], "no engine task once every application has ended");
        return null;
      } catch (AssertionError | Exception e) {
        return e + " after " + trace;
      }
    }
  }

  private String apply(Step step, MiniMr c, LocalityScheduler s, Map<String, MockNM> gone, List<MrJob> jobs,
      List<RMApp> apps, Set<RMApp> killed, Scale scale) throws Exception {
    SplittableRandom rnd = new SplittableRandom(step.a());
    switch (step.op()) {
      case 0, 1 -> {
        if (jobs.size() >= scale.maxJobs()) {
          break;
        }
        int m = 2 + rnd.nextInt(scale.maxMaps() - 1);
        List<List<String>> splits = rnd.nextBoolean() ? Scenarios.spread(m, scale.hosts(), 2, step.b())
            : Scenarios.skewed(m, scale.hosts(), 2, 2, step.b());
        boolean withFile = rnd.nextInt(4) > 0;
        // AMs live on the AM hosts, which are never removed or shrunk (an AM's loss is the
        // "fail AM" step's business); MockRM launches the AM through that node's heartbeat, so
        // skip when none has room.
        String amHost = amHostWithRoom(c, s, scale);
        if (amHost == null) {
          return "submit skipped (AM hosts full)";
        }
        RMApp app = c.submit("u" + rnd.nextInt(3), withFile ? splits : null);
        jobs.add(c.launch(app, amHost, splits));
        apps.add(app);
        return "submit " + m + " maps" + (withFile ? "" : " (no split file)");
      }
      case 2, 7 -> {
        if (c.nodes.size() <= 2) {
          break;
        }
        List<String> candidates = new ArrayList<>(c.nodes.keySet());
        candidates.removeIf(scale::isAmHost);
        if (candidates.isEmpty()) {
          break;
        }
        String h = candidates.get(rnd.nextInt(candidates.size()));
        draining.remove(h);
        forgetSize(h); // a node that comes back under this name is a new node
        MockNM nm = c.nodes.remove(h);
        if (step.op() == 2) {
          c.rm.sendNodeLost(nm);
        } else {
          c.rm.sendNodeEvent(nm, RMNodeEventType.DECOMMISSION);
        }
        gone.put(h, nm);
        return (step.op() == 2 ? "lose " : "decommission ") + h;
      }
      case 3 -> {
        if (gone.isEmpty()) {
          break;
        }
        String h = gone.keySet().iterator().next();
        gone.remove(h);
        c.nodes.put(h, c.register(h + ":" + (2000 + rnd.nextInt(1000)), scale.nodeMb()));
        return "re-add " + h;
      }
      case 4 -> {
        if (apps.isEmpty() || rnd.nextInt(3) != 0) {
          break;
        }
        int i = rnd.nextInt(apps.size());
        c.rm.killApp(apps.get(i).getApplicationId());
        // The kill is over when the application is KILLED (its containers released by then).
        c.rm.waitForState(apps.get(i).getApplicationId(), RMAppState.KILLED);
        c.rm.drainEvents();
        killed.add(apps.get(i));
        String what = "kill " + apps.get(i).getApplicationId();
        apps.remove(i);
        jobs.remove(i);
        return what;
      }
      case 5 -> {
        if (jobs.isEmpty()) {
          break;
        }
        // As the MapReduce AM, never blacklist more than a third of the cluster.
        String h = "h" + (1 + rnd.nextInt(scale.hosts()));
        MrJob j = jobs.get(rnd.nextInt(jobs.size()));
        if (j.blacklisted.isEmpty() || j.blacklisted.contains(h)) {
          j.blacklist(h);
          return "blacklist " + h;
        }
        break;
      }
      case 6 -> {
        var conf = new org.apache.hadoop.yarn.conf.YarnConfiguration(c.rm.getConfig());
        conf.set("yarn.scheduler.dataloc.assigner", rnd.nextBoolean() ? "flow" : "bar");
        if (rnd.nextInt(4) == 0) {
          conf.set("yarn.scheduler.dataloc.cost.local", "-1");
        }
        try {
          s.reinitialize(conf, c.rm.getRMContext());
          return "refresh to " + conf.get("yarn.scheduler.dataloc.assigner");
        } catch (java.io.IOException refused) {
          return "refresh refused";
        }
      }
      case 8 -> {
        List<String> hosts = new ArrayList<>(c.nodes.keySet());
        hosts.removeIf(h -> scale.isAmHost(h) || draining.contains(h));
        if (hosts.isEmpty()) {
          break;
        }
        String h = hosts.get(rnd.nextInt(hosts.size()));
        int mb = 1024 * (1 + rnd.nextInt(6));
        NodeId id = c.nodes.get(h).getNodeId();
        c.rm.getAdminService().updateNodeResource(UpdateNodeResourceRequest.newInstance(
            Map.of(id, ResourceOption.newInstance(Resource.newInstance(mb, 4), -1))));
        c.rm.drainEvents();
        // Shrinking below what runs there is allowed (the containers keep running); from then on
        // the node may only drain.
        long allocated = s.getSchedulerNode(id).getAllocatedResource().getMemorySize();
        if (allocated > mb) {
          overcommitted.put(h, allocated);
          adminSize.put(h, (long) mb);
        } else {
          overcommitted.remove(h); // within its new size: an earlier drain is over
          adminSize.remove(h);
        }
        return "resize " + h + " to " + mb + " MB";
      }
      case 9 -> {
        // A map container the AM has not started yet expires (the RM's allocation expirer): one
        // its node has not yet reported RUNNING (the mock nodes report it the round after it starts).
        for (FiCaSchedulerNode n : allNodes(s)) {
          for (RMContainer rc : n.getCopiedListOfRunningContainers()) {
            if (!rc.isAMContainer()
                && (rc.getState() == RMContainerState.ALLOCATED || rc.getState() == RMContainerState.ACQUIRED)) {
              s.handle(new ContainerExpiredSchedulerEvent(rc.getContainerId()));
              return "expire " + rc.getContainerId();
            }
          }
        }
        break;
      }
      case 14 -> {
        // The AM's container fails; the RM starts a second attempt, whose AM asks for every map
        // again (the jobs here keep no recovery log).
        if (jobs.isEmpty()) {
          break;
        }
        int i = rnd.nextInt(jobs.size());
        RMApp app = apps.get(i);
        if (app.getAppAttempts().size() >= 2) {
          break;
        }
        var attempt = app.getCurrentAppAttempt();
        String host = attempt.getMasterContainer().getNodeId().getHost();
        // Killed through the scheduler, not reported by a node heartbeat (which would hand the
        // freed room to a map before the new attempt asks for its AM).
        s.killContainer(s.getRMContainer(attempt.getMasterContainer().getId()));
        c.rm.drainEvents();
        c.rm.waitForState(attempt.getAppAttemptId(),
            org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptState.FAILED);
        c.rm.drainEvents();
        String amHost = amHostWithRoom(c, s, scale);
        if (amHost == null) {
          throw new IllegalStateException("no AM host has room for the retry after " + host + "'s AM failed");
        }
        jobs.set(i, c.launch(app, amHost, jobs.get(i).splits));
        return "fail AM of " + app.getApplicationId() + " (retried on " + amHost + ")";
      }
      case 15 -> {
        List<String> candidates = new ArrayList<>(c.nodes.keySet());
        candidates.removeIf(h -> scale.isAmHost(h) || draining.contains(h));
        if (candidates.isEmpty()) {
          break;
        }
        String h = candidates.get(rnd.nextInt(candidates.size()));
        c.rm.sendNodeGracefulDecommission(c.nodes.get(h), 3600);
        c.rm.drainEvents();
        draining.add(h);
        return "drain " + h;
      }
      default -> {
        round(c, jobs, gone);
        return "round";
      }
    }
    return step.name() + " skipped";
  }

  /**
   * A draining node leaves (DECOMMISSIONED) once nothing runs there: it is gone from then on, and
   * re-added like a lost one.
   */
  private void retireDecommissioned(MiniMr c, Map<String, MockNM> gone) {
    for (String h : new ArrayList<>(c.nodes.keySet())) {
      var node = c.rm.getRMContext().getRMNodes().get(c.nodes.get(h).getNodeId());
      if (node == null || node.getState() == org.apache.hadoop.yarn.api.records.NodeState.DECOMMISSIONED) {
        gone.put(h, c.nodes.remove(h));
        draining.remove(h);
        forgetSize(h);
      }
    }
  }

  /** Why the application waits, or that the scheduler no longer knows it. */
  private static String waits(LocalityScheduler s, ApplicationId id) {
    WaitReport r = s.waitReports().of(id);
    return r == null ? "no report" : r.asMap().toString();
  }

  private static String nodeStates(MiniMr c, LocalityScheduler s) {
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<String, MockNM> e : c.nodes.entrySet()) {
      var n = s.getSchedulerNode(e.getValue().getNodeId());
      var rm = c.rm.getRMContext().getRMNodes().get(e.getValue().getNodeId());
      sb.append(e.getKey()).append('=').append(rm == null ? "?" : rm.getState()).append(' ')
          .append(n == null ? "-" : n.getAllocatedResource().getMemorySize() + "/" + n.getTotalResource().getMemorySize())
          .append("; ");
    }
    return sb.toString();
  }

  private void forgetSize(String h) {
    overcommitted.remove(h);
    adminSize.remove(h);
  }

  /** The first AM host with room for an AM container, or null. */
  private static String amHostWithRoom(MiniMr c, LocalityScheduler s, Scale scale) {
    for (int h = 1; h <= scale.amHosts(); h++) {
      MockNM nm = c.nodes.get("h" + h);
      if (nm != null && s.getSchedulerNode(nm.getNodeId()).getUnallocatedResource().getMemorySize() >= 1024) {
        return "h" + h;
      }
    }
    return null;
  }

  private void round(MiniMr c, List<MrJob> jobs, Map<String, MockNM> gone) throws Exception {
    clock.tickSec(1);
    retireDecommissioned(c, gone);
    for (MrJob j : jobs) {
      j.heartbeat();
    }
    for (MockNM nm : c.nodeList()) {
      nm.nodeHeartbeat(true);
      c.rm.drainEvents();
      retireDecommissioned(c, gone); // a draining node may have just left
    }
    for (MrJob j : jobs) {
      j.heartbeat();
      // The headroom an AM is told is what the cluster has free now (memory, as the calculator counts).
      LocalityScheduler s = (LocalityScheduler) c.rm.getResourceScheduler();
      long free = Math.max(0, s.getClusterResource().getMemorySize() - s.getUsedResource().getMemorySize());
      assertEquals(free, j.headroom.getMemorySize(), "headroom is the cluster's free memory");
      j.tick(c.nodes);
      c.rm.drainEvents();
      retireDecommissioned(c, gone);
    }
    c.rm.drainEvents();
  }

  private static final Set<RMContainerState> ENDED = Set.of(RMContainerState.COMPLETED, RMContainerState.KILLED,
      RMContainerState.RELEASED, RMContainerState.EXPIRED);

  private void checkInvariants(MiniMr c, LocalityScheduler s, Set<String> goneHosts, Set<RMApp> killed) {
    Resource live = Resource.newInstance(0, 0);
    for (FiCaSchedulerNode n : allNodes(s)) {
      long allocated = n.getAllocatedResource().getMemorySize();
      Long drainingFrom = overcommitted.get(n.getNodeName());
      // A node shrunk below what it runs may only drain until it is within the size it was given
      // (a graceful decommission may meanwhile set its total to what it runs, and a recommission
      // back to the given size).
      if (drainingFrom != null && allocated > adminSize.getOrDefault(n.getNodeName(), 0L)) {
        assertTrue(allocated <= drainingFrom, "node " + n.getNodeName() + " got containers while over its new size");
        overcommitted.put(n.getNodeName(), allocated);
      } else if (n.getRMNode().getState() == org.apache.hadoop.yarn.api.records.NodeState.DECOMMISSIONING
          && allocated > n.getTotalResource().getMemorySize()) {
        // YARN shrinks a decommissioning node to what its NodeManager reports running: containers
        // allocated before the drain and not yet running may leave it over that size. It may only
        // drain from there: no new container.
        Long was = drainingOver.get(n.getNodeName());
        assertTrue(was == null || allocated <= was, "decommissioning node " + n.getNodeName() + " got containers");
        drainingOver.put(n.getNodeName(), allocated);
      } else {
        drainingOver.remove(n.getNodeName());
        overcommitted.remove(n.getNodeName());
        adminSize.remove(n.getNodeName());
        // Memory, as the scheduler's resource calculator (DefaultResourceCalculator) counts.
        assertTrue(allocated <= n.getTotalResource().getMemorySize(), "node " + n.getNodeName()
            + " over capacity (allocated " + n.getAllocatedResource() + " of " + n.getTotalResource() + ")");
      }
      assertTrue(!goneHosts.contains(n.getNodeName()), "a removed node is still tracked: " + n.getNodeName());
      for (RMContainer rc : n.getCopiedListOfRunningContainers()) {
        if (ENDED.contains(rc.getState())) {
          // Ended in the RM; its node keeps the room until the NodeManager reports it gone (YARN's
          // rule for a container the node has started): the end of the run checks that it does.
          continue;
        }
        Resources.addTo(live, rc.getAllocatedResource());
        for (RMApp app : killed) {
          assertTrue(!rc.getApplicationAttemptId().getApplicationId().equals(app.getApplicationId()),
              "a killed job's container lives on: " + rc.getContainerId());
        }
      }
    }
    assertEquals(live.getMemorySize(), s.getUsedResource().getMemorySize(), "used resource equals the live containers");
    assertEquals(live.getMemorySize(), s.getRootQueueMetrics().getAllocatedMB(),
        "queue metrics equal the live containers");
    assertEquals(0, s.datalocMetrics().errors(), "no error caught");
    int[] counts = s.reports().engineCounts();
    assertEquals(counts[3], counts[4], "the engine's running tasks are the containers tied to tasks");
  }

  private static List<FiCaSchedulerNode> allNodes(LocalityScheduler s) {
    List<FiCaSchedulerNode> out = new ArrayList<>();
    for (NodeId id : s.getNodeTracker().getAllNodes().stream().map(SchedulerNode::getNodeID).toList()) {
      out.add((FiCaSchedulerNode) s.getSchedulerNode(id));
    }
    return out;
  }
}
