package io.dataloc.core.engine;

import io.dataloc.core.model.Assignment;
import io.dataloc.core.model.CostModel;
import io.dataloc.core.online.OnlinePolicy;
import java.util.List;
import java.util.function.IntUnaryOperator;
import java.util.function.Supplier;

/**
 * Jobs entering the engine: routed online task by task, or planned by the caller (off its lock,
 * with {@link BudgetedPlanner}) against the hosts' current loads and applied in chunks. A planned task
 * enters its planned host's queue if that host is alive, else it is routed; a task the plan did
 * not cover, or a job whose plan cannot be made, is routed online: admission never loses a task.
 */
final class Admissions {
  private final EngineConfig config;
  private final EngineState state;
  private final OnlinePolicy policy;
  private final EngineJobs jobs;
  private final Supplier<CostModel> planCost;

  Admissions(EngineConfig config, EngineState state, OnlinePolicy policy, EngineJobs jobs,
      Supplier<CostModel> planCost) {
    this.config = config;
    this.state = state;
    this.policy = policy;
    this.jobs = jobs;
    this.planCost = planCost;
  }

  Admission submitJob(long jobId, String user, List<List<String>> replicaHosts) {
    JobState j = jobs.create(jobId, user);
    for (List<String> reps : replicaHosts) {
      policy.route(jobs.addOneByOne(j, reps));
    }
    return new Admission(jobId, replicaHosts.size(), false, "none", null, "routed online");
  }

  PlanHosts planHosts(IntUnaryOperator jobSlots) {
    return PlanHosts.of(state, policy, jobSlots, config.planCost().local(), planCost.get());
  }

  /**
   * The planning problem for a job's tasks, where host {@code h} runs {@code jobSlots.applyAsInt(h)}
   * of them at once (a job whose containers are larger than the cluster's slot fits fewer), never
   * more than its slots and never fewer than one; null if no host is live.
   */
  PlanInput planInput(List<List<String>> replicaHosts, IntUnaryOperator jobSlots) {
    PlanHosts hosts = planHosts(jobSlots);
    return hosts == null ? null : hosts.input(replicaHosts);
  }

  Admission applyPlan(long jobId, String user, PlanInput in, Assignment plan) {
    PlanApplication app = PlanApplication.prepare(jobId, user, in, plan);
    while (!applySome(app, Integer.MAX_VALUE)) {
      // one call applies everything
    }
    Admission a = app.admission();
    return new Admission(a.jobId(), a.tasks(), true, config.planner(), a.plan(), a.note());
  }

  boolean applySome(PlanApplication app, int maxTasks) {
    if (app.spare != null) {
      state.adopt(app.spare);
      app.spare = null;
    }
    JobState j = jobs.get(app.jobId);
    if (app.next == 0 && j == null) {
      j = jobs.create(app.jobId, app.user);
    } else if (j == null) {
      throw new IllegalStateException("job " + app.jobId + " was removed while its plan was applied");
    }
    int end = (int) Math.min(app.replicas.length, (long) app.next + Math.max(1, maxTasks));
    for (int i = app.next; i < end; i++) {
      int t = jobs.addTask(j, app.replicas[i]);
      int h = app.host[i];
      if (h >= 0 && state.alive(h)) {
        policy.enqueuePlanned(t, h, app.level[i]);
      } else {
        policy.route(t);
      }
    }
    app.next = end;
    return end == app.replicas.length;
  }

  void addTasks(long jobId, String user, List<List<String>> replicaHosts) {
    JobState j = jobs.getOrCreate(jobId, user);
    for (List<String> reps : replicaHosts) {
      policy.route(jobs.addOneByOne(j, reps));
    }
  }
}
