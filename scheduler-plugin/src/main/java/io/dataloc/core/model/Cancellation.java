package io.dataloc.core.model;

import java.util.function.Supplier;

/**
 * Cooperative cancellation of a long computation (an assigner, a levelling pass): the work polls
 * {@link #check} in its outer loops, which ends it with {@link Cancelled} once its thread is
 * interrupted or the deadline given by {@link #within} has passed. So a budget bounds the work
 * itself, not only how long a caller waits for it: an abandoned plan frees its thread at its next
 * poll instead of running to its end behind the next plans.
 *
 * <p>A poll costs a thread-local read, an interrupt-flag read and, under a deadline, one
 * {@code System.nanoTime()}; callers poll once per outer iteration (a level, an augmenting phase,
 * a batch), never in inner loops. Without {@link #within} only an interrupt cancels.
 */
public final class Cancellation {
  private static final long NONE = Long.MAX_VALUE;
  private static final ThreadLocal<long[]> DEADLINE = ThreadLocal.withInitial(() -> new long[] {NONE});

  private Cancellation() {}

  /** Why a computation stopped before its end. */
  public static final class Cancelled extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Cancelled(String why) {
      super(why, null, false, false);
    }
  }

  /**
   * Runs {@code work} on this thread, cancelled at {@code deadlineNanos} (a {@code System.nanoTime()}
   * value) or at an interrupt, whichever comes first; a deadline already in force stays if it is
   * sooner.
   */
  public static <T> T within(long deadlineNanos, Supplier<T> work) {
    long[] slot = DEADLINE.get();
    long outer = slot[0];
    slot[0] = outer == NONE || deadlineNanos - outer < 0 ? deadlineNanos : outer;
    try {
      return work.get();
    } finally {
      slot[0] = outer;
    }
  }

  /** Ends the computation with {@link Cancelled} if its thread is interrupted or its deadline has passed. */
  public static void check() {
    if (Thread.currentThread().isInterrupted()) {
      throw new Cancelled("interrupted");
    }
    long d = DEADLINE.get()[0];
    if (d != NONE && System.nanoTime() - d > 0) {
      throw new Cancelled("past its deadline");
    }
  }
}
