package io.dataloc.it.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The flow model against the definition of max-min fairness, checked independently of how the
 * rates were found: every link within capacity, and every flow has a bottleneck (its own cap, or a full link on
 * which no flow is faster than it). Plus worked examples with their finish times by hand.
 */
class FlowNetworkTest {
  @Test
  void twoFlowsShareALinkThenTheSurvivorTakesItAll() {
    FlowNetwork n = new FlowNetwork(new double[] {100});
    FlowNetwork.Flow a = n.start(new int[] {0}, 100);
    FlowNetwork.Flow b = n.start(new int[] {0}, 300);
    List<FlowNetwork.Flow> ended = n.advance(10);
    // Both at 50 B/s until a ends at 2 s (b has 200 left), then b at 100 B/s: ends at 4 s.
    assertEquals(List.of(a, b), ended);
    assertEquals(2.0, a.endedAt(), 1e-9);
    assertEquals(4.0, b.endedAt(), 1e-9);
    assertEquals(400, n.carried(0), 1e-6);
  }

  @Test
  void aFlowHeldBackElsewhereLeavesItsShareToTheOthers() {
    // Link 0: 90 B/s shared by f1 and f2; link 1: 30 B/s, f2 only. f2 is held to 30 by link 1, so f1 gets 60.
    FlowNetwork n = new FlowNetwork(new double[] {90, 30});
    FlowNetwork.Flow f1 = n.start(new int[] {0}, 1e9);
    FlowNetwork.Flow f2 = n.start(new int[] {0, 1}, 1e9);
    n.advance(1);
    assertEquals(60, f1.rate(), 1e-9);
    assertEquals(30, f2.rate(), 1e-9);
  }

  @Test
  void aCappedFlowLeavesWhatItCannotUseToTheOthers() {
    FlowNetwork n = new FlowNetwork(new double[] {100});
    FlowNetwork.Flow slow = n.start(new int[] {0}, 1e9, 20);
    FlowNetwork.Flow fast = n.start(new int[] {0}, 1e9);
    n.advance(1);
    assertEquals(20, slow.rate(), 1e-9);
    assertEquals(80, fast.rate(), 1e-9);
  }

  @Test
  void randomNetworksAreMaxMinFair() {
    SplittableRandom rnd = new SplittableRandom(7);
    for (int trial = 0; trial < 300; trial++) {
      int links = 1 + rnd.nextInt(12);
      double[] cap = new double[links];
      for (int l = 0; l < links; l++) {
        cap[l] = 1 + rnd.nextInt(1000);
      }
      FlowNetwork n = new FlowNetwork(cap);
      List<FlowNetwork.Flow> flows = new ArrayList<>();
      List<int[]> paths = new ArrayList<>();
      List<Double> caps = new ArrayList<>();
      int count = 1 + rnd.nextInt(30);
      for (int i = 0; i < count; i++) {
        int len = 1 + rnd.nextInt(Math.min(4, links));
        int[] path = rnd.ints(0, links).distinct().limit(len).toArray();
        paths.add(path);
        double limit = rnd.nextInt(3) == 0 ? 1 + rnd.nextInt(300) : Double.POSITIVE_INFINITY;
        caps.add(limit);
        flows.add(n.start(path, 1e12, limit));
      }
      n.advance(0.001);
      double[] load = new double[links];
      for (int i = 0; i < count; i++) {
        for (int l : paths.get(i)) {
          load[l] += flows.get(i).rate();
        }
      }
      for (int l = 0; l < links; l++) {
        assertTrue(load[l] <= cap[l] * (1 + 1e-9), "trial " + trial + ": link " + l + " over capacity");
      }
      for (int i = 0; i < count; i++) {
        boolean bottleneck = flows.get(i).rate() >= caps.get(i) * (1 - 1e-9);
        for (int l : paths.get(i)) {
          if (load[l] < cap[l] * (1 - 1e-9)) {
            continue;
          }
          boolean fastest = true;
          for (int j = 0; j < count; j++) {
            for (int m : paths.get(j)) {
              if (m == l && flows.get(j).rate() > flows.get(i).rate() * (1 + 1e-9)) {
                fastest = false;
              }
            }
          }
          bottleneck |= fastest;
        }
        assertTrue(bottleneck, "trial " + trial + ": flow " + i + " has no bottleneck");
      }
    }
  }
}
