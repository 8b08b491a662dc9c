package io.dataloc.core.offline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.core.model.Assignment;
import io.dataloc.core.model.Cluster;
import io.dataloc.core.model.CostModel;
import io.dataloc.core.model.Evaluation;
import io.dataloc.core.model.PlacementGraph;
import io.dataloc.core.model.Problem;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link HostLevelling}: what it keeps (makespan, every task's level) and what it reaches. */
class HostLevellingTest {

  private static Problem random(SplittableRandom rnd, int hosts, int slots, int tasks, int replicas, boolean loads) {
    Cluster.Builder cb = Cluster.builder();
    for (int h = 0; h < hosts; h++) {
      cb.host("h" + h, h < hosts / 2 ? "/r1" : "/r2", slots, loads && rnd.nextInt(3) == 0 ? 1000 : 0);
    }
    Cluster c = cb.build();
    PlacementGraph.Builder gb = PlacementGraph.builder(c);
    for (int t = 0; t < tasks; t++) {
      int k = 1 + rnd.nextInt(Math.min(replicas, hosts));
      int[] reps = new int[k];
      for (int i = 0; i < k; i++) {
        reps[i] = rnd.nextInt(Math.max(1, hosts / 2 + rnd.nextInt(hosts / 2 + 1)));
      }
      gb.task("t" + t, reps);
    }
    return Problem.of(c, gb.build(), CostModel.of(1000, 2000, 3000, 100));
  }

  /** Tasks per host, counting the work a host's initial load stands for. */
  private static int[] perHost(Problem p, Assignment a) {
    int[] n = new int[p.cluster().hostCount()];
    for (int h = 0; h < n.length; h++) {
      long base = 0;
      for (int s : p.serversOf(h)) {
        base += p.initialLoad(s);
      }
      n[h] = (int) Math.round(base / (double) p.cost().local());
    }
    for (int t = 0; t < p.tasks(); t++) {
      n[p.hostOf(a.server(t))]++;
    }
    return n;
  }

  private static int max(int[] v) {
    return java.util.Arrays.stream(v).max().orElse(0);
  }

  @Test
  void keepsMakespanAndEveryTasksLevelAndNeverFillsTheBusiestHostMore() {
    SplittableRandom rnd = new SplittableRandom(20261122);
    for (int i = 0; i < 400; i++) {
      Problem p = random(rnd, 2 + rnd.nextInt(7), 1 + rnd.nextInt(4), 1 + rnd.nextInt(30), 3, true);
      for (String name : new String[] {"round-robin", "flow", "bar"}) {
        Assignment plan = Assigners.create(name, AssignerOptions.defaults()).assign(p);
        Assignment levelled = HostLevelling.level(p, plan, 10_000);
        String where = "instance " + i + " " + name;
        assertTrue(Evaluation.of(p, levelled).makespan() <= Evaluation.of(p, plan).makespan(), where);
        for (int t = 0; t < p.tasks(); t++) {
          assertEquals(p.level(t, plan.server(t)), p.level(t, levelled.server(t)), where + " task " + t);
        }
        assertTrue(max(perHost(p, levelled)) <= max(perHost(p, plan)), where);
      }
    }
  }

  /**
   * With room on every host (each has as many slots as tasks) and an all-local plan, the busiest
   * host ends with as few tasks as the best all-local assignment allows (brute force).
   */
  @Test
  void reachesTheFewestTasksOnTheBusiestHostThatLocalityAllows() {
    SplittableRandom rnd = new SplittableRandom(7);
    int checked = 0;
    for (int i = 0; i < 300; i++) {
      int hosts = 2 + rnd.nextInt(4);
      int tasks = 1 + rnd.nextInt(9);
      Problem p = random(rnd, hosts, tasks, tasks, 3, false);
      Assignment plan = Assigners.create("flow", AssignerOptions.defaults()).assign(p);
      if (Evaluation.of(p, plan).local() != tasks) {
        continue;
      }
      Assignment levelled = HostLevelling.level(p, plan, 10_000);
      assertEquals(bestLocalMax(p), max(perHost(p, levelled)), "instance " + i);
      checked++;
    }
    assertTrue(checked > 100, "enough all-local instances: " + checked);
  }

  /** The spread scenario of the MockRM comparison: 24 maps, 4 hosts of 8 slots, 6 per host. */
  @Test
  void spreadsTwentyFourMapsSixPerHost() {
    SplittableRandom rnd = new SplittableRandom(7);
    Cluster.Builder cb = Cluster.builder();
    for (int h = 1; h <= 4; h++) {
      cb.host("h" + h, h <= 2 ? "/r1" : "/r2", 8, 0);
    }
    Cluster c = cb.build();
    PlacementGraph.Builder gb = PlacementGraph.builder(c);
    for (int t = 0; t < 24; t++) {
      int a = rnd.nextInt(4);
      int b = (a + 1 + rnd.nextInt(3)) % 4;
      gb.task("t" + t, a, b);
    }
    Problem p = Problem.of(c, gb.build(), CostModel.of(1000, 2000, 3000, 0));
    for (String name : new String[] {"flow", "bar"}) {
      Assignment levelled = HostLevelling.level(p, Assigners.create(name, AssignerOptions.defaults()).assign(p), 10_000);
      assertEquals(6, max(perHost(p, levelled)), name);
      assertEquals(24, Evaluation.of(p, levelled).local(), name);
    }
  }

  private static int bestLocalMax(Problem p) {
    return search(p, 0, new int[p.cluster().hostCount()], Integer.MAX_VALUE);
  }

  private static int search(Problem p, int t, int[] count, int best) {
    if (t == p.tasks()) {
      return Math.min(best, max(count));
    }
    for (int i = 0; i < p.graph().replicaCount(t); i++) {
      int h = p.graph().replica(t, i);
      count[h]++;
      if (count[h] < best) {
        best = search(p, t + 1, count, best);
      }
      count[h]--;
    }
    return best;
  }
}
