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
    return switch (name) {
      case "jsq-maxweight" -> new JsqMaxWeight(false);
      case "jsq-maxweight-steal" -> new JsqMaxWeight(true);
      case "balanced-pandas" -> new BalancedPandas();
      case "greedy" -> new Greedy();
      case "delay" -> FairSharing.delay(nodeDelay, rackDelay);
      case "fair" -> FairSharing.fair();
      case "break-even" -> new BreakEven();
      default -> throw new IllegalArgumentException(
          "unknown online policy '" + name + "'; known: " + String.join(", ", NAMES));
    };
  }
}
