package io.dataloc.core.online;

import java.util.List;

/**
 * The online policies by name: {@code jsq-maxweight}, {@code jsq-maxweight-steal},
 * {@code balanced-pandas}, {@code greedy}, {@code delay}, {@code fair}.
 */
public final class OnlinePolicies {
  private static final List<String> NAMES =
      List.of("jsq-maxweight", "jsq-maxweight-steal", "balanced-pandas", "greedy", "delay", "fair", "break-even");

  private OnlinePolicies() {}

  public static List<String> names() {
    return NAMES;
  }

  /**
   * Creates a policy.
   *
   * @param nodeDelay, rackDelay delay scheduling's skip thresholds (used by {@code delay} only)
   */
  public static OnlinePolicy create(String name, int nodeDelay, int rackDelay) {
    switch (name) {
      case "jsq-maxweight":
        return new JsqMaxWeight(false);
      case "jsq-maxweight-steal":
        return new JsqMaxWeight(true);
      case "balanced-pandas":
        return new BalancedPandas();
      case "greedy":
        return new Greedy();
      case "delay":
        return FairSharing.delay(nodeDelay, rackDelay);
      case "fair":
        return FairSharing.fair();
      case "break-even":
        return new BreakEven();
      default:
        throw new IllegalArgumentException(
          "unknown online policy '" + name + "'; known: " + String.join(", ", NAMES));
    }
  }
}
