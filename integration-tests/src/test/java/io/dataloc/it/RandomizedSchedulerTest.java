package io.dataloc.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.dataloc.yarn.LocalityScheduler;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
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
 * refreshed (good and bad). After every step: no node beyond its capacity, the scheduler's used
 * resource and the queue's allocated resource equal the sum of live containers, no container on
 * a removed node or of a killed job, no error caught in the scheduler. At the end, with every
 * node back, every surviving job finishes its maps within a bounded number of rounds (liveness).
 *
 * <p>{@code -Dreliability.sequences=N} sets how many sequences run (default 150; the
 * {@code reliability} profile runs 2,000). A failure prints its seed and a shrunk sequence: steps
 * removed one at a time while the failure remains.
 */
class RandomizedSchedulerTest {
  private static final int HOSTS = 5;
  private static final int STEPS = 30;
  @TempDir Path dir;
  /** Nodes shrunk below their allocation: host → allocation, which may only fall. */
  private final Map<String, Long> overcommitted = new java.util.HashMap<>();

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
        default -> "round";
      };
    }
  }

  static List<Step> sequence(long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    List<Step> steps = new ArrayList<>();
    for (int i = 0; i < STEPS; i++) {
      steps.add(new Step(rnd.nextInt(14), rnd.nextLong(), rnd.nextLong(), rnd.nextLong()));
    }
    return steps;
  }

  @Test
  void randomEventSequencesKeepTheSchedulerConsistentAndLive() throws Exception {
    MiniMr.quiet = true; // thousands of RMs: MockRM's DEBUG root logger would write gigabytes
    int sequences = Integer.getInteger("reliability.sequences", 150);
    int events = 0;
    for (int i = 0; i < sequences; i++) {
      // 47514 (= 6 × 7919) found that an engine rebuild (-refreshQueues) forgot which application
      // each engine job belongs to; it stays in the list.
      long seed = i == 0 ? 47514 : 7919L * (i + 1);
      List<Step> steps = sequence(seed);
      String failure = run(steps, dir.resolve("s" + i));
      if (failure != null) {
        System.out.println("randomized: seed " + seed + " failed (shrinking): " + failure);
        List<Step> shrunk = shrink(steps, dir.resolve("shrink" + i));
        fail("seed " + seed + " failed: " + failure + "\nshrunk to " + shrunk.size() + " steps: " + shrunk
            + "\nfailure of the shrunk sequence: " + run(shrunk, dir.resolve("again" + i)));
      }
      events += steps.size();
      MiniMr.deleteQuietly(dir.resolve("s" + i));
    }
    System.out.println("randomized: " + sequences + " sequences, " + events + " events, all consistent and live");
  }

  /** Removes steps one at a time, keeping each removal after which the sequence still fails. */
  private List<Step> shrink(List<Step> steps, Path work) throws Exception {
    List<Step> current = new ArrayList<>(steps);
    boolean progress = true;
    int attempt = 0;
    while (progress) {
      progress = false;
      for (int i = current.size() - 1; i >= 0; i--) {
        List<Step> fewer = new ArrayList<>(current);
        fewer.remove(i);
        if (run(fewer, work.resolve("a" + attempt++)) != null) {
          current = fewer;
          progress = true;
        }
      }
    }
    return current;
  }

  /** Runs one sequence; null if every invariant held and every job finished, else what broke. */
  private String run(List<Step> steps, Path work) throws Exception {
    Map<String, String> topology = Scenarios.twoRacks(HOSTS);
    List<String> trace = new ArrayList<>();
    overcommitted.clear();
    // AMs are placed by the test on h1 whenever it has room, so the AM limit (ManyJobsTest's
    // business) is lifted here.
    try (MiniMr c = MiniMr.start(LocalityScheduler.class, Map.of("yarn.scheduler.dataloc.plan.time-budget-ms", "500",
        "yarn.scheduler.dataloc.maximum-am-resource-percent", "1"),
        topology, 4096, work)) {
      LocalityScheduler s = (LocalityScheduler) c.rm.getResourceScheduler();
      Map<String, MockNM> gone = new LinkedHashMap<>();
      List<MrJob> jobs = new ArrayList<>();
      List<RMApp> apps = new ArrayList<>();
      Set<RMApp> killed = new HashSet<>();
      int k = 0;
      try {
        for (Step step : steps) {
          trace.add(k++ + ":" + apply(step, c, s, gone, jobs, apps, killed));
          c.rm.drainEvents();
          checkInvariants(c, s, gone.keySet(), killed);
        }
        // Liveness: every node back at full size, every surviving job completes its maps.
        for (Map.Entry<String, MockNM> e : gone.entrySet()) {
          c.nodes.put(e.getKey(), c.rm.registerNode(e.getKey() + ":3999", 4096));
        }
        c.rm.drainEvents();
        for (int r = 0; r < 150 && !jobs.stream().allMatch(MrJob::finished); r++) {
          round(c, jobs);
          checkInvariants(c, s, Set.of(), killed);
        }
        for (MrJob j : jobs) {
          assertTrue(j.finished(), "a job was starved (" + j.describe() + "; scheduler " + s.jobReports() + ")");
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
        int[] counts = s.engineCounts();
        assertEquals(0, counts[0], "no engine job once every application has ended");
        assertEquals(0, counts[1], "no engine task once every application has ended");
        return null;
      } catch (AssertionError | Exception e) {
        return e + " after " + trace;
      }
    }
  }

  private String apply(Step step, MiniMr c, LocalityScheduler s, Map<String, MockNM> gone, List<MrJob> jobs,
      List<RMApp> apps, Set<RMApp> killed) throws Exception {
    SplittableRandom rnd = new SplittableRandom(step.a());
    switch (step.op()) {
      case 0, 1 -> {
        if (jobs.size() >= 3) {
          break;
        }
        int m = 2 + rnd.nextInt(10);
        List<List<String>> splits = rnd.nextBoolean() ? Scenarios.spread(m, HOSTS, 2, step.b())
            : Scenarios.skewed(m, HOSTS, 2, 2, step.b());
        boolean withFile = rnd.nextInt(4) > 0;
        // AMs live on h1, which is never removed or shrunk (an AM's loss is the retry test's
        // business); MockRM launches the AM through h1's heartbeat, so skip when h1 has no room.
        if (s.getSchedulerNode(c.nodes.get("h1").getNodeId()).getUnallocatedResource().getMemorySize() < 1024) {
          return "submit skipped (h1 full)";
        }
        RMApp app = c.submit("u" + rnd.nextInt(3), withFile ? splits : null);
        jobs.add(c.launch(app, "h1", splits));
        apps.add(app);
        return "submit " + m + " maps" + (withFile ? "" : " (no split file)");
      }
      case 2, 7 -> {
        if (c.nodes.size() <= 2) {
          break;
        }
        String h = new ArrayList<>(c.nodes.keySet()).get(1 + rnd.nextInt(c.nodes.size() - 1));
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
        c.nodes.put(h, c.rm.registerNode(h + ":" + (2000 + rnd.nextInt(1000)), 4096));
        return "re-add " + h;
      }
      case 4 -> {
        if (apps.isEmpty() || rnd.nextInt(3) != 0) {
          break;
        }
        int i = rnd.nextInt(apps.size());
        c.rm.killApp(apps.get(i).getApplicationId());
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
        String h = "h" + (1 + rnd.nextInt(HOSTS));
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
        hosts.remove("h1");
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
        }
        return "resize " + h + " to " + mb + " MB";
      }
      case 9 -> {
        // A map container the AM has not started yet expires (the RM's allocation expirer). (The
        // mock NodeManagers never report RUNNING, so every map container qualifies until done.)
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
      default -> {
        round(c, jobs);
        return "round";
      }
    }
    return step.name() + " skipped";
  }

  private static void round(MiniMr c, List<MrJob> jobs) throws Exception {
    for (MrJob j : jobs) {
      j.heartbeat();
    }
    for (MockNM nm : c.nodeList()) {
      nm.nodeHeartbeat(true);
      c.rm.drainEvents();
    }
    for (MrJob j : jobs) {
      j.heartbeat();
      j.tick(c.nodes);
    }
    c.rm.drainEvents();
  }

  private void checkInvariants(MiniMr c, LocalityScheduler s, Set<String> goneHosts, Set<RMApp> killed) {
    Resource live = Resource.newInstance(0, 0);
    for (FiCaSchedulerNode n : allNodes(s)) {
      long allocated = n.getAllocatedResource().getMemorySize();
      Long drainingFrom = overcommitted.get(n.getNodeName());
      if (drainingFrom != null && allocated > n.getTotalResource().getMemorySize()) {
        assertTrue(allocated <= drainingFrom, "node " + n.getNodeName() + " got containers while over its new size");
        overcommitted.put(n.getNodeName(), allocated);
      } else {
        overcommitted.remove(n.getNodeName());
        // Memory, as the scheduler's resource calculator (DefaultResourceCalculator) counts.
        assertTrue(allocated <= n.getTotalResource().getMemorySize(), "node " + n.getNodeName()
            + " over capacity (allocated " + n.getAllocatedResource() + " of " + n.getTotalResource() + ")");
      }
      assertTrue(!goneHosts.contains(n.getNodeName()), "a removed node is still tracked: " + n.getNodeName());
      for (RMContainer rc : n.getCopiedListOfRunningContainers()) {
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
    int[] counts = s.engineCounts();
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
