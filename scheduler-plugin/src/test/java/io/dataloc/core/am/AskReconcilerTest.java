package io.dataloc.core.am;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.core.am.AskReconciler.Delta;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The reconciliation rule, case by case for planned and online jobs, and the tasks built from asks
 * against an oracle that re-reads the rule with a plain scan (no heap).
 */
class AskReconcilerTest {
  private static final Delta NONE = Delta.NONE;

  private static Delta add(int n) {
    return new Delta(false, 0, n);
  }

  private static Delta drop(int n) {
    return new Delta(false, n, 0);
  }

  @Test
  void plannedJobsTrustTheirPlan() {
    assertEquals(new Delta(true, 0, 0), AskReconciler.planned(false, 0, 7, 20, 100), "asks for no maps: all go");
    assertEquals(NONE, AskReconciler.planned(false, 0, 0, 20, 100), "nothing pending, nothing to drop");
    assertEquals(NONE, AskReconciler.planned(true, 3, 7, 20, 100), "asks for fewer: the plan stays");
    assertEquals(add(2), AskReconciler.planned(true, 9, 7, 20, 100), "asks again for lost maps");
    assertEquals(add(100), AskReconciler.planned(true, Integer.MAX_VALUE, 7, 20, 100),
        "one batch of the bound at a time");
    assertEquals(add(13), AskReconciler.planned(true, Integer.MAX_VALUE, 107, 20, 100),
        "never beyond the plan plus the bound, however many the AM asks for");
    assertEquals(NONE, AskReconciler.planned(true, 500, 130, 20, 100), "already at plan plus bound");
    // A plan of 200,000 tasks asked again in full: one batch of the bound per reconciliation, not
    // the whole plan in one hold of the lock (before: 201,000 tasks at once).
    assertEquals(add(100), AskReconciler.planned(true, Integer.MAX_VALUE, 0, 200_000, 100), "one batch");
    assertEquals(add(100), AskReconciler.planned(true, 250, 100, 200_000, 100), "then the next");
  }

  @Test
  void onlineJobsFollowTheirAsksInBoundedBatches() {
    assertEquals(add(5), AskReconciler.online(true, 5, 0, 100));
    assertEquals(drop(3), AskReconciler.online(true, 2, 5, 100), "surplus goes");
    assertEquals(drop(5), AskReconciler.online(false, 0, 5, 100), "asks for none: all go, newest first");
    assertEquals(NONE, AskReconciler.online(true, 5, 5, 100));
    assertEquals(add(100), AskReconciler.online(true, Integer.MAX_VALUE, 0, 100), "one batch of the bound");
    assertEquals(NONE, AskReconciler.online(true, Integer.MAX_VALUE, 51, 100), "more than half the batch left");
    assertEquals(add(50), AskReconciler.online(true, Integer.MAX_VALUE, 50, 100), "half gone: topped up");
    assertEquals(add(40), AskReconciler.online(true, 100, 60, 100), "at the bound exactly, no batching");
  }

  @Test
  void tasksFromAsksMatchTheRuleReadLiterally() {
    SplittableRandom rnd = new SplittableRandom(20261124L);
    for (int i = 0; i < 500; i++) {
      Map<String, Integer> demand = new HashMap<>();
      int hosts = 1 + rnd.nextInt(8);
      for (int h = 0; h < hosts; h++) {
        if (rnd.nextInt(4) > 0) {
          demand.put("h" + h, 1 + rnd.nextInt(6));
        }
      }
      List<List<String>> pending = new ArrayList<>();
      for (int t = rnd.nextInt(6); t > 0; t--) {
        pending.add(List.of("h" + rnd.nextInt(hosts + 2), "h" + rnd.nextInt(hosts + 2)));
      }
      int count = rnd.nextInt(12);
      List<List<String>> got = AskReconciler.tasksFromAsks(demand, pending, count);
      assertEquals(oracle(demand, pending, count), got, "case " + i + ": " + demand + " pending " + pending);
      assertEquals(count, got.size());
      for (List<String> t : got) {
        assertTrue(t.size() <= 3 && t.stream().distinct().count() == t.size(), "at most three distinct hosts: " + t);
      }
    }
  }

  /** Claim pending replicas, then per task scan for the three hosts of most demand left, ties by name. */
  private static List<List<String>> oracle(Map<String, Integer> demand, List<List<String>> pending, int count) {
    Map<String, Integer> left = new HashMap<>(demand);
    for (List<String> t : pending) {
      for (String h : t) {
        if (left.containsKey(h)) {
          int v = left.get(h) - 1;
          if (v > 0) {
            left.put(h, v);
          } else {
            left.remove(h);
          }
        }
      }
    }
    List<List<String>> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      List<String> order = new ArrayList<>(left.keySet());
      order.sort(Comparator.<String>comparingInt(left::get).reversed().thenComparing(Comparator.naturalOrder()));
      List<String> task = new ArrayList<>(order.subList(0, Math.min(3, order.size())));
      for (String h : task) {
        int v = left.get(h) - 1;
        if (v > 0) {
          left.put(h, v);
        } else {
          left.remove(h);
        }
      }
      out.add(task);
    }
    return out;
  }
}
