package io.dataloc.core.engine;

import io.dataloc.core.model.LocalChains;
import java.util.List;

/**
 * A proposal, made without changing the engine, for the application running {@code actual} in the
 * container decided for {@code decided}: how {@code decided} goes back to a queue where it is
 * local ({@code chain}, from the end host back to its first move; null when it simply returns to
 * the queue it came from), and whether every queued task of the job then keeps a host where it is
 * data-local and no host ends up busier than the busier of the two involved
 * ({@code keepsLocality}). {@link DecisionEngine#replaceStarted} commits it; a proposal the engine
 * has moved on from since (a move's task no longer queued) is searched again there.
 */
public record Rehoming(int decided, int actual, List<LocalChains.Move> chain, boolean keepsLocality) {
  /** No search was needed: the decided task returns to the queue it came from, or the job is too large to search. */
  static Rehoming noChain(int decided, int actual, boolean keepsLocality) {
    return new Rehoming(decided, actual, null, keepsLocality);
  }

  boolean isFor(int decidedTask, int actualTask) {
    return decided == decidedTask && actual == actualTask;
  }
}
