package io.dataloc.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link EngineState#demand}, kept as tasks change state, against an oracle that scans every task:
 * the live (queued or running) tasks with a replica on the host, each counted once per host; and
 * {@link EngineState#readsOut}: the running tasks away from their data with a replica on the host. Seeded
 * random sequences of every call that moves a task: submit, start, finish, fail, refuse, take back,
 * drop, remove a job, drain, lose and revive a host.
 */
class HostDemandTest {

  @Test
  void demandIsTheLiveTasksWithAReplicaOnTheHost() {
    for (long seed = 1; seed <= 200; seed++) {
      run(seed);
    }
  }

  /** A plan is priced with the reads the data hosts' links carry now: a map running away from h0's block counts there. */
  @Test
  void aPlanSeesTheReadsItsDataHostsLinksCarry() {
    DecisionEngine e = new DecisionEngine(EngineConfig.defaults().withPlanner("none"));
    e.addHost("h0", "/r0", 1);
    e.addHost("h1", "/r1", 2);
    e.addHost("h2", "/r1", 1);
    e.submitJob(1, "u", List.of(List.of("h0", "h2")));
    assertEquals(true, e.startedOutside(e.task(1, 0), 1)); // off its data, on h1
    io.dataloc.core.model.Cluster c = e.planHosts(h -> 1).input(List.of(List.of("h0"))).problem().cluster();
    assertEquals(1, c.readsOut(c.hostIndex("h0")));
    assertEquals(0, c.readsOut(c.hostIndex("h1")));
    assertEquals(1, c.readsOut(c.hostIndex("h2")));
    e.taskFinished(e.task(1, 0));
    c = e.planHosts(h -> 1).input(List.of(List.of("h0"))).problem().cluster();
    assertEquals(0, c.readsOut(c.hostIndex("h0")));
  }

  private static void run(long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    DecisionEngine e = new DecisionEngine(EngineConfig.defaults().withPlanner("none").withSeed(seed));
    int hosts = 2 + rnd.nextInt(6);
    for (int h = 0; h < hosts; h++) {
      e.addHost("h" + h, "/r" + (h % 2), 1 + rnd.nextInt(3));
    }
    EngineState s = e.state();
    List<Decision> running = new ArrayList<>();
    int jobs = 0;
    for (int step = 0; step < 300; step++) {
      int op = rnd.nextInt(12);
      if (op <= 1 && jobs < 10) {
        List<List<String>> tasks = new ArrayList<>();
        for (int t = 0, m = 1 + rnd.nextInt(10); t < m; t++) {
          // Two replicas, sometimes on one host, sometimes on a host the engine does not know.
          tasks.add(List.of("h" + rnd.nextInt(hosts), "h" + rnd.nextInt(hosts + 1)));
        }
        e.submitJob(jobs++, "u", tasks);
      } else if (op == 2 && !running.isEmpty()) {
        e.taskFinished(running.remove(rnd.nextInt(running.size())).task());
      } else if (op == 3 && !running.isEmpty()) {
        e.taskFailed(running.remove(rnd.nextInt(running.size())).task());
      } else if (op == 4) {
        Decision d = e.propose(rnd.nextInt(hosts), java.util.Set.of());
        if (d != null) {
          e.refuse(d); // routed away from the host
        }
      } else if (op == 5) {
        e.propose(rnd.nextInt(hosts), java.util.Set.of()); // a proposal not carried out changes nothing
      } else if (op == 6 && s.taskCount() > 0) {
        e.dropPending(rnd.nextInt(s.taskCount()));
      } else if (op == 7 && jobs > 0 && rnd.nextInt(4) == 0) {
        long j = rnd.nextInt(jobs);
        running.removeIf(d -> d.jobId() == j);
        e.removeJob(j);
      } else if (op == 8 && rnd.nextInt(6) == 0) {
        int h = rnd.nextInt(hosts);
        switch (rnd.nextInt(3)) {
          case 0 -> e.drainHost(h);
          case 1 -> {
            running.removeIf(d -> d.host() == h);
            e.removeHost(h);
          }
          default -> e.addHost("h" + h, "/r" + (h % 2), 1 + rnd.nextInt(3));
        }
      } else {
        int h = rnd.nextInt(hosts);
        if (s.alive(h) && s.running(h) < s.slots(h)) {
          Decision d = e.onSlotFree(h);
          if (d != null) {
            running.add(d);
          }
        }
      }
      e.advanceTo(step + 1);
      for (int h = 0; h < hosts; h++) {
        assertEquals(oracle(s, h), s.demand(h), "seed " + seed + ", step " + step + ", host h" + h);
        assertEquals(readsOracle(s, h), s.readsOut(h), "reads out, seed " + seed + ", step " + step + ", host h" + h);
      }
    }
  }

  /** Running tasks away from their data with a replica on h. */
  private static int readsOracle(EngineState s, int h) {
    int n = 0;
    for (int t = 0; t < s.taskCount(); t++) {
      if (s.state(t) == TaskState.RUNNING && !s.isLocal(t, s.hostOf(t)) && s.isLocal(t, h)) {
        n++;
      }
    }
    return n;
  }

  private static int oracle(EngineState s, int h) {
    int n = 0;
    for (int t = 0; t < s.taskCount(); t++) {
      TaskState st = s.state(t);
      if ((st == TaskState.QUEUED || st == TaskState.RUNNING) && s.isLocal(t, h)) {
        n++;
      }
    }
    return n;
  }
}
