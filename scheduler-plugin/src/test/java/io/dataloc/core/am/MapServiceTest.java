package io.dataloc.core.am;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.core.engine.Decision;
import io.dataloc.core.engine.DecisionEngine;
import io.dataloc.core.engine.EngineConfig;
import io.dataloc.core.engine.TaskState;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The slot service's loop: each refusal released by its name, the plan's declines, the AM's replay committed. */
class MapServiceTest {
  /** Hosts a and b, one slot each; job 1 with three tasks local on a (online, no replay). */
  private static DecisionEngine engine() {
    DecisionEngine e = new DecisionEngine(EngineConfig.defaults().withPolicy("jsq-maxweight"));
    e.addHost("a", "/r", 1);
    e.addHost("b", "/r", 1);
    e.submitJob(1, "u", List.of(List.of("a"), List.of("a"), List.of("a")));
    return e;
  }

  /** Facts that refuse with the given refusals in turn, then allow and allocate; records what it saw. */
  private static class Script implements MapService.Facts {
    final List<MapService.Refusal> refusals;
    final List<String> seen = new ArrayList<>();
    final List<Integer> tasks = new ArrayList<>();
    boolean allow = true;
    boolean room = true;

    Script(MapService.Refusal... r) {
      refusals = new ArrayList<>(List.of(r));
    }

    @Override
    public MapService.Replayed replayed(long jobId) {
      return null;
    }

    @Override
    public MapService.Refusal before(Decision d) {
      return refusals.isEmpty() ? null : refusals.remove(0);
    }

    @Override
    public boolean allowed(Decision d) {
      return allow;
    }

    @Override
    public boolean allocate(Decision d) {
      seen.add("allocate");
      tasks.add(d.task());
      return room;
    }

    @Override
    public void released(Decision d, MapService.Refusal r) {
      seen.add(r.name());
      tasks.add(d.task());
    }
  }

  @Test
  void aJobNotAskingSitsOutTheSlotAndItsTaskStaysQueued() {
    DecisionEngine e = engine();
    Script f = new Script(MapService.Refusal.NOT_ASKING);
    assertNull(MapService.serve(e, 0, "a", f, 10), "its one job sits out: nothing runs");
    assertEquals(List.of("NOT_ASKING"), f.seen);
    assertEquals(TaskState.QUEUED, e.state().state(f.tasks.get(0)), "never taken: still queued");
    assertEquals(3, e.job(1).pending());
  }

  @Test
  void aMapTooLargeForTheNodeSitsOutItsJobAndAnotherJobRuns() {
    DecisionEngine e = engine();
    e.submitJob(2, "v", List.of(List.of("a")));
    Script f = new Script(MapService.Refusal.TOO_LARGE);
    Decision d = MapService.serve(e, 0, "a", f, 10);
    assertNotNull(d);
    assertEquals(List.of("TOO_LARGE", "allocate"), f.seen);
    assertEquals(1, e.state().job(f.tasks.get(0)).id(), "job 1's map did not fit");
    assertEquals(2, d.jobId(), "its job sat out the slot: job 2 ran");
    assertTrue(e.state().queued(f.tasks.get(0)), "job 1's task stays queued");
    assertEquals(0, e.policy().queueHostOf(f.tasks.get(0)), "where it was");
  }

  @Test
  void aStarvingJobRefusedOnTheNodeSitsOutTheSlotAndAnotherJobRuns() {
    DecisionEngine e = new DecisionEngine(EngineConfig.defaults().withPolicy("jsq-maxweight").withStarvation(1));
    e.addHost("a", "/r", 1);
    e.addHost("b", "/r", 1);
    e.submitJob(1, "u", List.of(List.of("c"))); // no replica the engine knows: the common queue
    e.submitJob(2, "v", List.of(List.of("a"), List.of("a"), List.of("a"), List.of("a"), List.of("a")));
    for (int i = 0; i < 2; i++) { // two decisions: a round of the two hosts' slots
      Decision d = e.onSlotFree(0);
      assertEquals(2, d.jobId(), "a's local queue outweighs the common queue");
      e.taskFinished(d.task());
    }
    List<String> refused = new ArrayList<>();
    Script f = new Script() {
      @Override
      public MapService.Refusal before(Decision d) {
        if (d.jobId() == 1) {
          refused.add(d.reason());
          return MapService.Refusal.BLACKLISTED; // a is blacklisted for job 1, every time
        }
        return null;
      }
    };
    Decision d = MapService.serve(e, 0, "a", f, 10);
    assertEquals(1, refused.size(), "job 1 was proposed once: " + refused);
    assertTrue(refused.get(0).startsWith("starvation guard"), refused.get(0));
    assertNotNull(d, "the slot is not lost to the starving job");
    assertEquals(2, d.jobId());
  }

  @Test
  void aBlacklistedNodeRoutesTheTaskElsewhereAndItsJobSitsOutTheSlot() {
    DecisionEngine e = engine();
    Script f = new Script(MapService.Refusal.BLACKLISTED);
    assertNull(MapService.serve(e, 0, "a", f, 10), "its one job sits out: nothing runs");
    assertEquals(List.of("BLACKLISTED"), f.seen);
    int refused = f.tasks.get(0);
    assertTrue(e.state().queued(refused) && e.policy().queueHostOf(refused) != 0,
        "the refused task is queued again, not for a");
  }

  /**
   * A node the AM blacklisted and a task of the common queue: the job sits out the slot after one
   * refusal, and the other job's task runs. Before, the job was asked again; the refused task,
   * routed back to the common queue, was proposed and refused on every try and the slot was lost.
   */
  @Test
  void aCommonQueueTaskRefusedOnABlacklistedNodeCostsOneRefusalAndTheOtherJobRuns() {
    DecisionEngine e = new DecisionEngine(EngineConfig.defaults().withPolicy("jsq-maxweight"));
    e.addHost("a", "/r", 1);
    e.addHost("b", "/r", 1);
    e.submitJob(1, "u", List.of(List.of("c"), List.of("c"))); // no replica the engine knows: the common queue
    e.submitJob(2, "v", List.of(List.of("c")));
    List<Long> refused = new ArrayList<>();
    Script f = new Script() {
      @Override
      public MapService.Refusal before(Decision d) {
        if (d.jobId() == 1) {
          refused.add(d.jobId());
          return MapService.Refusal.BLACKLISTED; // a is blacklisted for job 1
        }
        return null;
      }
    };
    Decision d = MapService.serve(e, 0, "a", f, 256);
    assertEquals(1, refused.size(), "job 1 refused once: " + refused);
    assertNotNull(d, "the slot is not lost");
    assertEquals(2, d.jobId(), "job 2's task runs");
  }

  @Test
  void asksThatForbidTheNodeAndAFullNodeAreReleased() {
    DecisionEngine e = engine();
    Script f = new Script();
    f.allow = false;
    assertNull(MapService.serve(e, 0, "a", f, 10));
    assertEquals(List.of("ASKS_FORBID"), f.seen);
    Script full = new Script();
    full.room = false;
    assertNull(MapService.serve(e, 0, "a", full, 10), "no container: the slot is given up");
    assertEquals(0, e.state().running(0), "the proposal was never committed");
  }

  @Test
  void aReplayedJobsNonLocalContainerIsDeclinedWhileLocalWorkRemainsElsewhere() {
    DecisionEngine e = new DecisionEngine(EngineConfig.defaults().withPolicy("jsq-maxweight"));
    e.addHost("a", "/r", 1);
    e.addHost("b", "/r", 1);
    // The engine knows no replica of these tasks (the common queue: any host may take them); the
    // AM's splits name b.
    e.submitJob(1, "u", List.of(List.of("c"), List.of("c")));
    List<List<String>> splits = List.of(List.of("b"), List.of("b"));
    AmReplay am = new AmReplay(io.dataloc.core.model.TaskHosts.of(splits, e.state()::hostIndex), e.state()::rackOf, -1);
    Cluster c = new Cluster();
    PlanGuard guard = PlanGuard.of(c.problem(), c.plan(), 1);
    List<String> declined = new ArrayList<>();
    MapService.Facts f = new Script() {
      @Override
      public MapService.Replayed replayed(long jobId) {
        return new MapService.Replayed() {
          @Override
          public AmReplay am() {
            return am;
          }

          @Override
          public PlanGuard guard() {
            return guard;
          }

          @Override
          public int mapsOn(String host) {
            return 0;
          }
        };
      }

      @Override
      public void declined(Decision d, PlanGuard.Verdict v, int moved) {
        declined.add(v.name());
      }
    };
    // Host a frees: the engine hands it a task from the common queue; the AM would run it off its data.
    assertNull(MapService.serve(e, 0, "a", f, 10), "declined, and the one job sits out");
    assertEquals(List.of("DECLINE_NON_LOCAL"), declined);
    assertEquals(0, e.state().running(0));
    Decision again = MapService.serve(e, 0, "a", f, 10);
    assertNotNull(again, "delay.node 1: the second offer in a row is taken");
    assertEquals(1, e.state().running(0));
    assertEquals(1, declined.size());
    Decision onB = MapService.serve(e, 1, "b", f, 10);
    assertNotNull(onB, "b runs the other, on its data: no decline");
    assertEquals(1, declined.size());
  }

  /** A one-host problem and plan for a guard (its shape does not matter to the non-local rule). */
  private static final class Cluster {
    final io.dataloc.core.model.Problem p;

    Cluster() {
      io.dataloc.core.model.Cluster c = io.dataloc.core.model.Cluster.builder().host("b", "/r", 1, 0).build();
      io.dataloc.core.model.PlacementGraph.Builder g = io.dataloc.core.model.PlacementGraph.builder(c);
      g.task("t0", 0);
      g.task("t1", 0);
      p = io.dataloc.core.model.Problem.of(c, g.build(), io.dataloc.core.model.CostModel.uniform(1, 3));
    }

    io.dataloc.core.model.Problem problem() {
      return p;
    }

    io.dataloc.core.model.Assignment plan() {
      return io.dataloc.core.model.Assignment.of(p, new int[] {0, 0});
    }
  }
}
