package io.dataloc.core.offline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.core.model.Assignment;
import io.dataloc.core.model.Cluster;
import io.dataloc.core.model.CostModel;
import io.dataloc.core.model.Evaluation;
import io.dataloc.core.model.PlacementGraph;
import io.dataloc.core.model.Problem;
import io.dataloc.core.model.Units;
import io.dataloc.core.workload.RandomProblems;
import io.dataloc.core.workload.RandomProblems.Spec;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contract every registered assigner honours, on seeded random instances that mix racks,
 * congestion, multi-slot hosts and initial loads: every task assigned exactly once to a server of
 * the problem, the evaluation equals an independent recomputation, and the same input gives the
 * same output.
 */
class AssignerContractTest {
  static final long SEED = 20261122L;

  static Stream<String> assigners() {
    return Stream.of("round-robin", "flow", "flow:first", "bar", "labl", "labl:always", "labl:+1", "hungarian",
        "hungarian:song", "exact");
  }

  static List<Problem> instances(boolean small) {
    SplittableRandom rnd = new SplittableRandom(SEED);
    List<Problem> out = new ArrayList<>();
    for (int i = 0; i < 120; i++) {
      int hosts = 1 + rnd.nextInt(small ? 4 : 30);
      int tasks = rnd.nextInt(small ? 8 : 120);
      int maxRep = 1 + rnd.nextInt(Math.min(3, hosts));
      CostModel cost = switch (i % 4) {
        case 0 -> CostModel.uniform(1, 3);
        case 1 -> CostModel.of(Units.of(1), Units.of(2), Units.of(4), 0);
        case 2 -> CostModel.of(Units.of(1), Units.of(1), Units.ofDouble(1.5), Units.ofDouble(0.1));
        default -> CostModel.of(Units.ofDouble(0.5), Units.of(2), Units.of(3), Units.ofDouble(0.05));
      };
      Spec spec = new Spec(hosts, tasks, 1, maxRep, rnd.nextInt(6), i % 3 == 0 ? 0 : 1 + rnd.nextInt(3),
          0, cost);
      out.add(RandomProblems.generate(spec, rnd.nextLong()));
    }
    out.add(multiSlot());
    return out;
  }

  /** Hosts with several slots: each slot is a server, a task is local to all of its host's slots. */
  static Problem multiSlot() {
    Cluster c = Cluster.builder().host("a", "/r1", 3, Units.of(1)).host("b", "/r1", 1, 0)
        .host("c", "/r2", 2, Units.of(2)).build();
    PlacementGraph.Builder g = PlacementGraph.builder(c);
    for (int t = 0; t < 9; t++) {
      g.task("t" + t, List.of(t % 2 == 0 ? "a" : "c"));
    }
    return Problem.of(c, g.build(), CostModel.uniform(1, 3));
  }

  @ParameterizedTest
  @MethodSource("assigners")
  void assignsEveryTaskOnceAndReportsTrueMetrics(String name) {
    Assigner a = Assigners.create(name, AssignerOptions.defaults());
    for (Problem p : instances(name.equals("exact"))) {
      Assignment result = a.assign(p);
      assertEquals(p.tasks(), result.tasks());
      int[] serverOf = result.toArray();
      for (int s : serverOf) {
        assertTrue(s >= 0 && s < p.servers(), name + " used a server outside the problem");
      }
      Evaluation e = Evaluation.of(p, result);
      Oracle.Measures o = Oracle.measure(p, serverOf);
      assertEquals(o.makespan(), e.makespan(), name + " makespan");
      assertEquals(o.activeMakespan(), e.activeMakespan(), name + " active makespan");
      assertEquals(o.resource(), e.resource(), name + " resource");
      assertEquals(o.local(), e.local(), name + " local");
      assertEquals(o.rack(), e.rackLocal(), name + " rack");
      assertEquals(o.remote(), e.remote(), name + " remote");
      assertTrue(e.lowerBound() <= e.makespan(), name + " beat the lower bound");
      if (p.tasks() > 0) {
        assertEquals(p.tasks() / Units.toDouble(o.resource()), e.throughput(), 1e-9);
      }
      assertArrayEquals(serverOf, a.assign(p).toArray(), name + " is not deterministic");
    }
  }
}
