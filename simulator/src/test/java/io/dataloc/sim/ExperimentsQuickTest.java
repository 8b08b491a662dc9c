package io.dataloc.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.sim.report.Progress;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A quick run of every experiment, as {@code bin/dataloc simulate all --quick} does, checking the
 * files it writes and the papers' qualitative results that must hold even in a short run.
 */
class ExperimentsQuickTest {
  @TempDir static Path dir;
  private static final Map<String, String> summaries = new HashMap<>();

  @BeforeAll
  static void runAll() throws IOException {
    RunOptions o = new RunOptions(true, 0, dir, 20261122L, Progress.silent());
    for (String name : Experiments.names()) {
      long before;
      try (var files = Files.list(dir)) {
        before = files.count();
      }
      io.dataloc.sim.report.Report report = Experiments.create(name).run(o);
      try (var files = Files.list(dir)) {
        assertEquals(before, files.count(), name + " wrote a file itself: experiments return what they found");
      }
      report.writeTo(dir);
      summaries.put(name, report.summary());
    }
  }

  private List<Map<String, String>> csv(String name) throws IOException {
    List<String> lines = Files.readAllLines(dir.resolve(name + ".csv"));
    String[] header = lines.get(0).split(",");
    List<Map<String, String>> rows = new ArrayList<>();
    for (String line : lines.subList(1, lines.size())) {
      String[] cells = line.split(",", -1);
      Map<String, String> row = new HashMap<>();
      for (int i = 0; i < header.length; i++) {
        row.put(header[i], cells[i]);
      }
      rows.add(row);
    }
    return rows;
  }

  private static double mean(List<Map<String, String>> rows, Predicate<Map<String, String>> filter, String column) {
    return rows.stream().filter(filter).mapToDouble(r -> Double.parseDouble(r.get(column))).average().orElseThrow();
  }

  @Test
  void everyExperimentWritesItsCsvChartsAndSummary() throws IOException {
    for (String name : Experiments.names()) {
      assertTrue(Files.size(dir.resolve(name + ".csv")) > 100, name + ".csv");
      assertFalse(summaries.get(name).isBlank());
      try (var files = Files.list(dir)) {
        assertTrue(files.anyMatch(f -> f.getFileName().toString().startsWith(name + "-")
            && f.toString().endsWith(".png")), name + " charts");
      }
    }
    assertEquals(List.of("sweep", "algorithm", "servers", "tasks", "rhoMax", "seed", "latency", "resource",
        "throughput", "lowerBound", "planMillis", "local", "remote"),
        List.of(Files.readAllLines(dir.resolve("agosta.csv")).get(0).split(",")));
    assertTrue(Files.readAllLines(dir.resolve("wang.csv")).get(0)
        .startsWith("policy,lambda,meanJobsInSystem,meanJobDelay,meanTaskDelay"));
    // PNG magic number.
    byte[] png = Files.readAllBytes(dir.resolve("wang-jobs-in-system.png"));
    assertEquals((byte) 0x89, png[0]);
    assertEquals('P', png[1]);
  }

  @Test
  void agostaFlowAndBarBeatRoundRobinAndNothingBeatsTheLowerBound() throws IOException {
    var rows = csv("agosta");
    Predicate<Map<String, String>> grid = r -> r.get("sweep").equals("grid");
    double rr = mean(rows, grid.and(r -> r.get("algorithm").equals("round-robin")), "latency");
    double flow = mean(rows, grid.and(r -> r.get("algorithm").equals("flow")), "latency");
    double bar = mean(rows, grid.and(r -> r.get("algorithm").equals("bar")), "latency");
    assertTrue(flow < rr && bar < rr, "flow " + flow + " bar " + bar + " round robin " + rr);
    for (var r : rows) {
      assertTrue(Double.parseDouble(r.get("latency")) >= Double.parseDouble(r.get("lowerBound")), r.toString());
    }
    // Round robin wastes resource on remote reads: flow's throughput |T|/C is higher.
    assertTrue(mean(rows, grid.and(r -> r.get("algorithm").equals("flow")), "throughput")
        > mean(rows, grid.and(r -> r.get("algorithm").equals("round-robin")), "throughput"));
  }

  @Test
  void fischerFlowIsNearOptimalAndRoundRobinHitsTheTheorem43Bound() throws IOException {
    var rows = csv("fischer");
    Predicate<Map<String, String>> random = r -> r.get("kind").equals("random");
    assertTrue(mean(rows, random.and(r -> r.get("algorithm").equals("flow")), "gapInWrem")
        < mean(rows, random.and(r -> r.get("algorithm").equals("round-robin")), "gapInWrem"));
    for (var r : rows) {
      if (r.get("kind").equals("thm4.3") && r.get("algorithm").equals("round-robin")) {
        int n = Integer.parseInt(r.get("servers"));
        assertEquals(3.0 * (n - 2), Double.parseDouble(r.get("makespan")), 1e-9, "⌊m/n⌋·w_rem with m = n(n-2)");
        assertEquals(n - 2, Double.parseDouble(r.get("optimum")), 1e-9);
      }
      if (r.get("kind").equals("random")) {
        assertTrue(Double.parseDouble(r.get("gapInWrem")) >= 0, "nothing beats the exact optimum");
      }
    }
  }

  @Test
  void barReproducesTheWorkedExample() throws IOException {
    var rows = csv("bar");
    var example = rows.stream().filter(r -> r.get("algorithm").equals("bar@worked-example")).findFirst().orElseThrow();
    assertEquals(6.2, Double.parseDouble(example.get("activeMakespan")), 1e-9);
    Predicate<Map<String, String>> sized = r -> !r.get("algorithm").contains("@");
    assertTrue(mean(rows, sized.and(r -> r.get("algorithm").equals("bar")), "activeMakespan")
        <= mean(rows, sized.and(r -> r.get("algorithm").equals("round-robin")), "activeMakespan"));
  }

  @Test
  void wangJsqMaxWeightStaysBoundedWhereFairSharingGrows() throws IOException {
    var rows = csv("wang");
    Map<String, String> fair = find(rows, "fair", "400.0");
    Map<String, String> jsq = find(rows, "jsq-maxweight", "400.0");
    assertEquals("false", fair.get("stable"), "fair sharing cannot keep up at λ = 400 (paper: unstable near 350)");
    assertEquals("true", jsq.get("stable"), "JSQ-MaxWeight stays stable at λ = 400");
    assertTrue(Double.parseDouble(jsq.get("meanJobsInSystem")) * 10 < Double.parseDouble(fair.get("meanJobsInSystem")));
    // At low load JSQ-MaxWeight roughly halves fair sharing's job delay (paper, Fig. 4a).
    assertTrue(Double.parseDouble(find(rows, "jsq-maxweight", "200.0").get("meanJobDelay")) * 2
        < Double.parseDouble(find(rows, "fair", "200.0").get("meanJobDelay")));
  }

  private static Map<String, String> find(List<Map<String, String>> rows, String policy, String lambda) {
    return rows.stream()
        .filter(r -> r.get("policy").equals(policy) && Double.parseDouble(r.get("lambda")) == Double.parseDouble(lambda))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no row " + policy + " at " + lambda));
  }

  @Test
  void songHungarianKeepsDataLocalAndBidsFavourTheLightUser() throws IOException {
    var rows = csv("song");
    Predicate<Map<String, String>> loc = r -> r.get("part").equals("locality");
    double h = mean(rows, loc.and(r -> r.get("method").equals("hungarian")), "value");
    double g = mean(rows, loc.and(r -> r.get("method").equals("round-robin")), "value");
    assertTrue(h > g, "hungarian l/r " + h + " vs greedy " + g);
    Predicate<Map<String, String>> alice = r -> r.get("part").equals("ordering") && r.get("user").equals("alice");
    double bid = mean(rows, alice.and(r -> r.get("method").equals("bid")), "value");
    double fifo = mean(rows, alice.and(r -> r.get("method").equals("fifo")), "value");
    assertTrue(bid < fifo, "the user with many small jobs waits less under bids: " + bid + " vs " + fifo);
  }
}
