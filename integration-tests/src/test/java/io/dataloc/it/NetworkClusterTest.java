package io.dataloc.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
    Map<String, Double> seconds = new HashMap<>();
    Matcher m = Pattern.compile("NETCHECK (\\S+) \\(([^)]*)\\) bytes=(\\d+) block-on=(\\S+) seconds=([0-9.]+)")
        .matcher(out);
    while (m.find()) {
      assertEquals(32L << 20, Long.parseLong(m.group(3)), "the whole block was read");
      assertEquals("node1", m.group(4), "the first replica is on the writer's host");
      seconds.put(m.group(2), Double.parseDouble(m.group(5)));
    }
    double link = (32 << 20) * 8 / 20e6;
    double local = seconds.get("node1");
    for (String remote : new String[] {"node2", "node3"}) {
      double t = seconds.get(remote);
      assertTrue(t > 0.8 * link && t < 1.6 * link, remote + ": " + t + " s, the link's time is " + link + " s");
      assertTrue(local < 0.1 * t, "local " + local + " s against remote " + t + " s");
    }
    assertEquals("", Scripts.namespacesLeft(), "every namespace removed");
    assertTrue(ProcessHandle.allProcesses().noneMatch(h -> h.info().commandLine().orElse("")
        .contains(dir.resolve("cluster").toString())), "no daemon of this cluster is left running");
  }
}
