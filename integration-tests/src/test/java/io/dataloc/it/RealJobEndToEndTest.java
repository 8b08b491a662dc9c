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
 * Real MapReduce jobs over HDFS on four distinct hosts on two racks, in one run: a wordcount over
 * 24 one-MB blocks and a map-heavy scan over 24 large blocks ({@link ScanJob}), with blocks spread
 * (Dataloc with bar and with flow, the CapacityScheduler, the FairScheduler) and with every block on
 * node1 and node3 (Dataloc bar, CapacityScheduler). Each placement is written once and every
 * scheduler runs over the same blocks. Locality from the job counters, placement from the task
 * completion events, outputs checked by {@link EmbeddedCluster}.
 */
@Tag("e2e")
class RealJobEndToEndTest {
  private static final int FILES = 24;

  @TempDir Path dir;
  /** The size of one scan input file (one block). */
  private long scanFileBytes;

  @Test
  void blocksSpreadOverEveryHost() throws Exception {
    List<EmbeddedCluster.Result> results = new ArrayList<>();
    try (EmbeddedCluster.Hdfs hdfs = EmbeddedCluster.startHdfs(dir, false, FILES, System.out::println)) {
      results.addAll(runEveryScheduler("", hdfs));
    }
    System.out.println("blocks spread over node1..node4:\n" + Demo.table(results) + Demo.legend());
    assertDatalocNoWorse(results, List.of("dataloc-bar", "dataloc-flow"), List.of("capacity", "fair"), true);
  }

  @Test
  void everyBlockOnTwoHosts() throws Exception {
    List<EmbeddedCluster.Result> results = new ArrayList<>();
    try (EmbeddedCluster.Hdfs hdfs = EmbeddedCluster.startHdfs(dir, true, FILES, System.out::println)) {
      results.addAll(runEveryScheduler("skewed-", hdfs));
    }
    System.out.println("every block on node1 and node3:\n" + Demo.table(results) + Demo.legend());
    // The wordcount's small maps all fit at once: Dataloc keeps every one on its data. The scan's
    // large maps run two at a time per host, so a plan gives up locality on purpose to use the
    // other hosts (cost.rack against cost.local): there only the accounting is checked.
    assertDatalocNoWorse(results.stream().filter(r -> r.job().equals("wordcount")).toList(),
        List.of("skewed-dataloc-bar", "skewed-dataloc-flow"), List.of("skewed-capacity", "skewed-fair"), false);
  }

  /** Both jobs under Dataloc ({@code bar}, {@code flow}), CapacityScheduler and FairScheduler. */
  private List<EmbeddedCluster.Result> runEveryScheduler(String prefix, EmbeddedCluster.Hdfs hdfs) throws Exception {
    scanFileBytes = hdfs.scanFileBytes();
    List<EmbeddedCluster.Result> results = new ArrayList<>();
    results.addAll(EmbeddedCluster.run(prefix + "dataloc-bar", LocalityScheduler.class,
        Map.of("yarn.scheduler.dataloc.assigner", "bar"), hdfs, dir, System.out::println));
    results.addAll(EmbeddedCluster.run(prefix + "dataloc-flow", LocalityScheduler.class,
        Map.of("yarn.scheduler.dataloc.assigner", "flow"), hdfs, dir, System.out::println));
    results.addAll(EmbeddedCluster.run(prefix + "capacity", CapacityScheduler.class, Map.of(), hdfs, dir,
        System.out::println));
    // FairScheduler places a job in a queue named after its user by default; run as root (as CI
    // does) that is the root queue itself, which takes no jobs.
    results.addAll(EmbeddedCluster.run(prefix + "fair", FairScheduler.class,
        Map.of("yarn.scheduler.fair.user-as-default-queue", "false"), hdfs, dir, System.out::println));
    return results;
  }

  /**
   * Every map counted once; for each job, each Dataloc run at least as data-local as each stock
   * run, reading no more from remote blocks, and (if {@code balance}) with no busier host.
   */
  private void assertDatalocNoWorse(List<EmbeddedCluster.Result> results, List<String> dataloc,
      List<String> stock, boolean balance) {
    for (EmbeddedCluster.Result r : results) {
      assertEquals(FILES, r.maps(), "every map counted once: " + r);
      if (r.job().equals("scan")) {
        // The pacing's accounting agrees with the AM's locality counters: a data-local map read
        // nothing remote, any other read its whole block remotely.
        assertEquals((r.rackLocal() + r.other()) * scanFileBytes, r.remoteBytes(), "remote bytes: " + r);
      }
    }
    for (EmbeddedCluster.Result d : results) {
      for (EmbeddedCluster.Result s : results) {
        if (!dataloc.contains(d.scheduler()) || !stock.contains(s.scheduler()) || !d.job().equals(s.job())) {
          continue;
        }
        assertTrue(d.dataLocal() >= s.dataLocal(), "at least as data-local: " + d + " vs " + s);
        assertTrue(d.remoteBytes() <= s.remoteBytes(), "no more remote reading: " + d + " vs " + s);
        if (balance) {
          assertTrue(d.busiest() <= s.busiest(), "no busier host: " + d + " vs " + s);
        }
      }
    }
  }
}
