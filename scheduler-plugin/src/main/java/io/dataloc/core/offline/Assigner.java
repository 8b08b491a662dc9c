package io.dataloc.core.offline;

import io.dataloc.core.model.Assignment;
import io.dataloc.core.model.Problem;

/**
 * An offline assigner: places every task of one job on a server, given the servers' initial
 * loads, the placement graph and the cost model. Implementations are deterministic for a given
 * {@link AssignerOptions#seed()}, keep no state between calls, and never return a partial
 * assignment.
 */
public interface Assigner {
  /** The registry name, e.g. {@code "flow"}. */
  String name();

  Assignment assign(Problem problem);
}
