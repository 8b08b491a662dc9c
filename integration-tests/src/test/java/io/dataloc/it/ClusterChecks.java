package io.dataloc.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.yarn.HadoopLine;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What the cluster scripts' output must show, shared by the multi-process, network and docker tests. */
final class ClusterChecks {
  private ClusterChecks() {}

  /**
   * The cluster's wordcount ran under Dataloc, was planned, and its 24 maps were each counted once,
   * at least 22 of them data-local.
   */
  static void assertPlannedLocalJob(String out) {
    assertPlannedLocalJob(out, "io.dataloc.yarn.LocalityScheduler");
  }

  /** As {@link #assertPlannedLocalJob(String)}, the ResourceManager having run {@code scheduler}. */
  static void assertPlannedLocalJob(String out, String scheduler) {
    assertTrue(out.contains("the ResourceManager ran " + scheduler), "RM ran " + scheduler);
    // The jar of the line the build chose, on daemons of that line.
    Matcher line = Pattern.compile("rm: Dataloc \\S+ for Hadoop (\\S+) .* on Hadoop (\\d+\\.\\d+)").matcher(out);
    assertTrue(line.find(), "the RM logged Dataloc's Hadoop line: " + out);
    assertEquals(HadoopLine.line(), line.group(1), "the jar's line");
    assertEquals(HadoopLine.line(), line.group(2), "the daemons' line");
    assertTrue(out.contains("Dataloc planned"), "the job was planned");
    Matcher m = Pattern.compile("DATALOC-REPORT data-local=(\\d+) rack-local=(\\d+) other=(\\d+)").matcher(out);
    assertTrue(m.find(), "a report line");
    int local = Integer.parseInt(m.group(1));
    int all = local + Integer.parseInt(m.group(2)) + Integer.parseInt(m.group(3));
    assertEquals(24, all, "every map counted once");
    assertTrue(local >= 22, "the maps run on their data: " + local + " of 24 data-local");
  }

  /**
   * The timed 32-MB block (NETCHECK lines, labelled by the reading host): first replica on the
   * writer's host node1; read from node2 and node3 in 0.8–1.6× the link's time at {@code mbit},
   * from node1 in under a tenth of that.
   */
  static void assertRemoteReadsTakeTheLinksTime(String out, int mbit) {
    Map<String, Double> seconds = new HashMap<>();
    Matcher m = Pattern.compile("NETCHECK (\\S+) \\(([^)]*)\\) bytes=(\\d+) block-on=(\\S+) seconds=([0-9.]+)")
        .matcher(out);
    while (m.find()) {
      assertEquals(32L << 20, Long.parseLong(m.group(3)), "the whole block was read");
      assertEquals("node1", m.group(4), "the first replica is on the writer's host");
      seconds.put(m.group(2), Double.parseDouble(m.group(5)));
    }
    assertTrue(seconds.keySet().containsAll(java.util.List.of("node1", "node2", "node3")), "three timed reads: " + seconds);
    double link = (32 << 20) * 8 / (mbit * 1e6);
    double local = seconds.get("node1");
    for (String remote : new String[] {"node2", "node3"}) {
      double t = seconds.get(remote);
      assertTrue(t > 0.8 * link && t < 1.6 * link, remote + ": " + t + " s, the link's time is " + link + " s");
      assertTrue(local < 0.1 * t, "local " + local + " s against remote " + t + " s");
    }
  }
}
