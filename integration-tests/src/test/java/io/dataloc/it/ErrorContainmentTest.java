package io.dataloc.it;

import io.dataloc.core.workload.Scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.yarn.FaultInjector;
import io.dataloc.yarn.LocalityScheduler;
import io.dataloc.yarn.JobReport;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An error inside Dataloc costs the one application it came from, and the scheduler recovers from
 * one it cannot blame on anybody: errors are injected (as Hadoop's fault injectors do) where the
 * scheduler works for one application, against a real ResourceManager (MockRM).
 */
class ErrorContainmentTest {
  @TempDir Path dir;

  private static final List<List<String>> ALICE = Scenarios.spread(16, 4, 2, 5);
  private static final List<List<String>> BOB = Scenarios.spread(16, 4, 2, 6);

  private static LocalityScheduler scheduler(MiniMr c) {
    return (LocalityScheduler) c.rm.getResourceScheduler();
  }

  private static JobReport report(LocalityScheduler s, RMApp app) {
    return s.reports().jobs().stream().filter(r -> r.application().equals(app.getApplicationId().toString())).findFirst()
        .orElseThrow();
  }

  private static void awaitPlans(LocalityScheduler s) throws InterruptedException {
    for (int i = 0; i < 500 && s.reports().jobs().stream().anyMatch(r -> List.of("reading", "planning").contains(r.phase()));
        i++) {
      Thread.sleep(20);
    }
  }

  /** Alice's and Bob's planned jobs, their AMs running. */
  private record Pair(RMApp alice, MrJob a, RMApp bob, MrJob b) {}

  private static Pair aliceAndBob(MiniMr c) throws Exception {
    RMApp alice = c.submit("alice", ALICE);
    MrJob a = c.launch(alice, "h1", ALICE);
    RMApp bob = c.submit("bob", BOB);
    MrJob b = c.launch(bob, "h2", BOB);
    awaitPlans(scheduler(c));
    return new Pair(alice, a, bob, b);
  }

  /** Throws at {@code site} for {@code app}, {@code times} times. */
  private static FaultInjector failing(String site, ApplicationId app, int times, AtomicInteger thrown) {
    return (at, id) -> {
      if (at.equals(site) && app.equals(id) && thrown.get() < times) {
        thrown.incrementAndGet();
        throw new IllegalStateException("injected at " + at + " for " + id);
      }
    };
  }

  /**
   * An error while serving bob's planned maps takes bob out of the engine (served from his asks, he
   * still finishes); alice's plan is untouched, she stays data-local, nothing is degraded.
   */
  @Test
  void anErrorCostsOnlyTheApplicationItCameFrom() throws Exception {
    try (MiniMr c = MiniMr.start(LocalityScheduler.class, Map.of(), Scenarios.twoRacks(4), 8192, dir)) {
      LocalityScheduler s = scheduler(c);
      Pair p = aliceAndBob(c);
      assertEquals("planned", report(s, p.bob()).phase());
      AtomicInteger thrown = new AtomicInteger();
      s.setFaultInjector(failing(FaultInjector.ASSIGN_MAP, p.bob().getApplicationId(), 1, thrown));
      assertTrue(Rounds.runAll(c, List.of(p.a(), p.b()), 300) > 0, p.a().describe() + " / " + p.b().describe());
      assertEquals(1, thrown.get(), "the fault fired");
      assertEquals(1, s.datalocMetrics().errors());
      assertEquals(1, s.datalocMetrics().appsContained());
      assertFalse(s.isDegraded(), "one application's error does not degrade the scheduler");
      assertEquals("contained", report(s, p.bob()).phase());
      assertTrue(report(s, p.bob()).note().contains("Dataloc error"), report(s, p.bob()).note());
      assertEquals("planned", report(s, p.alice()).phase());
      assertEquals(ALICE.size(), p.a().dataLocal(), "alice keeps her data-local plan: " + p.a().describe());
    }
  }

  /**
   * Out of memory on a Hadoop thread (here while serving a map, inside the heartbeat's work) is not
   * swallowed: it reaches YARN, whose dispatcher ends the ResourceManager and lets the standby take
   * over, since YARN's own bookkeeping may be half done. Before, it was handled as any error and the
   * RM ran on, possibly over-committed. Out of memory in Dataloc's own placement read costs only
   * that job: it is served from its asks.
   */
  @Test
  void outOfMemoryReachesYarnButInAPlacementReadCostsOnlyItsJob() throws Exception {
    try (MiniMr c = MiniMr.start(LocalityScheduler.class, Map.of(), Scenarios.twoRacks(4), 8192, dir)) {
      LocalityScheduler s = scheduler(c);
      s.setFaultInjector((at, id) -> {
        if (at.equals(FaultInjector.READ)) {
          throw new OutOfMemoryError("injected in a placement read");
        }
      });
      RMApp read = c.submit("carol", ALICE);
      awaitPlans(s);
      assertEquals("online", report(s, read).phase(), report(s, read).note());
      assertEquals(0, s.datalocMetrics().errors());
      Pair p = aliceAndBob(c);
      s.setFaultInjector((at, id) -> {
        if (at.equals(FaultInjector.ASSIGN_MAP) || at.equals(FaultInjector.ASSIGN_OTHER)) {
          throw new OutOfMemoryError("injected while serving " + id);
        }
      });
      p.a().heartbeat();
      p.b().heartbeat();
      var node = c.rm.getRMContext().getRMNodes().get(c.nodes.get("h1").getNodeId());
      org.junit.jupiter.api.Assertions.assertThrows(OutOfMemoryError.class, () -> s.handle(
          new org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeUpdateSchedulerEvent(node)));
    }
  }

  /**
   * A second error in the same application kills it, with a diagnostic its user sees that says
   * what happened but carries no exception text (before: its {@code toString}); alice runs on.
   */
  @Test
  void aSecondErrorKillsTheApplication() throws Exception {
    try (MiniMr c = MiniMr.start(LocalityScheduler.class, Map.of(), Scenarios.twoRacks(4), 8192, dir)) {
      LocalityScheduler s = scheduler(c);
      Pair p = aliceAndBob(c);
      AtomicInteger thrown = new AtomicInteger();
      FaultInjector map = failing(FaultInjector.ASSIGN_MAP, p.bob().getApplicationId(), 1, thrown);
      FaultInjector other = failing(FaultInjector.ASSIGN_OTHER, p.bob().getApplicationId(), Integer.MAX_VALUE, thrown);
      s.setFaultInjector((site, id) -> {
        map.at(site, id);
        other.at(site, id);
      });
      for (int round = 0; round < 50 && p.bob().getState() == RMAppState.RUNNING; round++) {
        p.b().heartbeat();
        for (var nm : c.nodeList()) {
          nm.nodeHeartbeat(true);
          c.rm.drainEvents();
        }
      }
      c.rm.waitForState(p.bob().getApplicationId(), RMAppState.KILLED);
      String diagnostics = p.bob().getDiagnostics().toString();
      assertTrue(diagnostics.contains("Dataloc"), diagnostics);
      assertFalse(diagnostics.contains("injected") || diagnostics.contains("Exception"),
          "the exception's text stays in the RM's log: " + diagnostics);
      assertEquals(1, s.datalocMetrics().appsKilled());
      assertTrue(Rounds.run(c, p.a(), 300) > 0, "alice is served: " + p.a().describe());
      assertFalse(s.isDegraded());
      assertEquals(ALICE.size(), p.a().dataLocal(), p.a().describe());
    }
  }

  /**
   * An error no application can be blamed for degrades the scheduler to plain locality
   * scheduling; after error.recovery-ms without another error the engine is rebuilt, and a job
   * submitted then is planned again. With error.recovery-ms = 0 only -refreshQueues ends the spell.
   */
  @Test
  void anErrorNobodyCausedEndsAfterAQuietSpell() throws Exception {
    for (String quiet : List.of("300", "0")) {
      try (MiniMr c = MiniMr.start(LocalityScheduler.class, Map.of("yarn.scheduler.dataloc.error.recovery-ms", quiet),
          Scenarios.twoRacks(4), 8192, dir.resolve("q" + quiet))) {
        LocalityScheduler s = scheduler(c);
        AtomicInteger thrown = new AtomicInteger();
        s.setFaultInjector((site, id) -> {
          if (site.equals(FaultInjector.HEARTBEAT) && thrown.getAndIncrement() == 0) {
            throw new IllegalStateException("injected");
          }
        });
        c.nodes.get("h1").nodeHeartbeat(true);
        c.rm.drainEvents();
        assertTrue(s.isDegraded(), quiet);
        RMApp during = c.submit("carol", ALICE);
        MrJob d = c.launch(during, "h1", ALICE);
        assertTrue(Rounds.run(c, d, 300) > 0, "served while degraded: " + d.describe());
        Thread.sleep(400);
        c.nodes.get("h1").nodeHeartbeat(true);
        c.rm.drainEvents();
        if (quiet.equals("0")) {
          assertTrue(s.isDegraded(), "no recovery by itself");
          continue;
        }
        assertFalse(s.isDegraded(), "recovered after " + quiet + " ms");
        assertEquals(1, s.datalocMetrics().recoveries());
        RMApp after = c.submit("dave", BOB);
        awaitPlans(s);
        assertEquals("planned", report(s, after).phase());
        MrJob e = c.launch(after, "h2", BOB);
        assertTrue(Rounds.run(c, e, 300) > 0, e.describe());
        assertEquals(BOB.size(), e.dataLocal(), e.describe());
      }
    }
  }
}
