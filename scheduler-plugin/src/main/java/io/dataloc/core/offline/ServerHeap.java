package io.dataloc.core.offline;

/**
 * A binary min-heap of servers keyed by a {@code long} load, ties broken by server index, so the
 * order of pops is deterministic. No decrease-key: pop, then push with the new load.
 */
final class ServerHeap {
  private long[] key;
  private int[] id;
  private int size;

  ServerHeap(int capacity) {
    key = new long[Math.max(1, capacity)];
    id = new int[Math.max(1, capacity)];
  }

  void clear() {
    size = 0;
  }

  boolean isEmpty() {
    return size == 0;
  }

  int size() {
    return size;
  }

  /** Replaces the contents with servers {@code 0..n-1} keyed by {@code loads}, in O(n). */
  void fill(long[] loads, int n) {
    if (key.length < n) {
      key = new long[n];
      id = new int[n];
    }
    System.arraycopy(loads, 0, key, 0, n);
    for (int i = 0; i < n; i++) {
      id[i] = i;
    }
    size = n;
    for (int i = (n >>> 1) - 1; i >= 0; i--) {
      siftDown(i, key[i], id[i]);
    }
  }

  void push(int server, long load) {
    if (size == key.length) {
      key = java.util.Arrays.copyOf(key, size * 2);
      id = java.util.Arrays.copyOf(id, size * 2);
    }
    int i = size++;
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      if (!less(load, server, key[parent], id[parent])) {
        break;
      }
      key[i] = key[parent];
      id[i] = id[parent];
      i = parent;
    }
    key[i] = load;
    id[i] = server;
  }

  int peek() {
    return id[0];
  }

  long peekKey() {
    return key[0];
  }

  int pop() {
    int top = id[0];
    long lastKey = key[--size];
    int lastId = id[size];
    if (size > 0) {
      siftDown(0, lastKey, lastId);
    }
    return top;
  }

  private void siftDown(int start, long k, int v) {
    int i = start;
    while (true) {
      int c = 2 * i + 1;
      if (c >= size) {
        break;
      }
      if (c + 1 < size && less(key[c + 1], id[c + 1], key[c], id[c])) {
        c++;
      }
      if (!less(key[c], id[c], k, v)) {
        break;
      }
      key[i] = key[c];
      id[i] = id[c];
      i = c;
    }
    key[i] = k;
    id[i] = v;
  }

  private static boolean less(long k1, int i1, long k2, int i2) {
    return k1 < k2 || (k1 == k2 && i1 < i2);
  }
}
