package io.dataloc.core.offline;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The registry of offline assigners by name. A name may carry one argument after a colon:
 * {@code flow:first} (the paper's tie-break among thresholds), {@code labl:always}, {@code labl:first}, {@code labl:+1} (Phase II while {@code l ≤ l**+1}),
 * {@code hungarian:song} (Song et al.'s weighted cost with weights 1,1,1) or
 * {@code hungarian:song=c/d/n}. Unknown names and arguments are rejected with the list of valid
 * ones.
 */
public final class Assigners {
  private static final Map<String, Function<AssignerOptions, Assigner>> REGISTRY = new LinkedHashMap<>();

  static {
    register("round-robin", o -> new RoundRobin());
    register("flow", o -> new MaxCoverBalAssign(o.flowFirstOfLeast()));
    register("bar", o -> new BalanceReduce());
    register("labl", BoundedLatency::new);
    register("hungarian", Hungarian::new);
    register("exact", o -> new ExactSolver(o.exactMaxTasks()));
  }

  private Assigners() {}

  private static void register(String name, Function<AssignerOptions, Assigner> factory) {
    if (REGISTRY.putIfAbsent(name, factory) != null) {
      throw new IllegalStateException("assigner '" + name + "' registered twice");
    }
  }

  /** Registered base names, in registration order. */
  public static List<String> names() {
    return List.copyOf(REGISTRY.keySet());
  }

  public static boolean exists(String spec) {
    try {
      create(spec, AssignerOptions.defaults());
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /**
   * Creates the assigner named by {@code spec} ({@code name} or {@code name:arg}).
   *
   * @throws IllegalArgumentException naming the bad name or argument and what is allowed
   */
  public static Assigner create(String spec, AssignerOptions options) {
    String name = spec.trim();
    String arg = null;
    int colon = name.indexOf(':');
    if (colon >= 0) {
      arg = name.substring(colon + 1);
      name = name.substring(0, colon);
    }
    Function<AssignerOptions, Assigner> f = REGISTRY.get(name);
    if (f == null) {
      throw new IllegalArgumentException(
          "unknown algorithm '" + spec + "'; known: " + String.join(", ", names()));
    }
    return f.apply(withArgument(name, arg, options));
  }

  private static AssignerOptions withArgument(String name, String arg, AssignerOptions o) {
    if (arg == null) {
      return o;
    }
    if (name.equals("flow")) {
      if (arg.equals("first")) {
        return o.withFlowFirstOfLeast(true);
      }
      throw new IllegalArgumentException("bad flow tie-break '" + arg + "'; use flow or flow:first");
    }
    if (name.equals("labl")) {
      switch (arg) {
        case "always":
          return o.withLablThreshold(AssignerOptions.LABL_ALWAYS);
        case "first":
          return o.withLablThreshold(0);
        default: {
          if (arg.matches("\\+[0-9]{1,6}")) {
            return o.withLablThreshold(Integer.parseInt(arg.substring(1)));
          }
          throw new IllegalArgumentException(
              "bad labl threshold '" + arg + "'; use labl:always, labl:first or labl:+K");
        }
      }
    }
    if (name.equals("hungarian")) {
      if (arg.equals("song")) {
        return o.withSongWeights(new AssignerOptions.SongWeights(1, 1, 1));
      }
      if (arg.matches("song=[0-9]{1,6}/[0-9]{1,6}/[0-9]{1,6}")) {
        String[] w = arg.substring(5).split("/");
        return o.withSongWeights(new AssignerOptions.SongWeights(
            Long.parseLong(w[0]), Long.parseLong(w[1]), Long.parseLong(w[2])));
      }
      throw new IllegalArgumentException(
          "bad hungarian cost '" + arg + "'; use hungarian, hungarian:song or hungarian:song=c/d/n");
    }
    throw new IllegalArgumentException("algorithm '" + name + "' takes no argument (got '" + arg + "')");
  }
}
