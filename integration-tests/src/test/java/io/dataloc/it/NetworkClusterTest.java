package io.dataloc.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The network that costs ({@code bin/dataloc-cluster --network 20mbit check}): each host in its own
 * namespace behind a 20 Mbit/s link. A 32-MB block written on node1 lands on node1 (the NameNode
 * sees each DataNode's own address, so the first replica is the writer's); read there it takes a
 * fraction of a second, read from node2 (same rack) or node3 (other rack) about the link's time,
 * 32 MiB × 8 / 20 Mbit/s = 13.4 s. Every namespace, link and daemon is gone afterwards. Skipped
 * where namespaces cannot be made (not root, no ip/tc).
 */
@Tag("e2e")
class NetworkClusterTest {
  @TempDir Path dir;

  @Test
  void aRemoteBlockReadTakesTheLinksTimeAndALocalOneDoesNot() throws Exception {
    Scripts.Run r = Scripts.run(dir.resolve("check.log"), 8, dir.resolve("cluster"), "dataloc-cluster", "--network",
        "20mbit", "check", dir.resolve("cluster").toString());
    String out = r.output();
    assertTrue(r.ended(), "the script ended");
    Assumptions.assumeFalse(r.exit() == 3, "no network namespaces here: " + out);
    assertEquals(0, r.exit(), "the check succeeded");
    ClusterChecks.assertRemoteReadsTakeTheLinksTime(out, 20);
    assertEquals("", Scripts.namespacesLeft(), "every namespace removed");
    assertTrue(ProcessHandle.allProcesses().noneMatch(h -> h.info().commandLine().orElse("")
        .contains(dir.resolve("cluster").toString())), "no daemon of this cluster is left running");
  }
}
