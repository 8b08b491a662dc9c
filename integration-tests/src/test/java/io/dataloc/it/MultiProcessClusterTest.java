package io.dataloc.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The multi-process cluster of real daemons, exactly as {@code bin/dataloc-cluster run} starts it
 * (NameNode, four DataNodes, four NodeManagers on node1..node4, a ResourceManager with the built
 * jar and {@code conf/yarn-site.xml}): a real wordcount runs under Dataloc, every map is counted
 * once, the maps run on their data, and every daemon the script started is gone afterwards.
 */
@Tag("e2e")
class MultiProcessClusterTest {
  @TempDir Path dir;

  @Test
  void aRealJobRunsUnderDatalocOnSeparateDaemons() throws Exception {
    Scripts.Run r = Scripts.run(dir.resolve("run.log"), 12, dir.resolve("cluster"), "dataloc-cluster", "run",
        dir.resolve("cluster").toString());
    String out = r.output();
    assertTrue(r.ended(), "the script ended");
    assertEquals(0, r.exit(), "the script succeeded (the job's output was verified)");
    ClusterChecks.assertPlannedLocalJob(out);
    try (var pids = Files.list(dir.resolve("cluster/pids"))) {
      assertEquals(0, pids.count(), "every daemon stopped");
    }
    assertTrue(ProcessHandle.allProcesses().noneMatch(h -> h.info().commandLine().orElse("")
        .contains(dir.resolve("cluster").toString())), "no daemon of this cluster is left running");
  }

  /**
   * The same cluster with the stock CapacityScheduler and Dataloc's placement component (the two
   * lines of yarn-site.xml an operator adds): the real wordcount is planned and its maps follow the
   * plan onto their data.
   */
  @Test
  void aRealJobIsPlannedInsideTheCapacityScheduler() throws Exception {
    Scripts.Run r = Scripts.run(dir.resolve("run-cs.log"), 12, dir.resolve("cluster-cs"), "dataloc-cluster",
        "--scheduler", "capacity-dataloc", "run", dir.resolve("cluster-cs").toString());
    String out = r.output();
    assertTrue(r.ended(), "the script ended");
    assertEquals(0, r.exit(), "the script succeeded (the job's output was verified): " + out);
    ClusterChecks.assertPlannedLocalJob(out, "io.dataloc.yarn.cs.DatalocCapacityScheduler");
    try (var pids = Files.list(dir.resolve("cluster-cs/pids"))) {
      assertEquals(0, pids.count(), "every daemon stopped");
    }
  }
}
