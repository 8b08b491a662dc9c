package io.dataloc.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.core.workload.Scenarios;
import io.dataloc.yarn.CapacityPlans;
import io.dataloc.yarn.cs.DatalocCapacityScheduler;
import io.dataloc.yarn.cs.DatalocPlacementAllocator;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Dataloc inside the CapacityScheduler, on a MockRM with two queues: the same MapReduce-like job on
 * skewed input under the stock CapacityScheduler (tuned as its documentation advises) and under
 * the CapacityScheduler with Dataloc's placement component, each alone in its queue. The maps follow
 * the plan: every map data-local, the busiest host lighter, the map phase no longer; the queue's
 * job was planned and its allocator attached.
 */
class CapacityModeTest {
  @TempDir Path dir;

  /** Two queues, a (60%, up to 100%) and b (40%), and the two lines that install Dataloc. */
  static Map<String, String> twoQueues(boolean dataloc, boolean async) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("yarn.scheduler.capacity.root.queues", "a,b");
    m.put("yarn.scheduler.capacity.root.a.capacity", "60");
    m.put("yarn.scheduler.capacity.root.a.maximum-capacity", "100");
    m.put("yarn.scheduler.capacity.root.b.capacity", "40");
    m.put("yarn.scheduler.capacity.root.b.maximum-capacity", "100");
    m.put("yarn.scheduler.capacity.maximum-am-resource-percent", "0.5");
    m.put("yarn.scheduler.capacity.schedule-asynchronously.enable", Boolean.toString(async));
    // As the CapacityScheduler's documentation advises: the node-locality delay is about the
    // number of nodes (here 6); the rack delay adds a few more opportunities.
    m.put("yarn.scheduler.capacity.node-locality-delay", "6");
    m.put("yarn.scheduler.capacity.rack-locality-additional-delay", "2");
    if (dataloc) {
      m.put(YarnConfiguration.RM_SCHEDULER, DatalocCapacityScheduler.class.getName());
      m.put("yarn.scheduler.app-placement-allocator.class", DatalocPlacementAllocator.class.getName());
    }
    return m;
  }

  record Outcome(String label, int dataLocal, int maps, int maxPerHost, int rounds, Map<String, Integer> perHost) {}

  private Outcome run(String label, boolean dataloc, Map<String, String> topology, List<List<String>> splits)
      throws Exception {
    Class<? extends ResourceScheduler> scheduler = dataloc ? DatalocCapacityScheduler.class : CapacityScheduler.class;
    try (MiniMr c = MiniMr.start(scheduler, twoQueues(dataloc, false), topology, 8192, dir.resolve(label))) {
      RMApp app = c.submitEdited("alice", splits, sub -> sub.setQueue("a"));
      MrJob job = c.launch(app, topology.keySet().iterator().next(), splits);
      if (dataloc) {
        awaitPhase(c, app, "planned");
      }
      int rounds = Rounds.run(c, job, 300);
      assertTrue(rounds > 0, label + " did not finish the maps: " + job.describe());
      Outcome o = new Outcome(label, job.dataLocal(), splits.size(), job.maxPerHost(), rounds, job.perHost());
      System.out.println(o);
      if (dataloc) {
        CapacityPlans plans = plans(c);
        assertTrue(plans.metrics().csAttaches() > 0, "the placement component attached");
        assertEquals(0, plans.metrics().errors(), "no error in Dataloc's code");
        assertEquals(1, plans.metrics().plansMade());
        System.out.println(label + ": declines " + plans.metrics().declines() + ", fallbacks "
            + plans.metrics().csFallbacks() + ", local/rack/off " + plans.metrics().mapsNodeLocal() + "/"
            + plans.metrics().mapsRackLocal() + "/" + plans.metrics().mapsOffSwitch());
      }
      return o;
    }
  }

  static CapacityPlans plans(MiniMr c) {
    return ((DatalocCapacityScheduler) c.rm.getResourceScheduler()).plans();
  }

  static void awaitPhase(MiniMr c, RMApp app, String phase) throws InterruptedException {
    CapacityPlans plans = plans(c);
    for (int i = 0; i < 400 && !phase.equals(plans.phaseOf(app.getApplicationId())); i++) {
      Thread.sleep(25);
    }
    assertEquals(phase, plans.phaseOf(app.getApplicationId()));
  }

  @Test
  void mapsFollowThePlanInsideTheCapacityScheduler() throws Exception {
    Map<String, String> topology = Scenarios.twoRacks(6);
    List<List<String>> splits = Scenarios.skewed(24, 6, 2, 2, 11);
    Outcome stock = run("capacity", false, topology, splits);
    Outcome planned = run("capacity+dataloc", true, topology, splits);
    assertEquals(splits.size(), planned.perHost().values().stream().mapToInt(Integer::intValue).sum(),
        "every map ran once");
    assertEquals(planned.maps(), planned.dataLocal(), "every map data-local: " + planned);
    assertTrue(planned.dataLocal() >= stock.dataLocal(), planned + " vs " + stock);
    assertTrue(planned.maxPerHost() <= stock.maxPerHost(), planned + " vs " + stock);
    assertTrue(planned.rounds() <= stock.rounds(), planned + " vs " + stock);
  }
}
