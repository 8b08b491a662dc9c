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
    int i = 0;
    while (true) {
      int c = 2 * i + 1;
      if (c >= size) {
        break;
      }
      if (c + 1 < size && less(key[c + 1], id[c + 1], key[c], id[c])) {
        c++;
      }
      if (!less(key[c], id[c], lastKey, lastId)) {
        break;
      }
      key[i] = key[c];
      id[i] = id[c];
      i = c;
    }
    key[i] = lastKey;
    id[i] = lastId;
    return top;
  }

  private static boolean less(long k1, int i1, long k2, int i2) {
    return k1 < k2 || (k1 == k2 && i1 < i2);
  }
}
