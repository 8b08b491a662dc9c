package io.dataloc.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
    ClusterChecks.assertRemoteReadsTakeTheLinksTime(out, 20);
    ClusterChecks.assertPlannedLocalJob(out);
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
