package io.dataloc.sim.io;

import io.dataloc.core.model.Assignment;
import io.dataloc.core.model.Evaluation;
import io.dataloc.core.model.Problem;
import io.dataloc.core.model.Units;
import io.dataloc.core.offline.Assigner;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.LinkedHashMap;
import java.util.Map;

/** One assigner's plan for one problem, with its evaluation and how long planning took. */
public record PlanResult(String algorithm, Problem problem, Assignment assignment, Evaluation evaluation,
    double planMillis) {

  /** Runs an assigner and measures it (wall-clock planning time, for reports only). */
  public static PlanResult run(Assigner assigner, Problem p, long lowerBound) {
    long start = System.nanoTime();
    Assignment a = assigner.assign(p);
    double millis = (System.nanoTime() - start) / 1e6;
    return new PlanResult(assigner.name(), p, a, Evaluation.of(p, a, lowerBound), millis);
  }

  /** The output object, keys in the documented order. */
  public Map<String, Object> toJson() {
    Map<String, Object> assignmentJson = new LinkedHashMap<>();
    for (int t = 0; t < problem.tasks(); t++) {
      assignmentJson.put(problem.taskId(t), problem.hostName(assignment.server(t)));
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("algorithm", algorithm);
    out.put("assignment", assignmentJson);
    out.put("makespan", Units.toDecimal(evaluation.makespan()));
    out.put("activeMakespan", Units.toDecimal(evaluation.activeMakespan()));
    out.put("resource", Units.toDecimal(evaluation.resource()));
    out.put("local", evaluation.local());
    out.put("rackLocal", evaluation.rackLocal());
    out.put("remote", evaluation.remote());
    out.put("lowerBound", Units.toDecimal(evaluation.lowerBound()));
    out.put("planMillis", BigDecimal.valueOf(planMillis).setScale(3, RoundingMode.HALF_UP).stripTrailingZeros());
    return out;
  }
}
