package io.dataloc.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerNode;
import org.apache.hadoop.yarn.util.resource.Resources;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Seeded random event sequences against the real scheduler in a MockRM: jobs submitted (with or
 * without split files), AM and node heartbeats, maps finishing, nodes lost and re-added, jobs
 * killed, blacklists, settings refreshed. After every step: no node beyond its capacity, the
 * scheduler's used resource equals the sum of live containers, no container on a lost node, no
 * error caught in the scheduler. At the end, with every node back, every surviving job finishes
 * its maps within a bounded number of rounds (liveness). A failure names its seed and step.
 */
class RandomizedSchedulerTest {
  @TempDir Path dir;

  static List<Long> seeds() {
    List<Long> out = new ArrayList<>();
    for (long s = 1; s <= 12; s++) {
      // Seed 6 × 7919 = 47514 found that an engine rebuild (-refreshQueues) forgot which
      // application each engine job belongs to, stranding its maps.
      out.add(s * 7919);
    }
    return out;
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void randomEventsKeepTheSchedulerConsistentAndLive(long seed) throws Exception {
    SplittableRandom rnd = new SplittableRandom(seed);
    Map<String, String> topology = Scenarios.twoRacks(5);
    try (MiniMr c = MiniMr.start(LocalityScheduler.class, Map.of("yarn.scheduler.dataloc.plan.time-budget-ms", "500"),
        topology, 4096, dir.resolve("s" + seed))) {
      LocalityScheduler s = (LocalityScheduler) c.rm.getResourceScheduler();
      Map<String, MockNM> lost = new LinkedHashMap<>();
      List<MrJob> jobs = new ArrayList<>();
      List<RMApp> apps = new ArrayList<>();
      Set<RMApp> killed = new HashSet<>();
      List<String> trace = new ArrayList<>();
      for (int step = 0; step < 40; step++) {
        int op = rnd.nextInt(10);
        String what;
        if (op <= 1 && jobs.size() < 3) {
          int m = 2 + rnd.nextInt(10);
          List<List<String>> splits = rnd.nextBoolean() ? Scenarios.spread(m, 5, 2, rnd.nextLong())
              : Scenarios.skewed(m, 5, 2, 2, rnd.nextLong());
          boolean withFile = rnd.nextInt(4) > 0;
          RMApp app = c.submit("u" + rnd.nextInt(3), withFile ? splits : null);
          // AMs live on h1, which is never lost (an AM's loss is the retry test's business); MockRM
          // launches the AM through h1's heartbeat, so skip when h1 has no room.
          String amHost = "h1";
          if (s.getSchedulerNode(c.nodes.get(amHost).getNodeId()).getUnallocatedResource().getMemorySize() < 1024) {
            trace.add(step + ": submit skipped (h1 full)");
            continue;
          }
          jobs.add(c.launch(app, amHost, splits));
          apps.add(app);
          what = "submit " + m + " maps" + (withFile ? "" : " (no split file)") + ", AM on " + amHost;
        } else if (op == 2 && c.nodes.size() > 2) {
          String h = new ArrayList<>(c.nodes.keySet()).get(1 + rnd.nextInt(c.nodes.size() - 1));
          MockNM nm = c.nodes.remove(h);
          c.rm.sendNodeLost(nm);
          lost.put(h, nm);
          what = "lose " + h;
        } else if (op == 3 && !lost.isEmpty()) {
          String h = lost.keySet().iterator().next();
          lost.remove(h);
          c.nodes.put(h, c.rm.registerNode(h + ":" + (2000 + step), 4096));
          what = "re-add " + h;
        } else if (op == 4 && !apps.isEmpty() && rnd.nextInt(3) == 0) {
          int i = rnd.nextInt(apps.size());
          c.rm.killApp(apps.get(i).getApplicationId());
          killed.add(apps.get(i));
          what = "kill " + apps.get(i).getApplicationId();
          apps.remove(i);
          jobs.remove(i);
        } else if (op == 5 && !jobs.isEmpty()) {
          // As the MapReduce AM, never blacklist more than a third of the cluster.
          String h = "h" + (1 + rnd.nextInt(5));
          MrJob j = jobs.get(rnd.nextInt(jobs.size()));
          if (j.blacklisted.size() < 1 || j.blacklisted.contains(h)) {
            j.blacklist(h);
            what = "blacklist " + h;
          } else {
            what = "blacklist skipped";
          }
        } else if (op == 6) {
          var conf = new org.apache.hadoop.yarn.conf.YarnConfiguration(c.rm.getConfig());
          conf.set("yarn.scheduler.dataloc.assigner", rnd.nextBoolean() ? "flow" : "bar");
          if (rnd.nextInt(4) == 0) {
            conf.set("yarn.scheduler.dataloc.cost.local", "-1");
          }
          try {
            s.reinitialize(conf, c.rm.getRMContext());
            what = "refresh to " + conf.get("yarn.scheduler.dataloc.assigner");
          } catch (java.io.IOException refused) {
            what = "refresh refused";
          }
        } else {
          round(c, jobs);
          what = "round";
        }
        c.rm.drainEvents();
        trace.add(step + ": " + what);
        checkInvariants(c, s, lost.keySet(), "seed " + seed + " after " + trace);
      }
      // Liveness: every node back, every surviving job completes its maps.
      for (Map.Entry<String, MockNM> e : lost.entrySet()) {
        c.nodes.put(e.getKey(), c.rm.registerNode(e.getKey() + ":3999", 4096));
      }
      c.rm.drainEvents();
      for (int r = 0; r < 150 && !jobs.stream().allMatch(MrJob::finished); r++) {
        round(c, jobs);
        checkInvariants(c, s, Set.of(), "seed " + seed + " liveness round " + r);
      }
      for (MrJob j : jobs) {
        assertTrue(j.finished(), "seed " + seed + ": a job was starved (" + j.describe() + "; scheduler "
            + s.jobReports() + "); trace " + trace);
      }
      assertEquals(0, s.datalocMetrics().errors(), "seed " + seed + ": errors caught; trace " + trace);
      for (RMApp k : killed) {
        assertEquals(RMAppState.KILLED, k.getState());
      }
    }
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

  private static void checkInvariants(MiniMr c, LocalityScheduler s, Set<String> lostHosts, String context) {
    Resource live = Resource.newInstance(0, 0);
    for (FiCaSchedulerNode n : allNodes(s)) {
      assertTrue(Resources.fitsIn(n.getAllocatedResource(), n.getTotalResource()),
          "node " + n.getNodeName() + " over capacity: " + context);
      assertTrue(!lostHosts.contains(n.getNodeName()), "a lost node is still tracked: " + context);
      for (RMContainer rc : n.getCopiedListOfRunningContainers()) {
        Resources.addTo(live, rc.getAllocatedResource());
      }
    }
    assertEquals(live.getMemorySize(), s.getUsedResource().getMemorySize(),
        "used resource equals the live containers: " + context);
    assertEquals(0, s.datalocMetrics().errors(), "no error caught: " + context);
  }

  @SuppressWarnings("unchecked")
  private static List<FiCaSchedulerNode> allNodes(LocalityScheduler s) {
    List<FiCaSchedulerNode> out = new ArrayList<>();
    for (NodeId id : s.getNodeTracker().getAllNodes().stream().map(SchedulerNode::getNodeID).toList()) {
      out.add((FiCaSchedulerNode) s.getSchedulerNode(id));
    }
    return out;
  }
}
