package io.dataloc.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.yarn.LocalityScheduler;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real MapReduce wordcounts over HDFS on four distinct hosts on two racks, in one run: 24 one-block
 * files with blocks spread (Dataloc with bar and with flow, the CapacityScheduler, the
 * FairScheduler) and with every block on node1 and node2 (Dataloc bar, CapacityScheduler).
 * Locality from the job counters, placement from the task completion events, output checked by
 * {@link EmbeddedCluster#wordcount}.
 */
@Tag("e2e")
class RealJobEndToEndTest {
  private static final int FILES = 24;

  @TempDir Path dir;

  @Test
  void wordcountUnderDatalocAndTheStockSchedulers() throws Exception {
    List<EmbeddedCluster.Result> spread = new ArrayList<>();
    spread.add(EmbeddedCluster.run("dataloc-bar", LocalityScheduler.class,
        Map.of("yarn.scheduler.dataloc.assigner", "bar"), false, dir, FILES, System.out::println));
    spread.add(EmbeddedCluster.run("dataloc-flow", LocalityScheduler.class,
        Map.of("yarn.scheduler.dataloc.assigner", "flow"), false, dir, FILES, System.out::println));
    spread.add(EmbeddedCluster.run("capacity", CapacityScheduler.class, Map.of(), false, dir, FILES,
        System.out::println));
    // FairScheduler places a job in a queue named after its user by default; run as root (as CI
    // does) that is the root queue itself, which takes no jobs.
    spread.add(EmbeddedCluster.run("fair", FairScheduler.class, Map.of("yarn.scheduler.fair.user-as-default-queue",
        "false"), false, dir, FILES, System.out::println));
    System.out.println("blocks spread over node1..node4:\n" + Demo.table(spread));
    for (EmbeddedCluster.Result r : spread) {
      assertEquals(FILES, r.dataLocal() + r.rackLocal() + r.other(), "every map counted once: " + r);
    }
    for (EmbeddedCluster.Result d : spread.subList(0, 2)) {
      for (EmbeddedCluster.Result stock : spread.subList(2, 4)) {
        assertTrue(d.dataLocal() >= stock.dataLocal(), "at least as data-local: " + d + " vs " + stock);
        assertTrue(busiest(d) <= busiest(stock), "no busier host: " + d + " vs " + stock);
      }
    }
  }

  @Test
  void wordcountWithEveryBlockOnTwoHosts() throws Exception {
    List<EmbeddedCluster.Result> skewed = new ArrayList<>();
    skewed.add(EmbeddedCluster.run("skewed-dataloc-bar", LocalityScheduler.class, Map.of(), true, dir, FILES,
        System.out::println));
    skewed.add(EmbeddedCluster.run("skewed-capacity", CapacityScheduler.class, Map.of(), true, dir, FILES,
        System.out::println));
    System.out.println("every block on node1 and node2:\n" + Demo.table(skewed));
    for (EmbeddedCluster.Result r : skewed) {
      assertEquals(FILES, r.dataLocal() + r.rackLocal() + r.other(), "every map counted once: " + r);
    }
    assertTrue(skewed.get(0).dataLocal() >= skewed.get(1).dataLocal(), "at least as data-local: " + skewed);
  }

  private static int busiest(EmbeddedCluster.Result r) {
    return r.mapsPerHost().values().stream().mapToInt(Integer::intValue).max().orElse(0);
  }
}
