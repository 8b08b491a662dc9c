package io.dataloc.core.model;

/** Where a task runs relative to its input block: on a replica host, in a replica's rack, or elsewhere. */
public enum Level {
  LOCAL,
  RACK,
  REMOTE;

  public boolean isLocal() {
    return this == LOCAL;
  }
}
