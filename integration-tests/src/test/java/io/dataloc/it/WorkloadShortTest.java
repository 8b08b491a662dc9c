package io.dataloc.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The short form of the network workload ({@code bin/dataloc-workload --runs 1 --jobs 6
 * --placements hot}): every scheduler runs the same six jobs over hot-spot input behind 20 Mbit/s
 * links, each on a fresh cluster of namespaced hosts. Checks what must hold whatever the times:
 * every job of every scheduler succeeds, each map counted once, the jobs' own timings show that a
 * map away from its data is slower than one on it (the network costs), each job's times come in the
 * order they happen (its AM starts, starts the job, the first map starts, the last ends, the job
 * ends), and the report and charts are written. The times themselves are measured, not asserted
 * (README: "Jobs on a network that costs"). Skipped where namespaces cannot be made.
 */
@Tag("network")
class WorkloadShortTest {
  @TempDir Path dir;

  /** Every scheduler the runner knows: standalone Dataloc, the stock schedulers, the CapacityScheduler with Dataloc. */
  private static final String SCHEDULERS = "dataloc,capacity,capacity-tuned,capacity-dataloc,fair";

  @Test
  void everySchedulerRunsTheSameWorkloadAndRemoteMapsAreSlower() throws Exception {
    Path out = dir.resolve("workload");
    Scripts.Run r = Scripts.run(dir.resolve("workload.log"), 40, out.resolve("cluster"), "dataloc-workload", "--runs",
        "1", "--jobs", "6", "--placements", "hot", "--schedulers", SCHEDULERS, "--out", out.toString());
    String text = r.output();
    assertTrue(r.ended(), "the workload ended");
    Assumptions.assumeFalse(r.exit() == 3, "no network namespaces here: " + text);
    assertEquals(0, r.exit(), "every run succeeded");
    List<String> lines = Files.readAllLines(out.resolve("summary.txt"), StandardCharsets.UTF_8);
    Pattern w = Pattern.compile("^WORKLOAD label=(\\S+)/hot/1 jobs=6 maps=(\\d+) .* data-local=(\\d+) rack-local=(\\d+) "
        + "map-seconds-on-data=([0-9.]+)\\(n=(\\d+)\\) map-seconds-remote=([0-9.]+)\\(n=(\\d+)\\)");
    int runs = 0;
    double onData = 0;
    double remote = 0;
    int nOnData = 0;
    int nRemote = 0;
    for (String line : lines) {
      Matcher m = w.matcher(line);
      if (!m.find()) {
        continue;
      }
      runs++;
      int maps = Integer.parseInt(m.group(2));
      assertEquals(maps, Integer.parseInt(m.group(6)) + Integer.parseInt(m.group(8)), m.group(1) + ": every map once");
      onData += Double.parseDouble(m.group(5)) * Integer.parseInt(m.group(6));
      nOnData += Integer.parseInt(m.group(6));
      remote += Double.parseDouble(m.group(7)) * Integer.parseInt(m.group(8));
      nRemote += Integer.parseInt(m.group(8));
    }
    int schedulers = SCHEDULERS.split(",").length;
    assertEquals(schedulers, runs, "one run per scheduler: " + lines);
    assertTrue(lines.stream().filter(l -> l.startsWith("WORKLOAD-NET")).count() == schedulers,
        "bytes over links measured");
    assertTrue(nRemote > 0 && nOnData > 0, "some maps ran away from their data, some on it");
    assertTrue(remote / nRemote > 1.5 * (onData / nOnData),
        "a map away from its data is slower: " + remote / nRemote + " s against " + onData / nOnData + " s");
    // Each job's times, from its submission, in the order they happen: its AM starts, the AM starts
    // the job, its first map starts, its last map ends, it finishes.
    List<String> jobs = Files.readAllLines(out.resolve("jobs.csv"), StandardCharsets.UTF_8);
    List<String> head = List.of(jobs.get(0).split(","));
    assertEquals(Workload.JOBS_HEADER, jobs.get(0));
    assertEquals(1 + 6 * schedulers, jobs.size(), "a row per job and scheduler");
    for (String row : jobs.subList(1, jobs.size())) {
      String[] f = row.split(",");
      double before = 0;
      for (String mark : Workload.JOB_TIMES) {
        double t = Double.parseDouble(f[head.indexOf(mark)]);
        assertTrue(t >= before && t > 0, mark + " in order: " + row);
        before = t;
      }
    }
    assertTrue(Files.size(out.resolve("workload-hot.png")) > 0, "the chart");
    assertTrue(Files.readString(out.resolve("workload.md")).contains("Dataloc over the best stock scheduler"));
    assertEquals("", Scripts.namespacesLeft(), "every namespace removed");
  }
}
