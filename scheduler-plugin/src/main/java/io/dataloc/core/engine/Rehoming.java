package io.dataloc.core.engine;

import io.dataloc.core.model.LocalChains;
import java.util.List;
import java.util.Objects;

/**
 * A proposal, made without changing the engine, for the application running {@code actual} in the
 * container decided for {@code decided}: how {@code decided} goes back to a queue where it is
 * local ({@code chain}, from the end host back to its first move; null when it simply returns to
 * the queue it came from), and whether every queued task of the job then keeps a host where it is
 * data-local and no host ends up busier than the busier of the two involved
 * ({@code keepsLocality}). {@link DecisionEngine#replaceStarted} commits it; a proposal the engine
 * has moved on from since (a move's task no longer queued) is searched again there.
 */
public final class Rehoming {
  private final int decided;
  private final int actual;
  private final List<LocalChains.Move> chain;
  private final boolean keepsLocality;

  public Rehoming(int decided, int actual, List<LocalChains.Move> chain, boolean keepsLocality) {
    this.decided = decided;
    this.actual = actual;
    this.chain = chain;
    this.keepsLocality = keepsLocality;
  }

  public int decided() {
    return decided;
  }

  public int actual() {
    return actual;
  }

  public List<LocalChains.Move> chain() {
    return chain;
  }

  public boolean keepsLocality() {
    return keepsLocality;
  }

  /** No search was needed: the decided task returns to the queue it came from, or the job is too large to search. */
  static Rehoming noChain(int decided, int actual, boolean keepsLocality) {
    return new Rehoming(decided, actual, null, keepsLocality);
  }

  boolean isFor(int decidedTask, int actualTask) {
    return decided == decidedTask && actual == actualTask;
  }

  @Override
  public boolean equals(Object o) {
    if (o == this) {
      return true;
    }
    if (!(o instanceof Rehoming)) {
      return false;
    }
    Rehoming that = (Rehoming) o;
    return decided == that.decided
        && actual == that.actual
        && Objects.equals(chain, that.chain)
        && keepsLocality == that.keepsLocality;
  }

  @Override
  public int hashCode() {
    return Objects.hash(decided, actual, chain, keepsLocality);
  }

  @Override
  public String toString() {
    return "Rehoming[decided=" + decided
        + ", actual=" + actual
        + ", chain=" + chain
        + ", keepsLocality=" + keepsLocality + "]";
  }
}
