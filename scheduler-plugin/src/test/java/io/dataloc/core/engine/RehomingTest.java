package io.dataloc.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.core.model.Assignment;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Propose, then commit: {@link DecisionEngine#proposeReplacement} changes nothing; {@link
 * DecisionEngine#replaceStarted} carries out the proposal's chain when it still holds, and
 * searches again (never applying a stale chain) when the engine has moved on.
 */
class RehomingTest {
  private static final long JOB = 7;

  /**
   * Hosts a, b, c with one slot each (JSQ-MaxWeight, per-host queues); one job whose task i has
   * the given local hosts and is planned on the given host.
   */
  private static DecisionEngine engine(List<List<String>> local, int... plannedOn) {
    DecisionEngine e = new DecisionEngine(EngineConfig.defaults().withPolicy("jsq-maxweight"));
    for (String h : List.of("a", "b", "c")) {
      e.addHost(h, null, 1);
    }
    PlanInput in = e.planInput(local, e.state()::slots);
    e.applyPlan(JOB, "u", local, in, Assignment.of(in.problem(), plannedOn));
    return e;
  }

  /** Where each of the job's tasks waits (queue host, or -1), and whether it runs: the engine's state, compared whole. */
  private static List<String> snapshot(DecisionEngine e) {
    List<String> out = new ArrayList<>();
    for (int i = 0; e.task(JOB, i) >= 0; i++) {
      int t = e.task(JOB, i);
      out.add(i + ":" + e.state().state(t) + "@" + (e.state().queued(t) ? e.policy().queueHostOf(t) : e.state().hostOf(t)));
    }
    return out;
  }

  @Test
  void aChainIsProposedWithoutChangeAndCommittedAsProposed() {
    // t0 local on a and c, planned on a; t1 local on b; t2 local on c and b, planned on c.
    DecisionEngine e = engine(List.of(List.of("a", "c"), List.of("b"), List.of("c", "b")), 0, 1, 2);
    int t0 = e.task(JOB, 0);
    int t1 = e.task(JOB, 1);
    int t2 = e.task(JOB, 2);
    Decision d = e.onSlotFree(0);
    assertNotNull(d);
    assertEquals(t0, d.task(), "a serves its own queue");
    List<String> before = snapshot(e);
    Rehoming p = e.proposeReplacement(d, t1);
    assertEquals(before, snapshot(e), "a proposal changes nothing");
    assertTrue(p.keepsLocality());
    assertEquals(2, p.chain().size(), "t0 to c, t2 from c to b (the queue t1 leaves)");
    Decision real = e.replaceStarted(d, t1, p);
    assertEquals(t1, real.task());
    assertEquals(0, e.state().hostOf(t1), "the AM's task runs in the container");
    assertEquals(2, e.policy().queueHostOf(t0), "t0 re-homed on c, where it is local");
    assertEquals(1, e.policy().queueHostOf(t2), "t2 moved on to b, where it is local");
  }

  @Test
  void aStaleProposalIsSearchedAgainNotApplied() {
    DecisionEngine e = engine(List.of(List.of("a", "c"), List.of("b"), List.of("c", "b")), 0, 1, 2);
    int t0 = e.task(JOB, 0);
    int t1 = e.task(JOB, 1);
    int t2 = e.task(JOB, 2);
    Decision d = e.onSlotFree(0);
    Rehoming p = e.proposeReplacement(d, t1);
    assertEquals(2, p.chain().size());
    assertTrue(e.dropPending(t2), "the engine moves on: the chain's middle task is gone");
    e.replaceStarted(d, t1, p);
    assertEquals(0, e.policy().queueHostOf(t0), "no chain any more: t0 goes back to the queue it came from");
    assertFalse(e.state().queued(t2));
  }

  @Test
  void withoutAChainLocalityIsNotKept() {
    // t0 local on a only: it cannot make room on b for t1.
    DecisionEngine e = engine(List.of(List.of("a"), List.of("b")), 0, 1);
    int t0 = e.task(JOB, 0);
    int t1 = e.task(JOB, 1);
    Decision d = e.onSlotFree(0);
    Rehoming p = e.proposeReplacement(d, t1);
    assertFalse(p.keepsLocality());
    assertNull(p.chain());
    e.replaceStarted(d, t1, null);
    assertEquals(0, e.policy().queueHostOf(t0), "back to its own queue");
    assertEquals(0, e.state().hostOf(t1));
  }

  @Test
  void theSameTaskOrOneFromTheCommonQueueNeedsNoSearch() {
    DecisionEngine e = engine(List.of(List.of("a"), List.of("b")), 0, 1);
    Decision d = e.onSlotFree(0);
    Rehoming same = e.proposeReplacement(d, d.task());
    assertTrue(same.keepsLocality());
    assertNull(same.chain());
    assertEquals(d, e.replaceStarted(d, d.task(), same), "nothing to replace");
  }
}
