package io.dataloc.core.online;

import java.util.Arrays;

/** A growable ring buffer of ints: FIFO with O(1) amortised add and poll. */
public final class IntDeque {
  private int[] buf = new int[8];
  private int head;
  private int size;

  public void add(int v) {
    if (size == buf.length) {
      int[] next = new int[buf.length * 2];
      for (int i = 0; i < size; i++) {
        next[i] = buf[(head + i) & (buf.length - 1)];
      }
      buf = next;
      head = 0;
    }
    buf[(head + size++) & (buf.length - 1)] = v;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  public int size() {
    return size;
  }

  /** The {@code i}-th element from the head ({@code 0 <= i < size()}). */
  public int get(int i) {
    return buf[(head + i) & (buf.length - 1)];
  }

  public int peek() {
    return buf[head];
  }

  public int poll() {
    int v = buf[head];
    head = (head + 1) & (buf.length - 1);
    size--;
    return v;
  }

  public int[] toArray() {
    int[] out = new int[size];
    for (int i = 0; i < size; i++) {
      out[i] = buf[(head + i) & (buf.length - 1)];
    }
    return out;
  }

  @Override
  public String toString() {
    return Arrays.toString(toArray());
  }
}
