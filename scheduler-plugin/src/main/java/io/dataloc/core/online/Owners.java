package io.dataloc.core.online;

import java.util.Arrays;

/** Which queue holds each task ({@code -1}: none), growing with the engine's task numbers. */
final class Owners {
  private int[] owner = new int[64];

  Owners() {
    Arrays.fill(owner, -1);
  }

  int[] array(int task) {
    if (task >= owner.length) {
      int old = owner.length;
      owner = Arrays.copyOf(owner, Math.max(task + 1, old * 2));
      Arrays.fill(owner, old, owner.length, -1);
    }
    return owner;
  }

  int get(int task) {
    return task < owner.length ? owner[task] : -1;
  }

  void clear(int task) {
    if (task < owner.length) {
      owner[task] = -1;
    }
  }
}
