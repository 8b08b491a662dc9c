package io.dataloc.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code dataloc plan} end to end: good runs, the output format, and every bad-input case. */
class PlanCommandTest {
  private static final String GOOD = """
      {"servers":[{"id":"h1","rack":"/r1","slots":1,"initialLoad":0},
                  {"id":"h2","rack":"/r1"},{"id":"h3","rack":"/r2","initialLoad":1.5}],
       "tasks":[{"id":"t1","replicas":["h1","h3"]},{"id":"t2","replicas":["h1"]},
                {"id":"t3","replicas":["h1"]},{"id":"t4","replicas":["h2","h3"]}],
       "cost":{"local":1,"rack":2,"remote":3,"remotePerRemoteTask":0}}
      """;

  @TempDir Path dir;

  record Run(int status, String out, String err) {}

  private Run run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = DatalocCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  private Path write(String json) throws IOException {
    Path f = dir.resolve("instance-" + System.nanoTime() + ".json");
    Files.writeString(f, json);
    return f;
  }

  @Test
  void writesOneObjectWithTheDocumentedKeys() throws IOException {
    Path out = dir.resolve("plan.json");
    Run r = run("plan", "--instance", write(GOOD).toString(), "--algorithm", "flow", "--out", out.toString());
    assertEquals(0, r.status(), r.err());
    assertTrue(r.out().contains("flow"), r.out());
    JsonNode plan = new ObjectMapper().readTree(out.toFile());
    assertTrue(plan.isObject());
    List<String> keys = new ArrayList<>();
    plan.fieldNames().forEachRemaining(keys::add);
    assertEquals(List.of("algorithm", "assignment", "makespan", "activeMakespan", "resource", "local",
        "rackLocal", "remote", "lowerBound", "planMillis"), keys);
    assertEquals("flow", plan.get("algorithm").asText());
    assertEquals(4, plan.get("assignment").size());
    assertEquals(4, plan.get("local").asInt() + plan.get("rackLocal").asInt() + plan.get("remote").asInt());
    // h1 holds three blocks; the optimum spreads them: makespan 2 (t1 on h1... or h3 at 1.5+1=2.5).
    assertTrue(plan.get("makespan").decimalValue().compareTo(plan.get("lowerBound").decimalValue()) >= 0);
  }

  @Test
  void writesAnArrayForSeveralAlgorithms() throws IOException {
    Path out = dir.resolve("plans.json");
    Run r = run("plan", "--instance", write(GOOD).toString(), "--algorithm", "round-robin,flow,bar,labl,hungarian,exact",
        "--out", out.toString());
    assertEquals(0, r.status(), r.err());
    JsonNode plans = new ObjectMapper().readTree(out.toFile());
    assertTrue(plans.isArray());
    assertEquals(6, plans.size());
    assertEquals("exact", plans.get(5).get("algorithm").asText());
    // exact is optimal: nobody beats it.
    double opt = plans.get(5).get("makespan").asDouble();
    for (JsonNode p : plans) {
      assertTrue(p.get("makespan").asDouble() >= opt, p.toString());
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "malformed JSON|{\"servers\": [|malformed JSON",
      "task without replicas|{\"servers\":[{\"id\":\"h1\"}],\"tasks\":[{\"id\":\"t1\",\"replicas\":[]}]}|task 't1' has no replicas",
      "replicas missing|{\"servers\":[{\"id\":\"h1\"}],\"tasks\":[{\"id\":\"t1\"}]}|task 't1' has no replicas",
      "unknown replica server|{\"servers\":[{\"id\":\"h1\"}],\"tasks\":[{\"id\":\"t1\",\"replicas\":[\"h9\"]}]}|task 't1' names unknown server 'h9'",
      "negative cost|{\"servers\":[{\"id\":\"h1\"}],\"tasks\":[],\"cost\":{\"local\":1,\"remote\":-3}}|cost.remote must not be negative",
      "non-monotone cost|{\"servers\":[{\"id\":\"h1\"}],\"tasks\":[],\"cost\":{\"local\":4,\"remote\":3}}|cost.rack (3) must be >= cost.local (4)",
      "rack above remote|{\"servers\":[{\"id\":\"h1\"}],\"tasks\":[],\"cost\":{\"local\":1,\"rack\":5,\"remote\":3}}|cost.remote (3) must be >= cost.rack (5)",
      "zero local cost|{\"servers\":[{\"id\":\"h1\"}],\"tasks\":[],\"cost\":{\"local\":0,\"remote\":3}}|cost.local must be > 0",
      "too many decimals|{\"servers\":[{\"id\":\"h1\",\"initialLoad\":0.0001}],\"tasks\":[]}|initialLoad: 0.0001 has more than 3 decimals",
      "duplicate server|{\"servers\":[{\"id\":\"h1\"},{\"id\":\"h1\"}],\"tasks\":[]}|server 'h1' is listed twice",
      "bad slots|{\"servers\":[{\"id\":\"h1\",\"slots\":0}],\"tasks\":[]}|slots must be >= 1",
      "typo key|{\"servers\":[{\"id\":\"h1\",\"initalLoad\":1}],\"tasks\":[]}|unknown key \"initalLoad\"",
      "no servers|{\"servers\":[],\"tasks\":[]}|\"servers\" must be a non-empty array",
      "mixed racks|{\"servers\":[{\"id\":\"h1\",\"rack\":\"/r\"},{\"id\":\"h2\"}],\"tasks\":[]}|either every server has a rack or none has",
      "negative reads out|{\"servers\":[{\"id\":\"h1\",\"readsOut\":-1}],\"tasks\":[]}|server 'h1': readsOut must be a whole number from 0 to 1000000, got -1",
      "link cost too high|{\"servers\":[{\"id\":\"h1\"}],\"tasks\":[],\"cost\":{\"local\":1,\"remote\":3,\"perSharedRead\":1001}}|cost.perSharedRead must be at most 1000, got 1001",
  })
  void badInputIsOneClearLine(String what, String json, String expected) throws IOException {
    Run r = run("plan", "--instance", write(json).toString(), "--algorithm", "flow");
    assertEquals(2, r.status(), what);
    assertOneLine(r, expected);
  }

  @Test
  void unknownAlgorithmIsNamed() throws IOException {
    Run r = run("plan", "--instance", write(GOOD).toString(), "--algorithm", "flow,magic");
    assertEquals(2, r.status());
    assertOneLine(r, "unknown algorithm 'magic'; known: round-robin, flow, bar, labl, hungarian, exact");
  }

  @Test
  void missingInstanceFileIsNamed() {
    Run r = run("plan", "--instance", dir.resolve("nope.json").toString(), "--algorithm", "flow");
    assertEquals(2, r.status());
    assertOneLine(r, "instance file not found");
  }

  @Test
  void exactRefusesLargeJobsClearly() throws IOException {
    StringBuilder tasks = new StringBuilder();
    for (int t = 0; t < 20; t++) {
      tasks.append(t == 0 ? "" : ",").append("{\"id\":\"t").append(t).append("\",\"replicas\":[\"h1\"]}");
    }
    Run r = run("plan", "--instance", write("{\"servers\":[{\"id\":\"h1\"}],\"tasks\":[" + tasks + "]}").toString(),
        "--algorithm", "exact");
    assertEquals(2, r.status());
    assertOneLine(r, "exact solves jobs of at most 14 tasks; this one has 20");
  }

  private static void assertOneLine(Run r, String expected) {
    String err = r.err().strip();
    assertTrue(err.startsWith("dataloc: error: "), err);
    assertTrue(err.contains(expected), "expected '" + expected + "' in: " + err);
    assertFalse(err.contains("\n"), "more than one line: " + err);
    assertFalse(err.contains("Exception"), "stack trace or exception name leaked: " + err);
  }
}
