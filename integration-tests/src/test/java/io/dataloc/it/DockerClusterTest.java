package io.dataloc.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dockerized cluster of {@code docker/}, exactly as {@code bin/dataloc-docker run} builds and
 * starts it (Docker installed and started if missing, a Debian base image made with debootstrap,
 * Hadoop 3.5.0 from Maven Central's jars, the compose file's NameNode, ResourceManager and
 * node1..node4 on two racks, every worker's outgoing link shaped to 20 Mbit/s): a 32-MB block read
 * from another host takes about the link's time (13.4 s) and a local read a fraction of it; the
 * ResourceManager runs Dataloc, a real wordcount's 24 maps are counted once and run on their data
 * as planned; afterwards no container, network or volume of the cluster is left.
 */
@Tag("docker")
class DockerClusterTest {
  @TempDir java.nio.file.Path dir;

  @Test
  void aRealJobRunsUnderDatalocInTheComposeCluster() throws Exception {
    Scripts.Run r = Scripts.run(dir.resolve("docker.log"), 30, List.of("dataloc-docker", "down"), "dataloc-docker", "--network", "20mbit", "run");
    String out = r.output();
    Assumptions.assumeFalse(r.exit() == 3, "no Docker engine can be had here: " + out);
    assertTrue(r.ended(), "the script ended");
    assertEquals(0, r.exit(), "the script succeeded (the job's output was verified)");
    Map<String, Double> seconds = new HashMap<>();
    Matcher read = Pattern.compile("NETCHECK read \\(([^)]*)\\) bytes=(\\d+) block-on=(\\S+) seconds=([0-9.]+)")
        .matcher(out);
    while (read.find()) {
      assertEquals(32L << 20, Long.parseLong(read.group(2)), "the whole block was read");
      assertEquals("node1", read.group(3), "the first replica is on the writer's host");
      seconds.put(read.group(1), Double.parseDouble(read.group(4)));
    }
    assertEquals(Set.of("node1", "node2", "node3"), seconds.keySet(), "three timed reads");
    double link = (32 << 20) * 8 / 20e6;
    for (String remote : new String[] {"node2", "node3"}) {
      double t = seconds.get(remote);
      assertTrue(t > 0.8 * link && t < 1.6 * link, remote + ": " + t + " s, the link's time is " + link + " s");
      assertTrue(seconds.get("node1") < 0.1 * t, "local " + seconds.get("node1") + " s against remote " + t + " s");
    }
    assertTrue(out.contains("the ResourceManager ran io.dataloc.yarn.LocalityScheduler"), "RM ran Dataloc");
    assertTrue(out.contains("Dataloc planned"), "the job was planned");
    Matcher m = Pattern.compile("DATALOC-REPORT data-local=(\\d+) rack-local=(\\d+) other=(\\d+)").matcher(out);
    assertTrue(m.find(), "a report line");
    int local = Integer.parseInt(m.group(1));
    int all = local + Integer.parseInt(m.group(2)) + Integer.parseInt(m.group(3));
    assertEquals(24, all, "every map counted once");
    assertTrue(local >= 22, "the maps run on their data: " + local + " of 24 data-local");
    assertTrue(out.contains("cluster removed"), "the cluster was torn down");
    assertEquals("", docker("ps", "-aq", "--filter", "label=com.docker.compose.project=dataloc"), "no container left");
    assertEquals("", docker("network", "ls", "-q", "--filter", "label=com.docker.compose.project=dataloc"),
        "no network left");
    assertEquals("", docker("volume", "ls", "-q", "--filter", "label=com.docker.compose.project=dataloc"),
        "no volume left");
  }

  /** What a docker command prints; an engine that is gone (the script stopped the one it started) has nothing. */
  private static String docker(String... args) throws Exception {
    List<String> cmd = new java.util.ArrayList<>(List.of("/usr/bin/docker"));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    p.waitFor(1, TimeUnit.MINUTES);
    return out;
  }
}
