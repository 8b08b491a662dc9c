package io.dataloc.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.yarn.LocalityScheduler;
import java.io.File;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Hadoop's distributed shell — a real YARN application that is not MapReduce and that nobody here
 * wrote — on an in-process YARN of two NodeManagers, under Dataloc and under the
 * CapacityScheduler. Its client runs in a JVM of its own, as a user would run it, and its
 * ApplicationMaster in a container; each run must end as it ends under the CapacityScheduler.
 */
@Tag("e2e")
class DistributedShellTest {
  private static final Path SHELL = Path.of("target/distributedshell");
  @TempDir Path dir;

  /** What one client run printed and how it ended, and the application as the RM saw it. */
  record Run(int exit, String output, RMApp app) {}

  /** Starts YARN under {@code scheduler}, runs the client with {@code args}, stops YARN. */
  private Run run(Class<? extends ResourceScheduler> scheduler, Map<String, String> settings, String... args)
      throws Exception {
    YarnConfiguration conf = new YarnConfiguration();
    conf.setClass(YarnConfiguration.RM_SCHEDULER, scheduler, ResourceScheduler.class);
    conf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 128);
    conf.setInt(YarnConfiguration.NM_PMEM_MB, 4096);
    conf.setBoolean(YarnConfiguration.TIMELINE_SERVICE_ENABLED, false);
    conf.set("hadoop.tmp.dir", dir.resolve("tmp").toString());
    // The ApplicationMaster's JVM: Hadoop on Java 17 needs these, and the machine's name must resolve.
    conf.set(YarnConfiguration.NM_ADMIN_USER_ENV, "JAVA_TOOL_OPTIONS=" + System.getProperty("dataloc.test.opens", "")
        + " -Djdk.net.hosts.file=" + System.getProperty("dataloc.hosts.file") + " -Djava.net.preferIPv4Stack=true");
    settings.forEach(conf::set);
    MiniYARNCluster yarn = new MiniYARNCluster("shell-" + scheduler.getSimpleName(), 2, 1, 1);
    try {
      yarn.init(conf);
      yarn.start();
      Configuration running = new Configuration(yarn.getConfig());
      // The client and its ApplicationMaster find the RM through the yarn-site.xml of their classpath.
      Path confDir = Files.createDirectories(dir.resolve("conf"));
      List<String> appClasspath = new ArrayList<>();
      appClasspath.add(confDir.toAbsolutePath().toString());
      for (File f : jars()) {
        appClasspath.add(f.getAbsolutePath());
      }
      appClasspath.addAll(List.of(Files.readString(Path.of("target/cluster.classpath")).trim().split(File.pathSeparator)));
      running.set(YarnConfiguration.YARN_APPLICATION_CLASSPATH, String.join(",", appClasspath));
      try (OutputStream out = Files.newOutputStream(confDir.resolve("yarn-site.xml"))) {
        running.writeXml(out);
      }
      List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
      cmd.addAll(List.of(System.getProperty("dataloc.test.opens", "").split(" ")));
      cmd.add("-Djdk.net.hosts.file=" + System.getProperty("dataloc.hosts.file"));
      cmd.add("-Djava.net.preferIPv4Stack=true");
      cmd.add("-cp");
      cmd.add(String.join(File.pathSeparator, appClasspath));
      cmd.add("org.apache.hadoop.yarn.applications.distributedshell.Client");
      cmd.add("--jar");
      cmd.add(jars().get(0).getAbsolutePath());
      cmd.addAll(List.of(args));
      cmd.removeIf(String::isEmpty);
      Path log = dir.resolve("client.log");
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
      boolean ended = false;
      try {
        ended = p.waitFor(5, TimeUnit.MINUTES);
      } finally {
        if (!ended) {
          p.destroyForcibly().waitFor(); // also when this thread is interrupted: no client JVM is left
        }
      }
      String output = Files.readString(log, StandardCharsets.UTF_8);
      RMApp app = yarn.getResourceManager().getRMContext().getRMApps().values().stream().findFirst().orElse(null);
      return new Run(ended ? p.exitValue() : -1, output, app);
    } finally {
      yarn.stop();
    }
  }

  /** The distributed shell's jar first, then the Jersey 1 jars its ApplicationMaster links. */
  private static List<File> jars() throws Exception {
    List<File> out = new ArrayList<>();
    try (var s = Files.list(SHELL)) {
      s.map(Path::toFile).sorted((a, b) -> Boolean.compare(!a.getName().contains("distributedshell"),
          !b.getName().contains("distributedshell"))).forEach(out::add);
    }
    assertTrue(out.size() == 3 && out.get(0).getName().contains("distributedshell"), out.toString());
    return out;
  }

  private static String tail(String s) {
    return s.length() <= 6000 ? s : s.substring(s.length() - 6000);
  }

  private static final String[] PLAIN = {"--shell_command", "echo hello", "--container_memory", "256",
      "--master_memory", "512", "--timeout", "240000"};

  private static String[] with(String... more) {
    List<String> out = new ArrayList<>(List.of(PLAIN));
    out.addAll(List.of(more));
    return out.toArray(new String[0]);
  }

  @ParameterizedTest
  @ValueSource(classes = {LocalityScheduler.class, CapacityScheduler.class})
  void threeShellContainersRunAndTheApplicationSucceeds(Class<? extends ResourceScheduler> scheduler)
      throws Exception {
    Run r = run(scheduler, Map.of(), with("--num_containers", "3"));
    assertEquals(0, r.exit(), tail(r.output()));
    assertTrue(r.output().contains("Application completed successfully"), tail(r.output()));
    assertEquals(FinalApplicationStatus.SUCCEEDED, r.app().getFinalApplicationStatus());
    // The AM and three shells; an AM that asks again before its last ask is seen may get (and
    // return) one more, as the CapacityScheduler gave it in one run.
    int containers = r.app().getRMAppMetrics().getTotalAllocatedContainers();
    assertTrue(containers >= 4 && containers <= 5, "the AM and three shells: " + containers);
  }

  /**
   * Opportunistic containers (the RM's opportunistic allocation off, as shipped: they come as
   * guaranteed ones) and an application priority: the run succeeds as under the CapacityScheduler.
   */
  @ParameterizedTest
  @ValueSource(classes = {LocalityScheduler.class, CapacityScheduler.class})
  void opportunisticContainersAndAPrioritySucceed(Class<? extends ResourceScheduler> scheduler) throws Exception {
    Run r = run(scheduler, Map.of(), with("--num_containers", "2", "--container_type", "OPPORTUNISTIC",
        "--priority", "5"));
    assertEquals(0, r.exit(), tail(r.output()));
    assertEquals(FinalApplicationStatus.SUCCEEDED, r.app().getFinalApplicationStatus());
    int containers = r.app().getRMAppMetrics().getTotalAllocatedContainers();
    assertTrue(containers >= 3 && containers <= 4, "the AM and two shells: " + containers);
  }

  /** A node-label expression with labels off: the RM refuses the submission, with the reason, under both. */
  @ParameterizedTest
  @ValueSource(classes = {LocalityScheduler.class, CapacityScheduler.class})
  void aNodeLabelExpressionIsRefusedWithTheReason(Class<? extends ResourceScheduler> scheduler) throws Exception {
    Run r = run(scheduler, Map.of(), with("--num_containers", "2", "--node_label_expression", "gpu"));
    assertEquals(1, r.exit(), tail(r.output()));
    assertTrue(r.output().contains("node label not enabled but request contains label expression"), tail(r.output()));
  }

  /**
   * A placement spec (SchedulingRequests), with the RM's placement handler as shipped: the RM
   * refuses them to the AM and the application fails, under both.
   */
  @ParameterizedTest
  @ValueSource(classes = {LocalityScheduler.class, CapacityScheduler.class})
  void aPlacementSpecIsRefused(Class<? extends ResourceScheduler> scheduler) throws Exception {
    Run r = run(scheduler, Map.of(), with("--num_containers", "2", "--placement_spec", "zk=2,NOTIN,NODE,zk"));
    assertTrue(r.exit() != 0, tail(r.output()));
    assertTrue(r.output().contains("Application failed to complete successfully"), tail(r.output()));
    assertEquals(FinalApplicationStatus.FAILED, r.app().getFinalApplicationStatus(), r.app().getDiagnostics().toString());
    assertEquals(1, r.app().getRMAppMetrics().getTotalAllocatedContainers(), "the AM only");
  }
}
