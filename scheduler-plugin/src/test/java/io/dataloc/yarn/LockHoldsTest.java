package io.dataloc.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The lock-hold record: outermost holds only, and the segments of the longest one by name. */
class LockHoldsTest {
  private static long spin(int n) {
    long x = 0;
    for (int i = 0; i < n; i++) {
      x += (long) i * i ^ x >>> 3;
    }
    return x;
  }

  @Test
  void everyOutermostHoldIsReportedOnceInMicroseconds() {
    java.util.List<Long> told = new java.util.ArrayList<>();
    LockHolds h = new LockHolds(told::add);
    h.enter();
    h.enter();
    spin(2_000_000);
    h.exit("inner");
    assertEquals(java.util.List.of(), told, "a nested exit is not a hold's end");
    h.exit("outer");
    assertEquals(1, told.size());
    assertTrue(told.get(0) >= 0 && told.get(0) * 1_000 <= h.report().maxNanos(), told + " µs");
  }

  @Test
  void theLongestHoldSaysWhereItsTimeWent() {
    LockHolds h = new LockHolds(micros -> {});
    h.enter();
    spin(2_000_000);
    h.mark("decide");
    h.enter(); // a nested hold (completedContainer inside a heartbeat) is part of the outer one
    spin(1_000);
    h.exit("nested");
    h.mark("container");
    spin(2_000_000);
    h.mark("decide");
    h.exit("nodeUpdate");
    LockHolds.Report r = h.report();
    assertEquals(1, r.count(), "the nested hold counts once");
    assertEquals("nodeUpdate", r.maxCpuWhere());
    String seg = r.maxCpuSegments();
    assertTrue(seg.contains("decide ×2") && seg.contains("container ×1") && seg.contains("after the last mark"), seg);
  }

  @Test
  void marksOutsideAHoldAndBeyondSixteenNamesAreSafe() {
    LockHolds h = new LockHolds(micros -> {});
    h.mark("nothing held"); // ignored
    h.enter();
    for (int i = 0; i < 40; i++) {
      spin(10_000);
      h.mark(("s" + i).intern());
    }
    h.exit("many");
    String seg = h.report().maxCpuSegments();
    assertTrue(seg.contains("other ×25"), "names past the fifteenth count as other: " + seg);
    assertTrue(seg.contains("s14 ×1") && !seg.contains("s15 "), "the fifteenth keeps its name, no later one does: "
        + seg);
    assertTrue(!seg.contains("nothing held"), seg);
    h.reset();
    assertEquals("", h.report().maxCpuSegments());
  }
}
