package io.dataloc.core.engine;

import io.dataloc.core.model.CostModel;
import io.dataloc.core.model.Level;
import io.dataloc.core.model.ObservedDurations;
import io.dataloc.core.online.ServiceRates;
import java.util.Arrays;

/**
 * What finished tasks teach the engine: when each running task started, how long tasks took at
 * each locality level ({@link ObservedDurations}, the one record both readers use), the service
 * rates the online policies weigh by ({@link ServiceRates}) and the costs plans are made with
 * ({@link CostLearning}: the configured ones, raised to the observed ratios, never lowered).
 */
final class EngineLearning {
  private final ObservedDurations observed = new ObservedDurations();
  private final ServiceRates rates;
  private final CostLearning costs;
  private final CostModel configured;
  private long[] startedAt = new long[64];

  EngineLearning(EngineConfig config) {
    this.rates = new ServiceRates(config.alpha(), config.beta(), config.gamma(), config.learnSamples(),
        config.planCost().perSharedRead(), config.planCost().local());
    this.costs = new CostLearning(config.costLearnSamples());
    this.configured = config.planCost();
  }

  ServiceRates rates() {
    return rates;
  }

  /** The task started at {@code now}. */
  void started(int task, long now) {
    if (task >= startedAt.length) {
      startedAt = Arrays.copyOf(startedAt, Math.max(task + 1, startedAt.length * 2));
    }
    startedAt[task] = now;
  }

  /** The task finished at {@code now}, having run at {@code level}: how long it took (at least 1 tick). */
  long finished(int task, Level level, long now) {
    long ticks = Math.max(1, now - startedAt[task]);
    observed.observe(level, ticks);
    rates.update(observed);
    return ticks;
  }

  /** The cost model plans are made with now. */
  CostModel planCost() {
    return costs.costs(configured, observed);
  }
}
