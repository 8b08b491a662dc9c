package io.dataloc.core.offline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.core.model.CostModel;
import io.dataloc.core.model.Level;
import io.dataloc.core.model.Problem;
import io.dataloc.core.workload.RandomProblems;
import io.dataloc.core.workload.RandomProblems.Spec;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The Hungarian method against brute force over all injective row→column maps. */
class KuhnMunkresTest {

  @Test
  void matchesBruteForceOnRandomMatrices() {
    SplittableRandom rnd = new SplittableRandom(7);
    for (int i = 0; i < 500; i++) {
      int k = 1 + rnd.nextInt(5);
      int cols = k + rnd.nextInt(3);
      long[][] c = new long[k][cols];
      for (long[] row : c) {
        for (int j = 0; j < cols; j++) {
          row[j] = rnd.nextInt(i % 2 == 0 ? 5 : 1000) - (i % 5 == 0 ? 50 : 0);
        }
      }
      int[] col = KuhnMunkres.solve(c);
      Set<Integer> used = new HashSet<>();
      long total = 0;
      for (int r = 0; r < k; r++) {
        assertTrue(used.add(col[r]), "column used twice");
        total += c[r][col[r]];
      }
      assertEquals(bruteForce(c, 0, new boolean[cols]), total, "instance " + i);
    }
  }

  @Test
  void hungarianAssignerSolvesTheSingleRoundAssignmentProblemExactly() {
    SplittableRandom rnd = new SplittableRandom(11);
    for (int i = 0; i < 300; i++) {
      int n = 2 + rnd.nextInt(5);
      Problem p = RandomProblems.generate(
          new Spec(n, 1 + rnd.nextInt(n), 1, 1 + rnd.nextInt(Math.min(3, n)), rnd.nextInt(4),
              i % 2 == 0 ? 0 : 2, 0, CostModel.uniform(1, 3)), rnd.nextLong());
      int[] a = new Hungarian(AssignerOptions.defaults()).assign(p).toArray();
      long[][] c = new long[p.tasks()][p.servers()];
      for (int t = 0; t < p.tasks(); t++) {
        for (int s = 0; s < p.servers(); s++) {
          Level level = p.level(t, s);
          c[t][s] = p.initialLoad(s) + p.cost().cost(level, level == Level.LOCAL ? 0 : 1);
        }
      }
      long total = 0;
      for (int t = 0; t < p.tasks(); t++) {
        total += c[t][a[t]];
      }
      assertEquals(bruteForce(c, 0, new boolean[p.servers()]), total, "instance " + i);
    }
  }

  @Test
  void rejectsMoreRowsThanColumns() {
    assertThrows(IllegalArgumentException.class, () -> KuhnMunkres.solve(new long[3][2]));
  }

  private static long bruteForce(long[][] c, int row, boolean[] used) {
    if (row == c.length) {
      return 0;
    }
    long best = Long.MAX_VALUE;
    for (int j = 0; j < used.length; j++) {
      if (!used[j]) {
        used[j] = true;
        best = Math.min(best, c[row][j] + bruteForce(c, row + 1, used));
        used[j] = false;
      }
    }
    return best;
  }
}
