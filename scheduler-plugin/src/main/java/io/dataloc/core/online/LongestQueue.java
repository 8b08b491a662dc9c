package io.dataloc.core.online;

import java.util.Arrays;

/**
 * The longest of a set of queues, kept exactly: an indexed binary max-heap of the non-empty queues
 * keyed by (length, id) — among equal lengths the highest id is on top — with each queue's position
 * in the heap, so a change of one queue's length costs {@code O(log n)} and finding the longest
 * {@code O(1)}, whatever happened before.
 *
 * <p>It replaces a lazy heap that took one entry per growth and dropped stale entries only when
 * asked for the top: after a plan of 50,000 tasks had drained, one question popped every stale
 * entry under the scheduler's lock (28 ms at 5,000 hosts). Here the heap never holds more entries
 * than there are non-empty queues.
 */
final class LongestQueue {
  /** The heap: queue ids; {@code length[id]} is the key. */
  private int[] heap = new int[16];
  private int size;
  /** Per queue id: its length, and its index in {@code heap} or -1. */
  private int[] length = new int[16];
  private int[] position = filled(16);

  private static int[] filled(int n) {
    int[] a = new int[n];
    Arrays.fill(a, -1);
    return a;
  }

  /** Records that queue {@code id} now holds {@code len} entries (0: it leaves the heap). */
  void set(int id, int len) {
    if (id < 0 || len < 0) {
      throw new IllegalArgumentException("queue " + id + " of length " + len);
    }
    if (id >= length.length) {
      int n = Math.max(id + 1, length.length * 2);
      length = Arrays.copyOf(length, n);
      int old = position.length;
      position = Arrays.copyOf(position, n);
      Arrays.fill(position, old, n, -1);
    }
    int was = length[id];
    length[id] = len;
    int at = position[id];
    if (at < 0) {
      if (len > 0) {
        if (size == heap.length) {
          heap = Arrays.copyOf(heap, size * 2);
        }
        heap[size] = id;
        position[id] = size;
        siftUp(size++);
      }
    } else if (len == 0) {
      removeAt(at);
    } else if (len > was) {
      siftUp(at);
    } else if (len < was) {
      siftDown(at);
    }
  }

  /** The id of the longest non-empty queue (highest id among equals), or -1 if all are empty. */
  int top() {
    return size == 0 ? -1 : heap[0];
  }

  /** The recorded length of queue {@code id} (0 if never set). */
  int length(int id) {
    return id >= 0 && id < length.length ? length[id] : 0;
  }

  /** How many queues are non-empty (the heap's size). */
  int nonEmpty() {
    return size;
  }

  private void removeAt(int at) {
    int id = heap[at];
    position[id] = -1;
    int last = heap[--size];
    if (at == size) {
      return;
    }
    heap[at] = last;
    position[last] = at;
    siftUp(at);
    siftDown(position[last]);
  }

  /** True if queue {@code a} ranks above queue {@code b}. */
  private boolean above(int a, int b) {
    return length[a] != length[b] ? length[a] > length[b] : a > b;
  }

  private void siftUp(int i) {
    int id = heap[i];
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      if (!above(id, heap[parent])) {
        break;
      }
      heap[i] = heap[parent];
      position[heap[i]] = i;
      i = parent;
    }
    heap[i] = id;
    position[id] = i;
  }

  private void siftDown(int i) {
    int id = heap[i];
    while (true) {
      int child = 2 * i + 1;
      if (child >= size) {
        break;
      }
      if (child + 1 < size && above(heap[child + 1], heap[child])) {
        child++;
      }
      if (!above(heap[child], id)) {
        break;
      }
      heap[i] = heap[child];
      position[heap[i]] = i;
      i = child;
    }
    heap[i] = id;
    position[id] = i;
  }
}
