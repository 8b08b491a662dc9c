package io.dataloc.core.offline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.core.model.CostModel;
import io.dataloc.core.model.Evaluation;
import io.dataloc.core.model.Problem;
import io.dataloc.core.model.Units;
import io.dataloc.core.workload.PaperInstances;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The worst cases Fischer, Su and Yin build for round robin, built here and run. */
class PaperConstructionsTest {

  /**
   * Thm 4.3: tasks split into T_1..T_n, T_i local to s_i, and each task of T_n also local to a
   * different server of s_1..s_{n-1}. Listing T_n first (the AM's task order) makes round robin
   * hand s_1..s_{n-1} the T_n tasks, so s_n only gets remote work: ⌊m/n⌋·w_rem, while the
   * optimum is ⌈m/n⌉·w_loc.
   */
  @ParameterizedTest
  @CsvSource({"3,3", "4,8", "5,15", "6,24", "6,20", "8,48"})
  void roundRobinForcedToMultiplicativeGap(int n, int m) {
    Problem p = PaperInstances.fischerRoundRobinWorstCase(n, m, CostModel.uniform(1, 3));
    long rr = Evaluation.of(p, new RoundRobin().assign(p)).makespan();
    long flow = Evaluation.of(p, new MaxCoverBalAssign().assign(p)).makespan();
    int floor = m / n;
    int ceil = (m + n - 1) / n;
    assertTrue(rr >= Units.of(3L * floor), "round robin " + rr);
    assertEquals(Units.of(ceil), flow, "flow reaches the optimum");
    assertEquals(Units.of(ceil), lowerBound(p));
  }

  @org.junit.jupiter.api.Test
  void barWorkedExampleEndsAtTheMakespanThePaperReports() {
    Problem p = PaperInstances.barExample();
    assertEquals(Units.ofDouble(6.2), Evaluation.of(p, new BalanceReduce().assign(p)).activeMakespan());
  }

  private static long lowerBound(Problem p) {
    return io.dataloc.core.model.LowerBounds.of(p).best();
  }

  /**
   * Thm 4.1: t_i local to s_i gives round robin makespan w_loc; one more replica (t_n on s_1),
   * with t_n listed first, lets s_1 take t_n and leaves s_n only t_1, remotely: w_rem.
   */
  @ParameterizedTest
  @CsvSource({"2", "3", "5", "9"})
  void oneMoreReplicaMakesRoundRobinWorse(int n) {
    CostModel cost = CostModel.uniform(1, 3);
    Problem p = PaperInstances.fischerExtraReplica(n, false, cost);
    Problem q = PaperInstances.fischerExtraReplica(n, true, cost);
    assertEquals(Units.of(1), Evaluation.of(p, new RoundRobin().assign(p)).makespan());
    assertEquals(Units.of(3), Evaluation.of(q, new RoundRobin().assign(q)).makespan());
    assertEquals(Units.of(1), Evaluation.of(q, new MaxCoverBalAssign().assign(q)).makespan());
  }
}
