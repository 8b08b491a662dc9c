package io.dataloc.core.jobs;

import java.util.SplittableRandom;

/** The held and total memory of the share rules' property tests: edges, any long, and cluster sizes. */
final class ShareCases {
  private ShareCases() {}

  /** Case {@code i}'s {@code {held, total}}, both non-negative, drawn from {@code rnd} and {@code edges}. */
  static long[] heldAndTotal(SplittableRandom rnd, int i, long[] edges) {
    long held = i % 3 == 0 ? edges[rnd.nextInt(edges.length)] : rnd.nextLong(0, Long.MAX_VALUE);
    long total = i % 5 == 0 ? edges[rnd.nextInt(edges.length)] : rnd.nextLong(0, Long.MAX_VALUE);
    if (i % 2 == 0) {
      held = rnd.nextLong(0, 1 << 24);
      total = rnd.nextLong(0, 1L << 30);
    }
    return new long[] {held, total};
  }
}
