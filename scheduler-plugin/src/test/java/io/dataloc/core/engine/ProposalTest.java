package io.dataloc.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.core.online.OnlinePolicies;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A free slot's protocol: {@link DecisionEngine#propose} changes no task, queue or job; {@link
 * DecisionEngine#commit} runs the proposal; a proposal never committed leaves nothing to take back;
 * {@link DecisionEngine#refuse} routes the task away from the host; a stale proposal is refused.
 */
class ProposalTest {
  private static DecisionEngine engine(String policy, int hosts) {
    DecisionEngine e = new DecisionEngine(EngineConfig.defaults().withPolicy(policy).withPlanner("none"));
    for (int h = 0; h < hosts; h++) {
      e.addHost("h" + h, "/r" + (h % 2), 2);
    }
    return e;
  }

  /** Every task's state and host, and every host's running count and queue length. */
  private static List<String> snapshot(DecisionEngine e) {
    EngineState s = e.state();
    List<String> out = new ArrayList<>();
    for (int t = 0; t < s.taskCount(); t++) {
      out.add(t + ":" + s.state(t) + "@" + s.hostOf(t) + ">" + e.policy().queueHostOf(t));
    }
    for (int h = 0; h < s.hostCount(); h++) {
      out.add("h" + h + ":" + s.running(h) + "/" + e.policy().queuedFor(h));
    }
    return out;
  }

  @Test
  void aProposalChangesNothingUntilCommittedForEveryPolicy() {
    for (String policy : OnlinePolicies.names()) {
      for (long seed = 1; seed <= 20; seed++) {
        SplittableRandom rnd = new SplittableRandom(seed);
        DecisionEngine e = engine(policy, 5);
        for (int j = 0; j < 4; j++) {
          List<List<String>> tasks = new ArrayList<>();
          for (int t = 0, m = 1 + rnd.nextInt(8); t < m; t++) {
            tasks.add(List.of("h" + rnd.nextInt(5), "h" + rnd.nextInt(5)));
          }
          e.submitJob(j, "u" + j, tasks);
        }
        for (int step = 0; step < 30; step++) {
          int h = rnd.nextInt(5);
          List<String> before = snapshot(e);
          Decision d = e.propose(h, Set.of());
          assertEquals(before, snapshot(e), policy + ", seed " + seed + ": a proposal changed the engine");
          if (d == null) {
            continue;
          }
          assertTrue(e.state().queued(d.task()), policy + ": the proposed task stays queued");
          if (rnd.nextBoolean()) {
            continue; // never carried out: nothing to take back
          }
          int pending = e.job(d.jobId()).pending();
          assertEquals(d, e.commit(d));
          assertEquals(TaskState.RUNNING, e.state().state(d.task()), policy + ": committed, it runs");
          assertEquals(h, e.state().hostOf(d.task()));
          assertEquals(pending - 1, e.job(d.jobId()).pending());
          assertThrows(IllegalStateException.class, () -> e.commit(d), policy + ": committed twice");
        }
      }
    }
  }

  @Test
  void aProposalOfADroppedTaskCannotBeCommitted() {
    DecisionEngine e = engine("jsq-maxweight-steal", 2);
    e.submitJob(1, "u", List.of(List.of("h0"), List.of("h0")));
    Decision d = e.propose(0, Set.of());
    assertNotNull(d);
    assertTrue(e.dropPending(d.task()));
    assertThrows(IllegalStateException.class, () -> e.commit(d));
  }

  @Test
  void aRefusedProposalIsRoutedAwayFromItsHost() {
    DecisionEngine e = engine("jsq-maxweight-steal", 2);
    e.submitJob(1, "u", List.of(List.of("h0", "h1")));
    int t = e.pendingTasks(1).get(0);
    int home = e.policy().queueHostOf(t);
    assertTrue(home >= 0, "queued at one of its replica hosts");
    Decision d = e.propose(home, Set.of());
    assertEquals(t, d.task());
    e.refuse(d);
    assertTrue(e.state().queued(t), "still queued");
    assertNotEquals(home, e.policy().queueHostOf(t), "no longer in the refusing host's queue");
    Decision there = e.commit(e.propose(1 - home, Set.of()));
    assertEquals(t, there.task(), "the other replica host runs it");
    assertEquals(io.dataloc.core.model.Level.LOCAL, there.level());
  }

  @Test
  void anExcludedJobIsPassedOverAndProposedAgainOnceNotExcluded() {
    DecisionEngine e = engine("jsq-maxweight-steal", 1);
    e.submitJob(1, "u", List.of(List.of("h0")));
    e.submitJob(2, "v", List.of(List.of("h0")));
    Decision first = e.propose(0, Set.of());
    Decision other = e.propose(0, Set.of(first.jobId()));
    assertNotEquals(first.jobId(), other.jobId());
    assertEquals(first, e.propose(0, Set.of()), "the first proposal was never made: it comes again");
  }
}
