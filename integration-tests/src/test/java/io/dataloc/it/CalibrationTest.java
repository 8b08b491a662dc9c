package io.dataloc.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.it.replay.ClusterModel;
import io.dataloc.it.replay.ReplayResult;
import io.dataloc.it.replay.SwimTrace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The calibration replays the namespaced workload as the real runs had it: the same jobs, arrivals
 * and input placement for a seed, and the real runs read from their committed files.
 */
class CalibrationTest {
  @Test
  void theModelReadsTheWorkloadTheRealRunsRead() {
    ClusterModel m = new ClusterModel(4, 2, 1, Calibration.constants(20, 10, 0));
    List<SwimTrace.Job> trace = Calibration.workload(m, "hot", 1);
    List<Workload.Spec> specs = Workload.specs(12, 1, 6, 24);
    assertEquals(12, trace.size());
    List<List<String>> files = Workload.replicaHosts(24, "hot", 1, List.of("h1", "h2", "h3", "h4"),
        Map.of("h1", "/r1", "h2", "/r1", "h3", "/r2", "h4", "/r2"));
    for (int j = 0; j < 12; j++) {
      Workload.Spec s = specs.get(j);
      SwimTrace.Job t = trace.get(j);
      assertEquals(Math.round(s.arrival()), t.submitSeconds());
      assertEquals(s.maps(), m.maps(m.scale(t.inputBytes())), "one map per 64 MB file, no scaling");
      List<List<String>> blocks = m.blocks(t.inputPath(), s.maps());
      for (int b = 0; b < s.maps(); b++) {
        int f = (s.first() + b) % 24;
        assertEquals(files.get(f), blocks.get(b), "job " + j + " block " + b);
        if (f % 6 != 5) {
          assertEquals(List.of("h1", "h3"), blocks.get(b), "hot input is on the first host of each rack");
        }
      }
    }
    for (List<String> f : Workload.replicaHosts(24, "spread", 2, List.of("h1", "h2", "h3", "h4"), m.topology())) {
      assertTrue(!m.rackOf(f.get(0)).equals(m.rackOf(f.get(1))), "spread: two racks per file " + f);
    }
  }

  @Test
  void aFileOnHostsTheModelHasNotIsRefusedByName() {
    ClusterModel m = new ClusterModel(4, 2, 1, Calibration.constants(20, 10, 0));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> m.pin("p", List.of(List.of("h1", "node9"))));
    assertTrue(e.getMessage().contains("node9"), e.getMessage());
  }

  @Test
  void theRealRunsAreReadFromTheirFiles(@TempDir Path dir) throws Exception {
    Path jobs = dir.resolve("jobs.csv");
    Files.write(jobs, List.of("label,job,maps,arrival_s,jct_s,map_phase_s",
        "dataloc/hot/1,0,4,0.0,70.0,68.1", "dataloc/hot/1,1,16,2.0,50.0,49.0", "capacity/spread/3,0,1,0.0,10.0,9.0"));
    List<Calibration.Run> runs = Calibration.readRuns(jobs);
    assertEquals(List.of(new Calibration.Run("dataloc", "hot", 1, 60.0, 2, List.of(0.0, 2.0)),
        new Calibration.Run("capacity", "spread", 3, 10.0, 1, List.of(0.0))), runs);
    // The model replays the arrivals a run had.
    ClusterModel m = new ClusterModel(4, 2, 1, Calibration.constants(20, 10, 0));
    List<SwimTrace.Job> trace = Calibration.workload(m, "hot", 1, List.of(0.0, 2.4, 9.6));
    assertEquals(List.of(0L, 2L, 10L), trace.subList(0, 3).stream().map(SwimTrace.Job::submitSeconds).toList());
    assertEquals(Math.round(Workload.specs(12, 1, 6, 24).get(3).arrival()), trace.get(3).submitSeconds(),
        "as planned where the run gives no arrival");
    Files.write(jobs, List.of("label,job,maps,arrival_s,jct_s", "a/hot/1,1,4,0.0,70.0"));
    assertThrows(IllegalArgumentException.class, () -> Calibration.readRuns(jobs), "a run's jobs out of order");
    Path summary = dir.resolve("summary.txt");
    Files.write(summary, List.of("WORKLOAD label=a/hot/1 jobs=1 map-seconds-on-data=20.0(n=3) map-seconds-remote=1(n=1)",
        "WORKLOAD-NET label=a/hot/1 bytes-over-links=1", "WORKLOAD label=b/spread/1 map-seconds-on-data=30.0(n=1)"));
    assertEquals(22.5, Calibration.localMapSeconds(summary), 1e-9);
    Files.write(summary, List.of("nothing here"));
    assertThrows(IllegalArgumentException.class, () -> Calibration.localMapSeconds(summary));
  }

  @Test
  void aModelledJobIsARowWithTheRealRunsColumns() {
    ReplayResult.JobTime j = new ReplayResult.JobTime("job3", 2, 0, 22, 0.5, 3, 40, 46, 30, 1, 1, 0, "h4",
        Map.of("h3", 1, "h2", 1));
    assertEquals("dataloc/hot/1,3,2,22.0,46.0,1,1,{node2=1 node3=1},node4,0.5", Calibration.jobRow("dataloc/hot/1", j));
  }

  /**
   * The nodes heartbeat in a fresh order each second: the AMs of the namespaced workload spread
   * over the hosts, as they do on the real cluster, rather than landing on whichever host
   * heartbeats first (in a fixed order the first host took about half of them). And with two
   * shared cores, the first job, alone on the cluster, takes its AM's and its map's starts and
   * little more.
   */
  @Test
  void amsSpreadOverTheHostsAndAJobAloneTakesItsStarts(@TempDir Path dir) throws Exception {
    MiniMr.quiet = true;
    Map<String, Integer> amHosts = new java.util.TreeMap<>();
    int jobs = 0;
    for (long seed = 1; seed <= 3; seed++) {
      ClusterModel m = new ClusterModel(4, 2, seed, Calibration.constants(5, 10, 2));
      ReplayResult r = ReplayRun.run("capacity", Calibration.workload(m, "spread", seed), m, 0.3, 3600, 0.1,
          dir.resolve("s" + seed), s -> { });
      for (ReplayResult.JobTime j : r.jobs()) {
        amHosts.merge(j.amHost(), 1, Integer::sum);
        jobs++;
      }
      if (seed == 1) {
        ReplayResult.JobTime first = r.jobs().get(0);
        assertEquals(1, first.maps());
        assertTrue(first.time() >= 15 && first.time() <= 25, "10 + 5 CPU-seconds of starts and a local read: " + first);
      }
    }
    System.out.println("AM hosts " + amHosts);
    assertEquals(4, amHosts.size(), "every host ran AMs: " + amHosts);
    assertTrue(amHosts.values().stream().mapToInt(Integer::intValue).max().orElse(0) <= 0.4 * jobs,
        "no host ran more than 40% of the AMs: " + amHosts);
  }

  @Test
  void theRealRunsDefaultsAreModelledUnlessTheCommandLineSetsThem() {
    Calibration.Options none = Calibration.Options.parse();
    assertEquals("jsq-maxweight-steal", none.policy());
    assertEquals(Map.of("am.placement-wait-ms", "0"), none.settings(), "the real runs placed AMs first fit");
    assertEquals(null, none.amGrid());
    assertEquals(Map.of(), none.capacity(), "the CapacitySchedulers as the real runs had them");

    Calibration.Options set = Calibration.Options.parse("--dataloc", "am.placement-wait-ms=2000,rate.learn-samples=3",
        "--dataloc-policy", "break-even", "--am-start-s", "10", "--cores", "0");
    assertEquals(Map.of("am.placement-wait-ms", "2000", "rate.learn-samples", "3"), set.settings());
    assertEquals("break-even", set.policy());
    assertEquals(List.of(10.0), set.amGrid());
    assertEquals(0.0, set.cores());

    Calibration.Options other = Calibration.Options.parse("--dataloc", "rate.learn-samples=3");
    assertEquals(Map.of("am.placement-wait-ms", "0", "rate.learn-samples", "3"), other.settings(),
        "a setting the command line does not name keeps the real runs' value");
    assertEquals(Map.of("root.default.ordering-policy", "fair"),
        Calibration.Options.parse("--capacity", "root.default.ordering-policy=fair").capacity());

    assertEquals("--calibrate: option '--real' needs a value",
        assertThrows(IllegalArgumentException.class, () -> Calibration.Options.parse("--real")).getMessage());
    assertEquals("--calibrate: unknown option '--nodes'",
        assertThrows(IllegalArgumentException.class, () -> Calibration.Options.parse("--nodes", "9")).getMessage());
  }
}
