package io.dataloc.core.engine;

import io.dataloc.core.jobs.JobOrderings;
import io.dataloc.core.model.CostModel;
import io.dataloc.core.offline.Assigners;
import io.dataloc.core.online.OnlinePolicies;
import java.util.Objects;

/**
 * Everything the decision engine is configured with, validated here once.
 *
 * @param policy online policy name ({@link OnlinePolicies})
 * @param ordering job ordering name ({@link io.dataloc.core.jobs.JobOrderings})
 * @param planner offline assigner for jobs whose tasks arrive together, or {@code "none"}
 * @param planCost the cost model plans are made with
 * @param alpha local service rate, thousandths of a task per tick
 * @param beta rack-local service rate
 * @param gamma remote service rate
 * @param learnSamples learn the rates from observed durations once every level has this many
 *     samples (0 = never)
 * @param nodeDelay delay scheduling: opportunities to skip before a rack-local task
 * @param rackDelay delay scheduling: further opportunities before an off-rack task
 * @param maxPlanTasks jobs with more tasks are not planned, only routed online
 * @param seed the one seed for every random tie-break
 * @param starvation a job with tasks queued for a host that has not been served for this many
 *     decisions is served there first, whatever the policy would pick (0 = never; see
 *     {@link DecisionEngine#propose})
 * @param costLearnSamples plans' locality costs learned from observed durations once local and
 *     one non-local level have this many samples ({@link CostLearning}; 0 = never)
 */
public final class EngineConfig {
  private final String policy;
  private final String ordering;
  private final String planner;
  private final CostModel planCost;
  private final long alpha;
  private final long beta;
  private final long gamma;
  private final int learnSamples;
  private final int nodeDelay;
  private final int rackDelay;
  private final int maxPlanTasks;
  private final long seed;
  private final int starvation;
  private final int costLearnSamples;

  public EngineConfig(String policy, String ordering, String planner, CostModel planCost, long alpha, long beta,
      long gamma, int learnSamples, int nodeDelay, int rackDelay, int maxPlanTasks, long seed, int starvation,
      int costLearnSamples) {
    OnlinePolicies.create(policy, Math.max(0, nodeDelay), Math.max(0, rackDelay));
    JobOrderings.create(ordering);
    if (!planner.equals("none")) {
      Assigners.create(planner, io.dataloc.core.offline.AssignerOptions.defaults());
    }
    new io.dataloc.core.online.ServiceRates(alpha, beta, gamma, 0);
    if (learnSamples < 0 || nodeDelay < 0 || rackDelay < 0 || maxPlanTasks < 0 || starvation < 0
        || costLearnSamples < 0) {
      throw new IllegalArgumentException(
          "learnSamples, delays, maxPlanTasks, starvation and costLearnSamples must be >= 0");
    }
    this.policy = policy;
    this.ordering = ordering;
    this.planner = planner;
    this.planCost = planCost;
    this.alpha = alpha;
    this.beta = beta;
    this.gamma = gamma;
    this.learnSamples = learnSamples;
    this.nodeDelay = nodeDelay;
    this.rackDelay = rackDelay;
    this.maxPlanTasks = maxPlanTasks;
    this.seed = seed;
    this.starvation = starvation;
    this.costLearnSamples = costLearnSamples;
  }

  public String policy() {
    return policy;
  }

  public String ordering() {
    return ordering;
  }

  public String planner() {
    return planner;
  }

  public CostModel planCost() {
    return planCost;
  }

  public long alpha() {
    return alpha;
  }

  public long beta() {
    return beta;
  }

  public long gamma() {
    return gamma;
  }

  public int learnSamples() {
    return learnSamples;
  }

  public int nodeDelay() {
    return nodeDelay;
  }

  public int rackDelay() {
    return rackDelay;
  }

  public int maxPlanTasks() {
    return maxPlanTasks;
  }

  public long seed() {
    return seed;
  }

  public int starvation() {
    return starvation;
  }

  public int costLearnSamples() {
    return costLearnSamples;
  }

  /** Break-even waiting, fair job order, BAR plans, Wang et al.'s rates (α 0.8, β 0.5, γ 0.2). */
  public static EngineConfig defaults() {
    return new EngineConfig("break-even", "fair", "bar", CostModel.uniform(1, 3), 800, 500, 200, 0, 3, 3,
        200_000, 1L, 0, 0);
  }

  /**
   * The engine a ResourceManager runs with Dataloc's default settings and this assigner: what the
   * adapter builds from an empty {@code yarn-site.xml} (a test holds the two equal), for the
   * simulator's plan-mode runs.
   */
  public static EngineConfig resourceManager(String assigner) {
    return new EngineConfig("break-even", "fair", assigner, CostModel.of(1000, 2000, 3000, 0), 800, 500, 200, 0,
        3, 3, 200_000, 1L, 2, 3);
  }

  public EngineConfig withPolicy(String p) {
    return new EngineConfig(p, ordering, planner, planCost, alpha, beta, gamma, learnSamples, nodeDelay, rackDelay,
        maxPlanTasks, seed, starvation, costLearnSamples);
  }

  public EngineConfig withOrdering(String o) {
    return new EngineConfig(policy, o, planner, planCost, alpha, beta, gamma, learnSamples, nodeDelay, rackDelay,
        maxPlanTasks, seed, starvation, costLearnSamples);
  }

  public EngineConfig withPlanner(String p) {
    return new EngineConfig(policy, ordering, p, planCost, alpha, beta, gamma, learnSamples, nodeDelay, rackDelay,
        maxPlanTasks, seed, starvation, costLearnSamples);
  }

  public EngineConfig withRates(long a, long b, long g) {
    return new EngineConfig(policy, ordering, planner, planCost, a, b, g, learnSamples, nodeDelay, rackDelay,
        maxPlanTasks, seed, starvation, costLearnSamples);
  }

  public EngineConfig withSeed(long s) {
    return new EngineConfig(policy, ordering, planner, planCost, alpha, beta, gamma, learnSamples, nodeDelay,
        rackDelay, maxPlanTasks, s, starvation, costLearnSamples);
  }

  public EngineConfig withLearning(int samples) {
    return new EngineConfig(policy, ordering, planner, planCost, alpha, beta, gamma, samples, nodeDelay, rackDelay,
        maxPlanTasks, seed, starvation, costLearnSamples);
  }

  public EngineConfig withStarvation(int decisions) {
    return new EngineConfig(policy, ordering, planner, planCost, alpha, beta, gamma, learnSamples, nodeDelay, rackDelay,
        maxPlanTasks, seed, decisions, costLearnSamples);
  }

  public EngineConfig withDelays(int node, int rack) {
    return new EngineConfig(policy, ordering, planner, planCost, alpha, beta, gamma, learnSamples, node, rack,
        maxPlanTasks, seed, starvation, costLearnSamples);
  }

  public EngineConfig withPlanCost(CostModel c) {
    return new EngineConfig(policy, ordering, planner, c, alpha, beta, gamma, learnSamples, nodeDelay, rackDelay,
        maxPlanTasks, seed, starvation, costLearnSamples);
  }

  public EngineConfig withCostLearning(int samples) {
    return new EngineConfig(policy, ordering, planner, planCost, alpha, beta, gamma, learnSamples, nodeDelay, rackDelay,
        maxPlanTasks, seed, starvation, samples);
  }

  @Override
  public boolean equals(Object o) {
    if (o == this) {
      return true;
    }
    if (!(o instanceof EngineConfig)) {
      return false;
    }
    EngineConfig that = (EngineConfig) o;
    return Objects.equals(policy, that.policy)
        && Objects.equals(ordering, that.ordering)
        && Objects.equals(planner, that.planner)
        && Objects.equals(planCost, that.planCost)
        && alpha == that.alpha
        && beta == that.beta
        && gamma == that.gamma
        && learnSamples == that.learnSamples
        && nodeDelay == that.nodeDelay
        && rackDelay == that.rackDelay
        && maxPlanTasks == that.maxPlanTasks
        && seed == that.seed
        && starvation == that.starvation
        && costLearnSamples == that.costLearnSamples;
  }

  @Override
  public int hashCode() {
    return Objects.hash(policy, ordering, planner, planCost, alpha, beta, gamma, learnSamples, nodeDelay, rackDelay, maxPlanTasks, seed, starvation, costLearnSamples);
  }

  @Override
  public String toString() {
    return "EngineConfig[policy=" + policy
        + ", ordering=" + ordering
        + ", planner=" + planner
        + ", planCost=" + planCost
        + ", alpha=" + alpha
        + ", beta=" + beta
        + ", gamma=" + gamma
        + ", learnSamples=" + learnSamples
        + ", nodeDelay=" + nodeDelay
        + ", rackDelay=" + rackDelay
        + ", maxPlanTasks=" + maxPlanTasks
        + ", seed=" + seed
        + ", starvation=" + starvation
        + ", costLearnSamples=" + costLearnSamples + "]";
  }
}
