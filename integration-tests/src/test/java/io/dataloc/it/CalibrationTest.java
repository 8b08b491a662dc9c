package io.dataloc.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.it.replay.ClusterModel;
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
    ClusterModel m = new ClusterModel(4, 2, 1, Calibration.constants(20, 10));
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
    ClusterModel m = new ClusterModel(4, 2, 1, Calibration.constants(20, 10));
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
    assertEquals(List.of(new Calibration.Run("dataloc", "hot", 1, 60.0, 2), new Calibration.Run("capacity", "spread",
        3, 10.0, 1)), runs);
    Path summary = dir.resolve("summary.txt");
    Files.write(summary, List.of("WORKLOAD label=a/hot/1 jobs=1 map-seconds-on-data=20.0(n=3) map-seconds-remote=1(n=1)",
        "WORKLOAD-NET label=a/hot/1 bytes-over-links=1", "WORKLOAD label=b/spread/1 map-seconds-on-data=30.0(n=1)"));
    assertEquals(22.5, Calibration.localMapSeconds(summary), 1e-9);
    Files.write(summary, List.of("nothing here"));
    assertThrows(IllegalArgumentException.class, () -> Calibration.localMapSeconds(summary));
  }
}
