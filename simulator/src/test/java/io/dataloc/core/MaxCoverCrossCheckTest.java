package io.dataloc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.bench.ReferenceMaxCoverBalAssign;
import io.dataloc.core.flow.BMatching;
import io.dataloc.core.model.CostModel;
import io.dataloc.core.model.Evaluation;
import io.dataloc.core.model.Problem;
import io.dataloc.core.offline.MaxCoverBalAssign;
import io.dataloc.core.workload.RandomProblems;
import io.dataloc.core.workload.RandomProblems.Spec;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Our incremental b-matching against JGraphT's push-relabel max flow, an independent solver: at
 * every threshold of MaxCover-BalAssign the maximum cover has the same size (Lemma 5.2 says the
 * incremental one is maximum), and the completed assignments reach makespans no worse.
 */
class MaxCoverCrossCheckTest {
  @Test
  void incrementalMaxCoverIsMaximumAtEveryLevel() {
    SplittableRandom rnd = new SplittableRandom(99);
    int[] ref = new int[0];
    for (int i = 0; i < 150; i++) {
      long seed = rnd.nextLong();
      int n = 1 + rnd.nextInt(40);
      int maxRep = 1 + rnd.nextInt(Math.min(4, n));
      int dataHosts = i % 2 == 0 ? 0 : Math.max(maxRep, (n + 3) / 4); // half the cases skewed
      Problem p = RandomProblems.generate(new Spec(n, rnd.nextInt(200), 1, maxRep, rnd.nextInt(6), 0,
          dataHosts, CostModel.uniform(1, 3)), seed);
      BMatching bm = new BMatching(p);
      long wLoc = p.cost().local();
      for (long level = wLoc; level <= 12 * wLoc; level += wLoc) {
        for (int s = 0; s < p.servers(); s++) {
          long room = level - p.initialLoad(s);
          bm.setCapacity(s, room > 0 ? room / wLoc : 0);
        }
        bm.newPhase();
        for (int t = 0; t < p.tasks(); t++) {
          if (bm.serverOf(t) < 0) {
            bm.augmentFromTask(t);
          }
        }
        ref = new int[p.tasks()];
        int expected = ReferenceMaxCoverBalAssign.maxCover(p, level, ref);
        assertEquals(expected, bm.matched(), "seed " + seed + " level " + level);
        for (int t = 0; t < p.tasks(); t++) {
          int s = bm.serverOf(t);
          assertTrue(s < 0 || p.isLocal(t, s), "a covered task is local");
          assertTrue(s < 0 || bm.count(s) <= bm.capacity(s), "capacity respected");
        }
      }
      long ours = Evaluation.of(p, new MaxCoverBalAssign().assign(p), 0).makespan();
      long theirs = Evaluation.of(p, new ReferenceMaxCoverBalAssign().assign(p), 0).makespan();
      assertTrue(ours <= theirs + p.cost().remote(), "seed " + seed + ": ours " + ours + " reference " + theirs);
    }
  }
}
