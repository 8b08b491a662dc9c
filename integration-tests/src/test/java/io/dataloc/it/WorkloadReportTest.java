package io.dataloc.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The workload report from a summary: a table per placement with Dataloc's ratios to the best stock
 * scheduler, and per placement a job-time chart and a locality chart whose titles say how many runs
 * they average; and, from the per-job rows, where each scheduler's job time went.
 */
class WorkloadReportTest {
  @TempDir Path dir;

  private static String line(String label, double mean, int dataLocal) {
    return "WORKLOAD label=" + label + " jobs=6 maps=20 mean=" + mean + " p50=" + mean + " p95=" + (mean * 2)
        + " makespan=90.0 map-phase-mean=10.0 data-local=" + dataLocal + " rack-local=0 map-seconds-on-data=5.0(n=3)"
        + " map-seconds-remote=9.0(n=1) maps-per-host={node1=20} am-hosts={node2=6} am-wait-mean=12.0"
        + " containers-mean=" + (dataLocal / 2.0);
  }

  @Test
  void tablesRatiosAndChartsPerPlacement() throws Exception {
    Files.write(dir.resolve("summary.txt"), List.of(line("dataloc/hot/1", 30.0, 18), line("capacity/hot/1", 60.0, 10),
        line("fair/hot/1", 40.0, 12), line("capacity-dataloc-amsite/hot/1", 36.0, 16), line("dataloc/spread/1", 20.0, 20), line("dataloc/spread/2", 22.0, 20),
        line("capacity/spread/1", 25.0, 15), line("capacity/spread/2", 27.0, 15)), StandardCharsets.UTF_8);
    Files.write(dir.resolve("jobs.csv"), List.of("label,job,maps,arrival_s,jct_s,map_phase_s,data_local,rack_local,maps_per_host",
        "dataloc/hot/1,0,4,0.0,70.0,68.1,4,0,{node1=2 node3=2}", "capacity/hot/1,0,4,0.0,90.0,88.1,3,1,{node1=4}"),
        StandardCharsets.UTF_8);
    WorkloadReport.main(new String[] {dir.toString()});
    String md = Files.readString(dir.resolve("workload.md"));
    assertTrue(md.contains("Dataloc over the best stock scheduler: mean 0.75 (fair)"), md);
    assertTrue(md.contains("mean 0.81 (capacity)"), md);
    // The measures after the ratios' ones: the AM wait and how many containers ran at once.
    assertTrue(md.contains("| AM wait | containers at once |"), md);
    assertTrue(md.contains(" | 12.0 | 9.0 |\n"), md);
    // A variant of the CapacityScheduler with Dataloc is Dataloc's, never the best stock scheduler.
    assertTrue(md.contains("capacity-dataloc-amsite over the best stock scheduler: mean 0.90 (fair)"), md);
    for (String f : new String[] {"workload-hot.png", "workload-hot-locality.png", "workload-spread.png",
        "workload-spread-locality.png", "workload-hot-cdf.png"}) {
      assertTrue(Files.size(dir.resolve(f)) > 1000, f);
    }
    assertEquals("one run", WorkloadReport.runs(Map.of("a", Map.of("mean", List.of(1.0)))));
    assertEquals("mean over 2 runs", WorkloadReport.runs(Map.of("a", Map.of("mean", List.of(1.0, 2.0)))));
    assertEquals("mean over 1–2 runs", WorkloadReport.runs(Map.of("a", Map.of("mean", List.of(1.0, 2.0)),
        "b", Map.of("mean", List.of(1.0)))));
  }

  @Test
  void whereTheJobTimeWentAddsUpPerScheduler() throws Exception {
    List<String> rows = List.of(Workload.JOBS_HEADER,
        // AM wait 10, start-up 20, to first map 10, maps 50, after 5: 95
        "dataloc/hot/1,0,4,0.0,95.0,90.0,4,0,{node1=4},node2,10.0,40.0,30.0",
        // AM wait 30, start-up 12, to first map 8, maps 40, after 15: 105
        "dataloc/hot/2,0,2,0.0,105.0,90.0,2,0,{node1=2},node2,30.0,50.0,42.0",
        "fair/hot/1,0,4,0.0,200.0,190.0,3,1,{node1=4},node1,100.0,130.0,125.0",
        "fair/spread/1,0,4,0.0,60.0,50.0,4,0,{node1=4},node1,5.0,25.0,20.0",
        // skipped: a row short of the header, and a label without its placement
        "fair/spread/2,0,4,0.0,600.0,500.0,4,0,{node1=4},node1,5.0,25.0",
        "fair,0,4,0.0,600.0,500.0,4,0,{node1=4},node1,5.0,25.0,20.0");
    String md = WorkloadReport.phases(dir, rows);
    assertTrue(md.contains("| scheduler | jobs | AM wait | AM start-up | to first map | maps | after the maps |"
        + " job time |"), md);
    assertTrue(md.contains("| dataloc | 2 | 20.0 | 16.0 | 9.0 | 45.0 | 10.0 | 100.0 |"), md);
    assertTrue(md.contains("| fair | 1 | 100.0 | 25.0 | 5.0 | 60.0 | 10.0 | 200.0 |"), md);
    assertTrue(md.contains("| fair | 1 | 5.0 | 15.0 | 5.0 | 25.0 | 10.0 | 60.0 |"), md);
    assertTrue(Files.size(dir.resolve("workload-hot-phases.png")) > 1000);
    assertTrue(Files.size(dir.resolve("workload-spread-phases.png")) > 1000);
    // Rows from before the AM's start-up was recorded: four parts, the AM's start to its first map in one.
    String old = WorkloadReport.phases(dir, List.of("label,job,maps,arrival_s,jct_s,map_phase_s,data_local,"
        + "rack_local,maps_per_host,am_host,am_wait_s,first_map_s", "dataloc/hot/1,0,4,0.0,95.0,90.0,4,0,{node1=4},"
        + "node2,10.0,40.0"));
    assertTrue(old.contains("| scheduler | jobs | AM wait | AM to first map | maps | after the maps | job time |"), old);
    assertTrue(old.contains("| dataloc | 1 | 10.0 | 30.0 | 50.0 | 5.0 | 95.0 |"), old);
    // Rows from before the first map's start was recorded give no table.
    assertEquals("", WorkloadReport.phases(dir, List.of("label,job,maps,arrival_s,jct_s,map_phase_s,data_local,"
        + "rack_local,maps_per_host,am_host,am_wait_s", "dataloc/hot/1,0,4,0.0,95.0,90.0,4,0,{node1=4},node2,10.0")));
  }
}
