package io.dataloc.core.engine;

import io.dataloc.core.model.Assignment;
import io.dataloc.core.model.Evaluation;
import io.dataloc.core.model.Level;
import io.dataloc.core.model.Problem;
import java.util.Arrays;

/**
 * A plan ready to be applied a part at a time ({@link DecisionEngine#applySome}): what each of the job's tasks
 * was planned to (engine host and level, or -1 for "route it"), and the plan's evaluation. Made
 * without the engine, so the caller may prepare it off its lock.
 */
public final class PlanApplication {
  final long jobId;
  final String user;
  final int[][] replicas;
  final int[] host;
  final Level[] level;
  private final Admission admission;
  int next;
  TaskArrays spare;

  private PlanApplication(long jobId, String user, int[][] replicas, int[] host, Level[] level, Admission admission) {
    this.jobId = jobId;
    this.user = user;
    this.replicas = replicas;
    this.host = host;
    this.level = level;
    this.admission = admission;
  }

  public Admission admission() {
    return admission;
  }

  /** Tasks applied so far. */
  public int applied() {
    return next;
  }

  public int tasks() {
    return replicas.length;
  }

  /**
   * Allocates, now (off the caller's lock), the task arrays the engine will need to hold this
   * plan's tasks besides the {@code liveTasks} it holds among {@code taskNumbers} numbers in
   * arrays of {@code capacity}; adopted by the first {@link DecisionEngine#applySome}.
   */
  public void reserve(int taskNumbers, int liveTasks, int capacity) {
    // New tasks take freed numbers first.
    long needed = taskNumbers + Math.max(0L, replicas.length - (long) (taskNumbers - liveTasks));
    if (needed > capacity) {
      spare = new TaskArrays((int) Math.min(Integer.MAX_VALUE - 8, Math.max(needed, 2L * capacity)));
    }
  }

/** Prepares a plan for {@link DecisionEngine#applySome}; pure (no engine state is read or changed). */
  public static PlanApplication prepare(long jobId, String user, PlanInput in, Assignment plan) {
  int n = in.replicas().length;
  int[] host = new int[n];
  Level[] level = new Level[n];
  Arrays.fill(host, -1);
  Problem p = in.problem();
  for (int pt = 0; pt < p.tasks(); pt++) {
    int i = in.jobTaskOfPlanTask()[pt];
    int server = plan.server(pt);
    host[i] = in.engineHostOfClusterHost()[p.hostOf(server)];
    level[i] = p.level(pt, server);
  }
  Admission adm = new Admission(jobId, n, true, "given", Evaluation.of(p, plan),
      "planned " + p.tasks() + " of " + n + " tasks");
  return new PlanApplication(jobId, user, in.replicas(), host, level, adm);
}
}
