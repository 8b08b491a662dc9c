package io.dataloc.core.engine;

import java.util.Arrays;

/**
 * What the engine's live tasks want of each host, kept as tasks change state so that reading it
 * costs nothing: its <b>demand</b> (live tasks, queued or running, with a replica there: the data
 * its slots are wanted for) and its <b>reads out</b> (running tasks away from their data with a
 * replica there: the reads its link may carry; each such task counts at every host holding its
 * block). {@link EngineState} is the one writer.
 */
final class HostWants {
  private int[] demand = new int[16];
  private int[] readsOut = new int[16];

  /** Room for host indexes below {@code n}. */
  void grow(int n) {
    if (n > demand.length) {
      demand = Arrays.copyOf(demand, n);
      readsOut = Arrays.copyOf(readsOut, n);
    }
  }

  /** A task with these replicas became live ({@code d} = 1) or stopped being live (-1). */
  void live(int[] replicas, int d) {
    for (int r : replicas) {
      demand[r] += d;
    }
  }

  /** A task with these replicas started (1) or stopped (-1) running away from its data. */
  void away(int[] replicas, int d) {
    for (int r : replicas) {
      readsOut[r] += d;
    }
  }

  int demand(int h) {
    return demand[h];
  }

  int readsOut(int h) {
    return readsOut[h];
  }
}
