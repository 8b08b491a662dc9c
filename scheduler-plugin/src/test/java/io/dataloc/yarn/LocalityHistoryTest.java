package io.dataloc.yarn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.NodeType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The page's locality history against an oracle that keeps every container's time and level. */
class LocalityHistoryTest {
  @AfterEach
  void unregister() {
    DatalocMetrics.unregister();
  }

  @Test
  void eachMinuteOfTheLastHourHoldsItsContainersAndTheTotalsAllOfThem() {
    DatalocMetrics metrics = DatalocMetrics.register();
    LocalityHistory h = new LocalityHistory(metrics);
    Random rnd = new Random(7);
    int n = 5000;
    long[] at = new long[n];
    int[] level = new int[n];
    long now = 3_600_000L * 5;
    for (int i = 0; i < n; i++) {
      now += rnd.nextInt(rnd.nextInt(20) == 0 ? 900_000 : 3_000); // with gaps of up to 15 minutes
      at[i] = now;
      level[i] = rnd.nextInt(3);
      h.count(NodeType.values()[level[i]], now);
    }
    for (long query : new long[] {now, now + 59_999, now + 1_800_000, now + 7_200_000}) {
      long[][] expected = new long[LocalityHistory.MINUTES][3];
      long last = Math.floorDiv(query, 60_000L);
      for (int i = 0; i < n; i++) {
        long age = last - Math.floorDiv(at[i], 60_000L);
        if (age >= 0 && age < LocalityHistory.MINUTES) {
          expected[(int) (LocalityHistory.MINUTES - 1 - age)][level[i]]++;
        }
      }
      long[][] got = h.lastHour(query);
      for (int m = 0; m < LocalityHistory.MINUTES; m++) {
        assertArrayEquals(expected[m], got[m], "minute " + m + " at " + query);
      }
    }
    long[] totals = new long[3];
    for (int l : level) {
      totals[l]++;
    }
    assertEquals(totals[0], metrics.mapsNodeLocal());
    assertEquals(totals[1], metrics.mapsRackLocal());
    assertEquals(totals[2], metrics.mapsOffSwitch());
  }
}
