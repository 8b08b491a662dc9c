package io.dataloc.yarn;

import io.dataloc.core.model.CostModel;
import java.util.Set;

/**
 * {@link Settings} by name ({@link Settings#builder}): each value set by its own setter;
 * {@link #build} refuses a missing value of an object type.
 */
public final class SettingsBuilder {
  String assigner;
  String fallbackAssigner;
  String policy;
  String ordering;
  CostModel cost;
  long alpha;
  long beta;
  long gamma;
  int learnSamples;
  long planBudgetMs;
  int planMaxTasks;
  Set<String> sources;
  String hintEnv;
  long readTimeoutMs;
  int mapPriority;
  int nodeDelay;
  int rackDelay;
  long seed;
  PlacementBounds bounds;
  long amResourcePermille;
  String aclSubmit;
  String aclAdminister;
  int starvationRounds;
  long recoveryMs;
  int costLearnSamples;
  boolean dominantResources;
  String aclMaxPriority;
  long amPlacementWaitMs;
  String amAdmission;
  long csMaxWaitMs;
  Set<String> csQueues;
  int heartbeatMaxContainers;
  long reduceMaxSharePermille;
  int reducePriority;

  SettingsBuilder() {
  }

  public SettingsBuilder assigner(String v) {
    assigner = v;
    return this;
  }

  public SettingsBuilder fallbackAssigner(String v) {
    fallbackAssigner = v;
    return this;
  }

  public SettingsBuilder policy(String v) {
    policy = v;
    return this;
  }

  public SettingsBuilder ordering(String v) {
    ordering = v;
    return this;
  }

  public SettingsBuilder cost(CostModel v) {
    cost = v;
    return this;
  }

  public SettingsBuilder alpha(long v) {
    alpha = v;
    return this;
  }

  public SettingsBuilder beta(long v) {
    beta = v;
    return this;
  }

  public SettingsBuilder gamma(long v) {
    gamma = v;
    return this;
  }

  public SettingsBuilder learnSamples(int v) {
    learnSamples = v;
    return this;
  }

  public SettingsBuilder planBudgetMs(long v) {
    planBudgetMs = v;
    return this;
  }

  public SettingsBuilder planMaxTasks(int v) {
    planMaxTasks = v;
    return this;
  }

  public SettingsBuilder sources(Set<String> v) {
    sources = v;
    return this;
  }

  public SettingsBuilder hintEnv(String v) {
    hintEnv = v;
    return this;
  }

  public SettingsBuilder readTimeoutMs(long v) {
    readTimeoutMs = v;
    return this;
  }

  public SettingsBuilder mapPriority(int v) {
    mapPriority = v;
    return this;
  }

  public SettingsBuilder nodeDelay(int v) {
    nodeDelay = v;
    return this;
  }

  public SettingsBuilder rackDelay(int v) {
    rackDelay = v;
    return this;
  }

  public SettingsBuilder seed(long v) {
    seed = v;
    return this;
  }

  public SettingsBuilder bounds(PlacementBounds v) {
    bounds = v;
    return this;
  }

  public SettingsBuilder amResourcePermille(long v) {
    amResourcePermille = v;
    return this;
  }

  public SettingsBuilder aclSubmit(String v) {
    aclSubmit = v;
    return this;
  }

  public SettingsBuilder aclAdminister(String v) {
    aclAdminister = v;
    return this;
  }

  public SettingsBuilder starvationRounds(int v) {
    starvationRounds = v;
    return this;
  }

  public SettingsBuilder recoveryMs(long v) {
    recoveryMs = v;
    return this;
  }

  public SettingsBuilder costLearnSamples(int v) {
    costLearnSamples = v;
    return this;
  }

  public SettingsBuilder dominantResources(boolean v) {
    dominantResources = v;
    return this;
  }

  public SettingsBuilder aclMaxPriority(String v) {
    aclMaxPriority = v;
    return this;
  }

  public SettingsBuilder amPlacementWaitMs(long v) {
    amPlacementWaitMs = v;
    return this;
  }

  public SettingsBuilder amAdmission(String v) {
    amAdmission = v;
    return this;
  }

  public SettingsBuilder csMaxWaitMs(long v) {
    csMaxWaitMs = v;
    return this;
  }

  public SettingsBuilder csQueues(Set<String> v) {
    csQueues = v;
    return this;
  }

  public SettingsBuilder heartbeatMaxContainers(int v) {
    heartbeatMaxContainers = v;
    return this;
  }

  public SettingsBuilder reduceMaxSharePermille(long v) {
    reduceMaxSharePermille = v;
    return this;
  }

  public SettingsBuilder reducePriority(int v) {
    reducePriority = v;
    return this;
  }

  public Settings build() {
    return new Settings(this);
  }
}
