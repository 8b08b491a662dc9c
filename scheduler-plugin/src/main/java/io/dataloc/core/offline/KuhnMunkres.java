package io.dataloc.core.offline;

import io.dataloc.core.model.Cancellation;
import java.util.Arrays;

/**
 * The Hungarian method (Kuhn 1955, Munkres 1957) for the rectangular assignment problem: given a
 * {@code k × N} cost matrix with {@code k ≤ N}, match every row to a distinct column at least total
 * cost. Shortest augmenting paths with row/column potentials, {@code O(k²·N)}, exact over
 * {@code long} costs (no epsilon). Ties follow column order, so the result is deterministic.
 */
public final class KuhnMunkres {
  private KuhnMunkres() {}

  /**
   * Solves the problem.
   *
   * @param cost {@code cost[i][j]}, rows {@code 0..k-1}, columns {@code 0..N-1}, {@code k ≤ N}
   * @return the column of each row
   */
  public static int[] solve(long[][] cost) {
    int k = cost.length;
    if (k == 0) {
      return new int[0];
    }
    int cols = cost[0].length;
    if (k > cols) {
      throw new IllegalArgumentException("more rows (" + k + ") than columns (" + cols + ")");
    }
    long inf = Long.MAX_VALUE / 4;
    long[] u = new long[k + 1];
    long[] v = new long[cols + 1];
    int[] rowOfCol = new int[cols + 1];
    int[] way = new int[cols + 1];
    long[] minv = new long[cols + 1];
    boolean[] used = new boolean[cols + 1];
    for (int i = 1; i <= k; i++) {
      Cancellation.check(); // once per row: O(cols^2) work between polls
      rowOfCol[0] = i;
      int j0 = 0;
      Arrays.fill(minv, inf);
      Arrays.fill(used, false);
      do {
        used[j0] = true;
        int i0 = rowOfCol[j0];
        long delta = inf;
        int j1 = -1;
        long[] row = cost[i0 - 1];
        long ui = u[i0];
        for (int j = 1; j <= cols; j++) {
          if (!used[j]) {
            long cur = row[j - 1] - ui - v[j];
            if (cur < minv[j]) {
              minv[j] = cur;
              way[j] = j0;
            }
            if (minv[j] < delta) {
              delta = minv[j];
              j1 = j;
            }
          }
        }
        for (int j = 0; j <= cols; j++) {
          if (used[j]) {
            u[rowOfCol[j]] += delta;
            v[j] -= delta;
          } else {
            minv[j] -= delta;
          }
        }
        j0 = j1;
      } while (rowOfCol[j0] != 0);
      do {
        int j1 = way[j0];
        rowOfCol[j0] = rowOfCol[j1];
        j0 = j1;
      } while (j0 != 0);
    }
    int[] colOfRow = new int[k];
    for (int j = 1; j <= cols; j++) {
      if (rowOfCol[j] != 0) {
        colOfRow[rowOfCol[j] - 1] = j - 1;
      }
    }
    return colOfRow;
  }
}
