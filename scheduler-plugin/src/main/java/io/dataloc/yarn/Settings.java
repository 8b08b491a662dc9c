package io.dataloc.yarn;

import io.dataloc.core.engine.EngineConfig;
import io.dataloc.core.model.CostModel;
import java.util.Objects;
import java.util.Set;

/**
 * Every Dataloc setting, validated ({@link DatalocConfiguration} reads and checks them): one
 * immutable value per start or refresh.
 */
public final class Settings {
  private final String assigner;
  private final String fallbackAssigner;
  private final String policy;
  private final String ordering;
  private final CostModel cost;
  private final long alpha;
  private final long beta;
  private final long gamma;
  private final int learnSamples;
  private final long planBudgetMs;
  private final int planMaxTasks;
  private final Set<String> sources;
  private final String hintEnv;
  private final long readTimeoutMs;
  private final int mapPriority;
  private final int nodeDelay;
  private final int rackDelay;
  private final long seed;
  private final PlacementBounds bounds;
  private final long amResourcePermille;
  private final String aclSubmit;
  private final String aclAdminister;
  private final int starvationRounds;
  private final long recoveryMs;
  private final int costLearnSamples;
  private final boolean dominantResources;
  private final String aclMaxPriority;
  private final long amPlacementWaitMs;
  private final String amAdmission;
  private final long csMaxWaitMs;
  private final Set<String> csQueues;
  private final int heartbeatMaxContainers;
  private final long reduceMaxSharePermille;
  private final int reducePriority;

  Settings(SettingsBuilder b) {
    this.assigner = Objects.requireNonNull(b.assigner, "assigner");
    this.fallbackAssigner = Objects.requireNonNull(b.fallbackAssigner, "fallbackAssigner");
    this.policy = Objects.requireNonNull(b.policy, "policy");
    this.ordering = Objects.requireNonNull(b.ordering, "ordering");
    this.cost = Objects.requireNonNull(b.cost, "cost");
    this.alpha = b.alpha;
    this.beta = b.beta;
    this.gamma = b.gamma;
    this.learnSamples = b.learnSamples;
    this.planBudgetMs = b.planBudgetMs;
    this.planMaxTasks = b.planMaxTasks;
    this.sources = Objects.requireNonNull(b.sources, "sources");
    this.hintEnv = Objects.requireNonNull(b.hintEnv, "hintEnv");
    this.readTimeoutMs = b.readTimeoutMs;
    this.mapPriority = b.mapPriority;
    this.nodeDelay = b.nodeDelay;
    this.rackDelay = b.rackDelay;
    this.seed = b.seed;
    this.bounds = Objects.requireNonNull(b.bounds, "bounds");
    this.amResourcePermille = b.amResourcePermille;
    this.aclSubmit = Objects.requireNonNull(b.aclSubmit, "aclSubmit");
    this.aclAdminister = Objects.requireNonNull(b.aclAdminister, "aclAdminister");
    this.starvationRounds = b.starvationRounds;
    this.recoveryMs = b.recoveryMs;
    this.costLearnSamples = b.costLearnSamples;
    this.dominantResources = b.dominantResources;
    this.aclMaxPriority = Objects.requireNonNull(b.aclMaxPriority, "aclMaxPriority");
    this.amPlacementWaitMs = b.amPlacementWaitMs;
    this.amAdmission = Objects.requireNonNull(b.amAdmission, "amAdmission");
    this.csMaxWaitMs = b.csMaxWaitMs;
    this.csQueues = Objects.requireNonNull(b.csQueues, "csQueues");
    this.heartbeatMaxContainers = b.heartbeatMaxContainers;
    this.reduceMaxSharePermille = b.reduceMaxSharePermille;
    this.reducePriority = b.reducePriority;
  }

  /** A builder with nothing set: {@link DatalocConfiguration} sets every value by name. */
  public static SettingsBuilder builder() {
    return new SettingsBuilder();
  }

  public String assigner() {
    return assigner;
  }

  public String fallbackAssigner() {
    return fallbackAssigner;
  }

  public String policy() {
    return policy;
  }

  public String ordering() {
    return ordering;
  }

  public CostModel cost() {
    return cost;
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

  public long planBudgetMs() {
    return planBudgetMs;
  }

  public int planMaxTasks() {
    return planMaxTasks;
  }

  public Set<String> sources() {
    return sources;
  }

  public String hintEnv() {
    return hintEnv;
  }

  public long readTimeoutMs() {
    return readTimeoutMs;
  }

  public int mapPriority() {
    return mapPriority;
  }

  public int nodeDelay() {
    return nodeDelay;
  }

  public int rackDelay() {
    return rackDelay;
  }

  public long seed() {
    return seed;
  }

  public PlacementBounds bounds() {
    return bounds;
  }

  public long amResourcePermille() {
    return amResourcePermille;
  }

  public String aclSubmit() {
    return aclSubmit;
  }

  public String aclAdminister() {
    return aclAdminister;
  }

  public int starvationRounds() {
    return starvationRounds;
  }

  public long recoveryMs() {
    return recoveryMs;
  }

  public int costLearnSamples() {
    return costLearnSamples;
  }

  public boolean dominantResources() {
    return dominantResources;
  }

  public String aclMaxPriority() {
    return aclMaxPriority;
  }

  public long amPlacementWaitMs() {
    return amPlacementWaitMs;
  }

  public String amAdmission() {
    return amAdmission;
  }

  public long csMaxWaitMs() {
    return csMaxWaitMs;
  }

  public Set<String> csQueues() {
    return csQueues;
  }

  /** Most containers one node heartbeat hands out; 0: as many as fit. */
  public int heartbeatMaxContainers() {
    return heartbeatMaxContainers;
  }

  /** {@code reduce.max-share} in thousandths of the cluster ({@link io.dataloc.core.jobs.LastPhaseCap}). */
  public long reduceMaxSharePermille() {
    return reduceMaxSharePermille;
  }

  /** {@code reduce-priority}: the request priority {@code reduce.max-share} caps. */
  public int reducePriority() {
    return reducePriority;
  }

  /** Whether a request key is MapReduce's map key ({@code map-priority}; any allocation request id). */
  public boolean isMapKey(org.apache.hadoop.yarn.server.scheduler.SchedulerRequestKey key) {
    return key != null && key.getPriority() != null && key.getPriority().getPriority() == mapPriority;
  }

  /** Whether Dataloc plans the jobs of this leaf queue (named by its short name or its path). */
  public boolean plansQueue(String leaf, String path) {
    return csQueues.isEmpty() || csQueues.contains(leaf) || path != null && csQueues.contains(path);
  }

  public EngineConfig engineConfig() {
    return new EngineConfig(policy, ordering, assigner, cost, alpha, beta, gamma, learnSamples, nodeDelay, rackDelay,
        planMaxTasks, seed, starvationRounds, costLearnSamples);
  }

  @Override
  public boolean equals(Object o) {
    if (o == this) {
      return true;
    }
    if (!(o instanceof Settings)) {
      return false;
    }
    Settings that = (Settings) o;
    return Objects.equals(assigner, that.assigner)
        && Objects.equals(fallbackAssigner, that.fallbackAssigner)
        && Objects.equals(policy, that.policy)
        && Objects.equals(ordering, that.ordering)
        && Objects.equals(cost, that.cost)
        && alpha == that.alpha
        && beta == that.beta
        && gamma == that.gamma
        && learnSamples == that.learnSamples
        && planBudgetMs == that.planBudgetMs
        && planMaxTasks == that.planMaxTasks
        && Objects.equals(sources, that.sources)
        && Objects.equals(hintEnv, that.hintEnv)
        && readTimeoutMs == that.readTimeoutMs
        && mapPriority == that.mapPriority
        && nodeDelay == that.nodeDelay
        && rackDelay == that.rackDelay
        && seed == that.seed
        && Objects.equals(bounds, that.bounds)
        && amResourcePermille == that.amResourcePermille
        && Objects.equals(aclSubmit, that.aclSubmit)
        && Objects.equals(aclAdminister, that.aclAdminister)
        && starvationRounds == that.starvationRounds
        && recoveryMs == that.recoveryMs
        && costLearnSamples == that.costLearnSamples
        && dominantResources == that.dominantResources
        && Objects.equals(aclMaxPriority, that.aclMaxPriority)
        && amPlacementWaitMs == that.amPlacementWaitMs
        && Objects.equals(amAdmission, that.amAdmission)
        && csMaxWaitMs == that.csMaxWaitMs
        && Objects.equals(csQueues, that.csQueues)
        && heartbeatMaxContainers == that.heartbeatMaxContainers
        && reduceMaxSharePermille == that.reduceMaxSharePermille
        && reducePriority == that.reducePriority;
  }

  @Override
  public int hashCode() {
    return Objects.hash(assigner, fallbackAssigner, policy, ordering, cost, alpha, beta, gamma, learnSamples, planBudgetMs, planMaxTasks, sources, hintEnv, readTimeoutMs, mapPriority, nodeDelay, rackDelay, seed, bounds, amResourcePermille, aclSubmit, aclAdminister, starvationRounds, recoveryMs, costLearnSamples, dominantResources, aclMaxPriority, amPlacementWaitMs, amAdmission, csMaxWaitMs, csQueues, heartbeatMaxContainers,
        reduceMaxSharePermille, reducePriority);
  }

  @Override
  public String toString() {
    return "Settings[assigner=" + assigner
        + ", fallbackAssigner=" + fallbackAssigner
        + ", policy=" + policy
        + ", ordering=" + ordering
        + ", cost=" + cost
        + ", alpha=" + alpha
        + ", beta=" + beta
        + ", gamma=" + gamma
        + ", learnSamples=" + learnSamples
        + ", planBudgetMs=" + planBudgetMs
        + ", planMaxTasks=" + planMaxTasks
        + ", sources=" + sources
        + ", hintEnv=" + hintEnv
        + ", readTimeoutMs=" + readTimeoutMs
        + ", mapPriority=" + mapPriority
        + ", nodeDelay=" + nodeDelay
        + ", rackDelay=" + rackDelay
        + ", seed=" + seed
        + ", bounds=" + bounds
        + ", amResourcePermille=" + amResourcePermille
        + ", aclSubmit=" + aclSubmit
        + ", aclAdminister=" + aclAdminister
        + ", starvationRounds=" + starvationRounds
        + ", recoveryMs=" + recoveryMs
        + ", costLearnSamples=" + costLearnSamples
        + ", dominantResources=" + dominantResources
        + ", aclMaxPriority=" + aclMaxPriority
        + ", amPlacementWaitMs=" + amPlacementWaitMs
        + ", amAdmission=" + amAdmission
        + ", csMaxWaitMs=" + csMaxWaitMs
        + ", csQueues=" + csQueues
        + ", heartbeatMaxContainers=" + heartbeatMaxContainers
        + ", reduceMaxSharePermille=" + reduceMaxSharePermille
        + ", reducePriority=" + reducePriority + "]";
  }
}
