package io.dataloc.core.offline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.dataloc.core.model.Problem;
import io.dataloc.core.workload.RandomProblems;
import io.dataloc.core.workload.RandomProblems.Spec;
import org.junit.jupiter.api.Test;

/**
 * LABL's thresholds {@code l**} ({@code labl}) and {@code l** + k} ({@code labl:+k}) make the same
 * plan whenever costs are uniform (no racks, no congestion), whatever the initial loads, whole or
 * fractional.
 *
 * <p>Proof. Phase II at the first iteration ({@code l = l**}) sees {@code T_rem[l**]}, computed
 * from the initial loads, and the servers with {@code l** − φ_s ≥ w_rem}, untouched by Phase I
 * (which only fills servers with {@code φ_s > l** − w_rem}); round robin places one task per server
 * per cycle while a server can take one more, so it places {@code min(|T_rem|, Σ ⌊(l** − φ_s)/w_rem⌋)}
 * tasks, and condition (a) of {@code l**} ({@link io.dataloc.core.model.LowerBounds}) says that
 * minimum is {@code |T_rem|}: every one is placed. At a later iteration {@code l_k = l_{k−1} + w_loc},
 * a task is in {@code T_rem} only if every replica server has load {@code > l_{k−1}}; no placement
 * ever lifts a load above the current {@code l}, so each such server started at
 * {@code φ_s > l_{k−1} ≥ l**}, which put the task in {@code T_rem[l**]}, placed at the first
 * iteration. So Phase II never has a task after the first iteration, and the threshold that
 * decides whether it runs there changes nothing. (Fractional loads, suggested as the setting where
 * the thresholds part, do not change the argument.) With racks or congestion the bound counts the
 * cheapest non-local cost and Phase II may place fewer, so the argument stops there; the test
 * keeps to uniform costs.
 */
class LablThresholdTest {
  @Test
  void everyThresholdMakesThePlanOfTheFirstIteration() {
    Assigner first = Assigners.create("labl", AssignerOptions.defaults());
    Assigner[] later = {Assigners.create("labl:+1", AssignerOptions.defaults()),
        Assigners.create("labl:+3", AssignerOptions.defaults())};
    for (long seed = 1; seed <= 30; seed++) {
      for (int grain : new int[] {1, 10, 1000}) {
        for (int maxLoad : new int[] {2, 5, 10}) {
          Spec spec = Spec.labl(60 + (int) (seed % 5) * 20, 150 + (int) (seed % 7) * 40).withInitialLoad(maxLoad)
              .withLoadGrain(grain);
          Problem p = RandomProblems.generate(spec, seed);
          int[] plan = first.assign(p).toArray();
          for (Assigner a : later) {
            assertArrayEquals(plan, a.assign(p).toArray(),
                a.name() + ", seed " + seed + ", loads 0-" + maxLoad + " in steps of 1/" + grain);
          }
        }
      }
    }
  }
}
