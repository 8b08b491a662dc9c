package io.dataloc.core.engine;

import io.dataloc.core.model.Problem;
import java.util.Objects;

/**
 * A planning problem and how its tasks and hosts map back to the job and the engine;
 * {@code replicas[i]} are job task {@code i}'s replica hosts as engine indexes.
 */
public final class PlanInput {
  private final Problem problem;
  private final int[] jobTaskOfPlanTask;
  private final int[] engineHostOfClusterHost;
  private final int[][] replicas;

  public PlanInput(Problem problem, int[] jobTaskOfPlanTask, int[] engineHostOfClusterHost, int[][] replicas) {
    this.problem = problem;
    this.jobTaskOfPlanTask = jobTaskOfPlanTask;
    this.engineHostOfClusterHost = engineHostOfClusterHost;
    this.replicas = replicas;
  }

  public Problem problem() {
    return problem;
  }

  public int[] jobTaskOfPlanTask() {
    return jobTaskOfPlanTask;
  }

  public int[] engineHostOfClusterHost() {
    return engineHostOfClusterHost;
  }

  public int[][] replicas() {
    return replicas;
  }

  @Override
  public boolean equals(Object o) {
    if (o == this) {
      return true;
    }
    if (!(o instanceof PlanInput)) {
      return false;
    }
    PlanInput that = (PlanInput) o;
    return Objects.equals(problem, that.problem)
        && Objects.equals(jobTaskOfPlanTask, that.jobTaskOfPlanTask)
        && Objects.equals(engineHostOfClusterHost, that.engineHostOfClusterHost)
        && Objects.equals(replicas, that.replicas);
  }

  @Override
  public int hashCode() {
    return Objects.hash(problem, jobTaskOfPlanTask, engineHostOfClusterHost, replicas);
  }

  @Override
  public String toString() {
    return "PlanInput[problem=" + problem
        + ", jobTaskOfPlanTask=" + jobTaskOfPlanTask
        + ", engineHostOfClusterHost=" + engineHostOfClusterHost
        + ", replicas=" + replicas + "]";
  }
}
