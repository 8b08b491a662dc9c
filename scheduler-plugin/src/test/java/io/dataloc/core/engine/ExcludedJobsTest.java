package io.dataloc.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.core.jobs.JobOrderings;
import io.dataloc.core.jobs.JobView;
import io.dataloc.core.online.OnlinePolicies;
import io.dataloc.core.online.OnlinePolicy;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The jobs a proposal passes over ({@link EngineJobs#excluded}): a view over the parked jobs and
 * the ids the caller names, which answers as a set does — its size, its members, a copy — and
 * names a job once when it is both parked and named.
 */
class ExcludedJobsTest {
  @Test
  void theViewAnswersAsASetDoes() {
    EngineState state = new EngineState(1, JobOrderings.create("fair"));
    OnlinePolicy policy = OnlinePolicies.create("break-even", 3, 3);
    policy.attach(state, new EngineLearning(EngineConfig.defaults()).rates());
    EngineJobs jobs = new EngineJobs(state, policy, new StarvationGuard(2, state, policy));
    JobState a = jobs.create(1, "u");
    JobState b = jobs.create(2, "u");
    jobs.create(3, "u");
    assertTrue(jobs.excluded(Set.of()).isEmpty());
    assertEquals(0, jobs.excluded(Set.of()).size());
    jobs.setParked(1, true);
    Set<JobView> x = jobs.excluded(Set.of(1L, 2L, 99L)); // 1 parked and named, 99 unknown
    assertFalse(x.isEmpty());
    assertEquals(2, x.size());
    assertEquals(Set.of(a, b), new HashSet<>(x));
    assertEquals(Set.of(a, b), Set.copyOf(x));
    assertEquals(List.of(2L), x.stream().filter(j -> !j.equals(a)).map(j -> ((JobState) j).id()).toList());
  }
}
