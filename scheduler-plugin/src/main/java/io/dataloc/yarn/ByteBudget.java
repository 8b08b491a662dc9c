package io.dataloc.yarn;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Bytes held together by many owners on many threads, within a limit: each owner reserves what it
 * holds before it holds it for long, and releases it by name when done. Lock-free.
 */
final class ByteBudget {
  private final AtomicLong held = new AtomicLong();

  /** Reserves {@code bytes} if the total stays within {@code limit}; whether it did. */
  boolean reserve(long bytes, long limit) {
    while (true) {
      long now = held.get();
      if (bytes > limit - now) {
        return false;
      }
      if (held.compareAndSet(now, now + bytes)) {
        return true;
      }
    }
  }

  /** Gives back {@code bytes} reserved before. */
  void release(long bytes) {
    held.addAndGet(-bytes);
  }

  long held() {
    return held.get();
  }
}
