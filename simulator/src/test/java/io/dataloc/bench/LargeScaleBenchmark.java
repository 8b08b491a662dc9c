package io.dataloc.bench;

import io.dataloc.core.model.Assignment;
import io.dataloc.core.model.CostModel;
import io.dataloc.core.model.Problem;
import io.dataloc.core.offline.Assigner;
import io.dataloc.core.offline.AssignerOptions;
import io.dataloc.core.offline.Assigners;
import io.dataloc.core.workload.RandomProblems;
import io.dataloc.core.workload.RandomProblems.Spec;
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
 * Planning time for a large job: 100,000 tasks on 10,000 servers, 3 replicas each (HDFS's
 * default), initial loads 0–5, w_loc 1, w_rem 3 (seed 1). The Hungarian method, {@code O(m·n²)},
 * is left out at this scale.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgs = {"-Xmx8g"})
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class LargeScaleBenchmark {
  @Param({"round-robin", "flow", "bar", "labl", "jgrapht-flow", "jgrapht-flow-ek"})
  public String algorithm;

  private Problem problem;
  private Assigner assigner;

  @Setup
  public void setup() {
    problem = RandomProblems.generate(new Spec(10_000, 100_000, 3, 3, 5, 0, 0, CostModel.uniform(1, 3)), 1);
    assigner = algorithm.startsWith("jgrapht-flow")
        ? new ReferenceMaxCoverBalAssign(algorithm.endsWith("-ek"))
        : Assigners.create(algorithm, AssignerOptions.defaults());
  }

  @Benchmark
  public Assignment plan() {
    return assigner.assign(problem);
  }
}
