package io.dataloc.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The root scripts harm nothing they did not make: {@code bin/dataloc-cluster} refuses a work
 * directory it did not make and kills no process a stale pid file names; {@code bin/dataloc-net}
 * removes what a failed {@code up} made and leaves another owner's running network alone. The
 * network cases need root and network namespaces and are skipped, saying so, without them.
 */
class ScriptSafetyTest {
  @TempDir Path dir;

  private record Out(int rc, String text) {}

  private static Out run(Map<String, String> env, String... cmd) throws Exception {
    List<String> c = new ArrayList<>(List.of(cmd));
    c.set(0, Scripts.root().resolve("bin/" + cmd[0]).toString());
    ProcessBuilder pb = new ProcessBuilder(c).redirectErrorStream(true);
    pb.environment().putAll(env);
    Process p = pb.start();
    String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(2, TimeUnit.MINUTES), String.join(" ", cmd));
    return new Out(p.exitValue(), text);
  }

  @Test
  void theClusterScriptRefusesAWorkDirectoryItDidNotMakeAndKillsOnlyItsOwnDaemons() throws Exception {
    Path foreign = Files.createDirectories(dir.resolve("home"));
    Files.writeString(foreign.resolve("precious.txt"), "keep");
    Out refused = run(Map.of(), "dataloc-cluster", "stop", foreign.toString());
    assertEquals(2, refused.rc(), refused.text());
    assertTrue(refused.text().contains("not made by bin/dataloc-cluster"), refused.text());
    assertTrue(Files.exists(foreign.resolve("precious.txt")));
    Path work = dir.resolve("cluster");
    assertEquals(0, run(Map.of(), "dataloc-cluster", "stop", work.toString()).rc(), "a new directory is taken");
    Files.createDirectories(work.resolve("pids"));
    Process bystander = new ProcessBuilder("sleep", "120").start();
    try {
      Files.writeString(work.resolve("pids/namenode.pid"), String.valueOf(bystander.pid()));
      Out stopped = run(Map.of(), "dataloc-cluster", "stop", work.toString());
      assertEquals(0, stopped.rc(), stopped.text());
      assertTrue(bystander.isAlive(), "a process a stale pid file names is not killed");
    } finally {
      bystander.destroyForcibly();
    }
  }

  @Test
  void theNetworkScriptCleansUpAFailedUpAndLeavesAnotherOwnersNetworkAlone() throws Exception {
    Assumptions.assumeTrue("root".equals(System.getProperty("user.name")),
        "SKIPPED: bin/dataloc-net needs root to make network namespaces");
    Path fake = Files.createDirectories(dir.resolve("faketc"));
    Path tc = fake.resolve("tc");
    Files.writeString(tc, "#!/bin/sh\necho 'tc fails here' >&2\nexit 1\n");
    tc.toFile().setExecutable(true);
    String owner = dir.resolve("owner").toString();
    Out failed = run(Map.of("PATH", fake + ":" + System.getenv("PATH"), "DATALOC_NET_OWNER_FILE", owner),
        "dataloc-net", "up", "2", "20mbit");
    Assumptions.assumeFalse(failed.rc() == 3, "SKIPPED: network namespaces cannot be made here: " + failed.text());
    assertEquals(1, failed.rc(), failed.text());
    assertEquals("", Scripts.namespacesLeft(), "a failed up leaves nothing behind: " + failed.text());
    Map<String, String> a = Map.of("DATALOC_NET_OWNER", "a", "DATALOC_NET_OWNER_FILE", owner);
    Map<String, String> b = Map.of("DATALOC_NET_OWNER", "b", "DATALOC_NET_OWNER_FILE", owner);
    try {
      assertEquals(0, run(a, "dataloc-net", "up", "2", "20mbit").rc());
      Process inside = new ProcessBuilder("ip", "netns", "exec", "dl-node1", "sleep", "120").start();
      try {
        Thread.sleep(300);
        Out other = run(b, "dataloc-net", "down");
        assertEquals(4, other.rc(), other.text());
        assertTrue(inside.isAlive(), "another owner's process runs on");
        assertTrue(!Scripts.namespacesLeft().isEmpty());
      } finally {
        inside.destroyForcibly();
      }
    } finally {
      run(a, "dataloc-net", "down", "--force");
    }
    assertEquals("", Scripts.namespacesLeft());
  }
}
