package io.dataloc.bench;

import io.dataloc.core.model.Assignment;
import io.dataloc.core.model.Problem;
import io.dataloc.core.offline.Assigner;
import io.dataloc.core.offline.AssignerOptions;
import io.dataloc.core.offline.Assigners;
import io.dataloc.core.workload.RandomProblems;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Planning time at the LABL paper's scale: 3,500 tasks on 2,000 servers, 1–4 replicas, initial
 * loads 0–5, w_loc 1, w_rem 3 (seed 1).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgs = {"-Xmx4g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class PaperScaleBenchmark {
  @Param({"round-robin", "flow", "bar", "labl", "labl:+1", "hungarian", "jgrapht-flow", "jgrapht-flow-ek"})
  public String algorithm;

  private Problem problem;
  private Assigner assigner;

  @Setup
  public void setup() {
    problem = RandomProblems.generate(RandomProblems.Spec.labl(2000, 3500), 1);
    assigner = algorithm.startsWith("jgrapht-flow")
        ? new ReferenceMaxCoverBalAssign(algorithm.endsWith("-ek"))
        : Assigners.create(algorithm, AssignerOptions.defaults());
  }

  @Benchmark
  public Assignment plan() {
    return assigner.assign(problem);
  }
}
