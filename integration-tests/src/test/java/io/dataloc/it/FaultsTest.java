package io.dataloc.it;

import io.dataloc.core.workload.Scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.yarn.LocalityScheduler;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.yarn.api.records.URL;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults in reading a job's placement, and a plan that exceeds its time budget: the job still
 * runs (served from its asks, or with the fallback plan), a warning and a metric, no error, the
 * RM keeps serving heartbeats.
 */
class FaultsTest {
  @TempDir Path dir;

  /** A file system whose every open is refused, as HDFS refuses a staging directory of mode 0700. */
  public static final class DeniedFileSystem extends RawLocalFileSystem {
    @Override
    public java.net.URI getUri() {
      return java.net.URI.create("denied:///");
    }

    @Override
    public FSDataInputStream open(org.apache.hadoop.fs.Path f, int bufferSize) throws IOException {
      throw new AccessControlException("Permission denied: user=alice, access=READ, inode=" + f);
    }
  }

  private void runsFromItsAsksAfter(String name, Map<String, String> settings,
      java.util.function.UnaryOperator<URL> splitUrl) throws Exception {
    try (MiniMr c = MiniMr.start(LocalityScheduler.class, settings, Scenarios.twoRacks(4), 8192, dir.resolve(name))) {
      List<List<String>> splits = Scenarios.spread(12, 4, 2, 21);
      RMApp app = c.submit("alice", splits, splitUrl);
      LocalityScheduler s = (LocalityScheduler) c.rm.getResourceScheduler();
      // The read runs off the dispatcher; rounds here are far faster than real heartbeats, so let
      // it finish (a connection refused may take a second) before driving the job.
      for (int i = 0; i < 750 && s.reports().jobs().get(0).phase().equals("reading"); i++) {
        Thread.sleep(20);
      }
      MrJob job = c.launch(app, "h1", splits);
      assertTrue(Rounds.run(c, job, 200) > 0, name + ": the job ran from its asks: " + job.describe());
      assertEquals(1, s.datalocMetrics().placementFailures(), name + ": counted");
      assertEquals(0, s.datalocMetrics().plansMade(), name);
      assertEquals(0, s.datalocMetrics().errors(), name);
      assertTrue(s.reports().jobs().get(0).note().contains("placement read failed"), name + ": " + s.reports().jobs());
      assertTrue(!s.isDegraded(), name);
    }
  }

  @Test
  void hdfsUnreachable() throws Exception {
    // A NameNode address nothing listens on; the client gives up at once.
    runsFromItsAsksAfter("unreachable", Map.of("fs.defaultFS", "hdfs://127.0.0.1:1", "ipc.client.connect.max.retries", "0",
        "ipc.client.connect.max.retries.on.timeouts", "0", "ipc.client.connect.timeout", "1000"),
        url -> URL.newInstance("hdfs", "127.0.0.1", 1, url.getFile()));
  }

  @Test
  void permissionDenied() throws Exception {
    runsFromItsAsksAfter("denied", Map.of("fs.defaultFS", "denied:///", "fs.denied.impl", DeniedFileSystem.class.getName()),
        url -> URL.newInstance("denied", null, -1, url.getFile()));
  }

  @Test
  void stagingFilesMissing() throws Exception {
    runsFromItsAsksAfter("missing", Map.of(),
        url -> URL.newInstance("file", null, -1, url.getFile().replace("/.staging/", "/.staging/gone-")));
  }

  /**
   * A plan that cannot finish within its budget: the heartbeats go on being served while it runs,
   * and the fallback assigner's plan is used. Heartbeats are counted, never timed.
   */
  @Test
  void aPlanOverItsBudgetFallsBackWhileHeartbeatsAreServed() throws Exception {
    Map<String, String> settings = Map.of("yarn.scheduler.dataloc.assigner", "hungarian",
        "yarn.scheduler.dataloc.plan.time-budget-ms", "100", "yarn.scheduler.dataloc.plan.fallback-assigner",
        "round-robin");
    Map<String, String> topology = Scenarios.racks(50, 10);
    try (MiniMr c = MiniMr.start(TimedSchedulers.Dataloc.class, settings, topology, 8192, dir.resolve("budget"))) {
      LocalityScheduler s = (LocalityScheduler) c.rm.getResourceScheduler();
      SchedulerClock.reset();
      c.submit("alice", Scenarios.hdfs(10_000, topology, 5));
      int servedWhilePlanning = 0;
      for (int round = 0; round < 100_000; round++) {
        String phase = s.reports().jobs().get(0).phase();
        if (!phase.equals("reading") && !phase.equals("planning")) {
          break;
        }
        int before = SchedulerClock.heartbeats();
        for (MockNM nm : c.nodeList()) {
          nm.nodeHeartbeat(true);
        }
        c.rm.drainEvents();
        if (phase.equals("planning")) {
          servedWhilePlanning += SchedulerClock.heartbeats() - before;
        }
      }
      var report = s.reports().jobs().get(0);
      assertEquals("planned", report.phase(), report.toString());
      assertEquals("round-robin", report.planner(), "the fallback made the plan");
      assertEquals(1, s.datalocMetrics().plansOverBudget());
      assertTrue(servedWhilePlanning > 0, "heartbeats served while the slow plan ran: " + servedWhilePlanning);
      assertEquals(0, s.datalocMetrics().errors());
    }
  }
}
