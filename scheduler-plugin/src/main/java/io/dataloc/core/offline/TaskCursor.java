package io.dataloc.core.offline;

import io.dataloc.core.model.Problem;
import java.util.Arrays;

/**
 * Finds the first unassigned task local to a server, in a server's rack, or anywhere, in task
 * order, with moving pointers: amortised {@code O(|E| + m)} over a whole pass, because a task
 * once assigned stays assigned while the cursor is in use.
 */
final class TaskCursor {
  private final Problem p;
  private final int[] serverPtr;
  private final int[] rackOff;
  private final int[] rackTasks;
  private final int[] rackPtr;
  private int anyPtr;

  TaskCursor(Problem p) {
    this.p = p;
    serverPtr = new int[p.servers()];
    int racks = p.cluster().rackCount();
    rackOff = new int[racks + 1];
    int[] tr = p.taskRacks();
    for (int t = 0; t < p.tasks(); t++) {
      for (int i = p.taskRackStart(t); i < p.taskRackEnd(t); i++) {
        rackOff[tr[i] + 1]++;
      }
    }
    for (int r = 0; r < racks; r++) {
      rackOff[r + 1] += rackOff[r];
    }
    rackTasks = new int[rackOff[racks]];
    int[] fill = Arrays.copyOf(rackOff, racks);
    for (int t = 0; t < p.tasks(); t++) {
      for (int i = p.taskRackStart(t); i < p.taskRackEnd(t); i++) {
        rackTasks[fill[tr[i]]++] = t;
      }
    }
    rackPtr = new int[racks];
    reset();
  }

  /** Rewinds every pointer (call when tasks may have become unassigned). */
  void reset() {
    for (int s = 0; s < serverPtr.length; s++) {
      serverPtr[s] = p.localStart(s);
    }
    System.arraycopy(rackOff, 0, rackPtr, 0, rackPtr.length);
    anyPtr = 0;
  }

  int firstLocal(int server, int[] serverOf) {
    int[] loc = p.localTasks();
    int end = p.localEnd(server);
    while (serverPtr[server] < end && serverOf[loc[serverPtr[server]]] >= 0) {
      serverPtr[server]++;
    }
    return serverPtr[server] < end ? loc[serverPtr[server]] : -1;
  }

  int firstInRack(int rack, int[] serverOf) {
    if (rack < 0) {
      return -1;
    }
    int end = rackOff[rack + 1];
    while (rackPtr[rack] < end && serverOf[rackTasks[rackPtr[rack]]] >= 0) {
      rackPtr[rack]++;
    }
    return rackPtr[rack] < end ? rackTasks[rackPtr[rack]] : -1;
  }

  int firstAny(int[] serverOf) {
    while (anyPtr < serverOf.length && serverOf[anyPtr] >= 0) {
      anyPtr++;
    }
    return anyPtr < serverOf.length ? anyPtr : -1;
  }
}
