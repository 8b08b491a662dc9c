package io.dataloc.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The longest queue, checked against a scan of every queue's length after each change. */
class LongestQueueTest {
  /** The oracle: the highest id among the longest non-empty queues, or -1. */
  private static int scan(int[] len) {
    int best = -1;
    for (int id = 0; id < len.length; id++) {
      if (len[id] > 0 && (best < 0 || len[id] >= len[best])) {
        best = id;
      }
    }
    return best;
  }

  @Test
  void agreesWithAScanUnderRandomChanges() {
    for (long seed = 1; seed <= 20; seed++) {
      SplittableRandom rnd = new SplittableRandom(seed);
      int n = 1 + rnd.nextInt(60);
      int[] len = new int[n];
      LongestQueue q = new LongestQueue();
      for (int step = 0; step < 5_000; step++) {
        int id = rnd.nextInt(n);
        int op = rnd.nextInt(10);
        // Mostly ±1 (a task joins or leaves), sometimes a jump (a drain, a plan's chunk).
        len[id] = op < 5 ? len[id] + 1 : op < 9 ? Math.max(0, len[id] - 1) : rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(50);
        q.set(id, len[id]);
        assertEquals(scan(len), q.top(), "seed " + seed + " step " + step);
        int nonEmpty = 0;
        for (int l : len) {
          nonEmpty += l > 0 ? 1 : 0;
        }
        assertEquals(nonEmpty, q.nonEmpty(), "the heap holds exactly the non-empty queues");
      }
    }
  }

  @Test
  void aDrainedPlanLeavesNothingBehind() {
    // 50,000 growths over 5,000 queues, then every queue drained one task at a time: the heap
    // never holds more than the queues, and ends empty.
    LongestQueue q = new LongestQueue();
    int[] len = new int[5_000];
    for (int t = 0; t < 50_000; t++) {
      int id = (int) ((t * 2_654_435_761L) % len.length);
      q.set(id, ++len[id]);
    }
    assertEquals(len.length, q.nonEmpty());
    for (int id = 0; id < len.length; id++) {
      while (len[id] > 0) {
        q.set(id, --len[id]);
      }
    }
    assertEquals(0, q.nonEmpty());
    assertEquals(-1, q.top());
  }

  @Test
  void tiesGoToTheHighestIdAndIdsGrowOnDemand() {
    LongestQueue q = new LongestQueue();
    q.set(3, 2);
    q.set(1_000, 2);
    q.set(7, 2);
    assertEquals(1_000, q.top());
    q.set(7, 3);
    assertEquals(7, q.top());
    assertEquals(3, q.length(7));
    assertEquals(0, q.length(99_999));
    assertThrows(IllegalArgumentException.class, () -> q.set(-1, 1));
    assertThrows(IllegalArgumentException.class, () -> q.set(1, -1));
  }
}
