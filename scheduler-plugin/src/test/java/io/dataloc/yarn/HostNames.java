package io.dataloc.yarn;

import io.dataloc.core.model.TaskHosts;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;

/** For tests of the readers: every host name is a node, numbered as first seen; and back to names. */
final class HostNames implements ToIntFunction<String> {
  private final Map<String, Integer> ids = new HashMap<>();
  private final List<String> names = new ArrayList<>();

  @Override
  public synchronized int applyAsInt(String name) {
    return ids.computeIfAbsent(name, n -> {
      names.add(n);
      return names.size() - 1;
    });
  }

  /** Each task's hosts by name, in the order its split names them (each once). */
  synchronized List<List<String>> of(TaskHosts hosts) {
    List<List<String>> out = new ArrayList<>(hosts.tasks());
    for (int t = 0; t < hosts.tasks(); t++) {
      List<String> split = new ArrayList<>();
      for (int k = 0; k < hosts.count(t); k++) {
        split.add(names.get(hosts.host(t, k)));
      }
      out.add(split);
    }
    return out;
  }
}
