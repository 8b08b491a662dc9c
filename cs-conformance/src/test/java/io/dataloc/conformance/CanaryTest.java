package io.dataloc.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.yarn.cs.DatalocPlacementAllocator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRMAppSubmitter;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.junit.jupiter.api.Test;

/**
 * The canary's own check: the module's yarn-site.xml reaches a Configuration built with defaults
 * (and not one built without them, which the canary would catch), and a stock CapacityScheduler
 * configured from it attaches the component to an application's first request.
 */
class CanaryTest {
  @Test
  void theStockCapacitySchedulerAttachesTheComponentFromTheClasspathsYarnSite() throws Exception {
    assertEquals(DatalocPlacementAllocator.class.getName(),
        new YarnConfiguration().get(YarnConfiguration.APPLICATION_PLACEMENT_TYPE_CLASS));
    assertEquals(null, new Configuration(false).get(YarnConfiguration.APPLICATION_PLACEMENT_TYPE_CLASS));
    YarnConfiguration conf = new YarnConfiguration();
    conf.setClass(YarnConfiguration.RM_SCHEDULER, CapacityScheduler.class, ResourceScheduler.class);
    long before = DatalocPlacementAllocator.attaches();
    MockRM rm = new MockRM(conf);
    try {
      rm.start();
      MockNM nm = rm.registerNode("h1:1234", 8192);
      MockRMAppSubmitter.submitWithMemory(1024, rm);
      nm.nodeHeartbeat(true);
      rm.drainEvents();
    } finally {
      rm.stop();
    }
    assertTrue(DatalocPlacementAllocator.attaches() > before, "attached to the AM's request");
  }
}
