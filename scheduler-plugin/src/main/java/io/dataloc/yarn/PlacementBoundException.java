package io.dataloc.yarn;

import java.io.IOException;

/**
 * A job's file or listing went past one of the placement bounds: it is not read further and the
 * job is served from its asks. The message names the configuration key of the bound.
 */
final class PlacementBoundException extends IOException {
  private final DatalocKeys.Key key;

  PlacementBoundException(DatalocKeys.Key key, long limit, String what) {
    super(what + " exceeds " + key.fullName() + " = " + limit);
    this.key = key;
  }

  /** The refused input, not a bound: a path outside what the job may name, a DTD, an entity. */
  PlacementBoundException(String refused) {
    super(refused);
    this.key = null;
  }

  /** The bound that was exceeded, or null when the input was refused outright. */
  DatalocKeys.Key key() {
    return key;
  }
}
