package io.dataloc.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
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
 * node1..node4 on two racks): the ResourceManager runs Dataloc, a real wordcount's 24 maps are
 * counted once and run on their data as planned, and afterwards no container, network or volume
 * of the cluster is left.
 */
@Tag("docker")
class DockerClusterTest {
  @TempDir java.nio.file.Path dir;

  @Test
  void aRealJobRunsUnderDatalocInTheComposeCluster() throws Exception {
    Scripts.Run r = Scripts.run(dir.resolve("docker.log"), 30, List.of("dataloc-docker", "down"), "dataloc-docker", "run");
    String out = r.output();
    Assumptions.assumeFalse(r.exit() == 3, "no Docker engine can be had here: " + out);
    assertTrue(r.ended(), "the script ended");
    assertEquals(0, r.exit(), "the script succeeded (the job's output was verified)");
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
