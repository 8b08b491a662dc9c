package io.dataloc.core.engine;

import io.dataloc.core.model.Problem;

/**
 * A planning problem and how its tasks and hosts map back to the job and the engine;
 * {@code replicas[i]} are job task {@code i}'s replica hosts as engine indexes.
 */
public record PlanInput(Problem problem, int[] jobTaskOfPlanTask, int[] engineHostOfClusterHost, int[][] replicas) {}
