package io.dataloc.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.core.am.MapService;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Within one slot, the starvation guard remembers a fruitless look and break-even ranks its lists
 * once; remembering changes no decision. The oracle is the same engine without the memory, driven
 * through the same seeded history: hosts served through the slot service with refusals that
 * exclude job after job, tasks finishing, jobs arriving. Every decision and every refusal must
 * agree, in order.
 */
class SlotMemoryTest {
  private static final String[] POLICIES = {"jsq-maxweight-steal", "break-even", "jsq-maxweight", "break-even"};

  @Test
  void rememberingWithinASlotChangesNoDecision() {
    int starvingPicks = 0;
    int refusals = 0;
    int resumedBreakEven = 0;
    for (long seed = 1; seed <= 80; seed++) {
      String policy = POLICIES[(int) (seed % POLICIES.length)];
      List<String> remembered = run(seed, policy, true);
      List<String> oracle = run(seed, policy, false);
      assertEquals(oracle, remembered, "seed " + seed + ", " + policy);
      starvingPicks += (int) oracle.stream().filter(s -> s.contains("starvation guard")).count();
      refusals += (int) oracle.stream().filter(s -> s.startsWith("refused")).count();
      if (policy.equals("break-even")) {
        // A policy's pick right after a refusal (of its slot, mostly) is one the ranking answered.
        for (int i = 1; i < oracle.size(); i++) {
          if (oracle.get(i - 1).startsWith("refused") && oracle.get(i).startsWith("ran")
              && !oracle.get(i).contains("starvation guard")) {
            resumedBreakEven++;
          }
        }
      }
    }
    assertTrue(starvingPicks > 50, "the guard picked: " + starvingPicks);
    assertTrue(refusals > 500, "slots were refused by job after job: " + refusals);
    assertTrue(resumedBreakEven > 100, "break-even picked after a refusal: " + resumedBreakEven);
  }

  /** One seeded history; what happened, in order. */
  private static List<String> run(long seed, String policy, boolean remember) {
    SplittableRandom rnd = new SplittableRandom(seed);
    DecisionEngine e = new DecisionEngine(EngineConfig.resourceManager("none").withPolicy(policy));
    if (!remember) {
      e.forgetLooks();
    }
    int hosts = 4 + rnd.nextInt(6);
    for (int h = 0; h < hosts; h++) {
      e.addHost("h" + h, "/r" + (h % 2), 1 + rnd.nextInt(2));
    }
    List<String> log = new ArrayList<>();
    List<Integer> running = new ArrayList<>();
    long job = 0;
    long now = 0;
    for (int step = 0; step < 400; step++) {
      now += rnd.nextInt(3);
      e.advanceTo(now);
      if (rnd.nextInt(8) == 0 || job < 3) {
        List<List<String>> replicas = new ArrayList<>();
        for (int t = 0, n = 1 + rnd.nextInt(6); t < n; t++) {
          replicas.add(List.of("h" + rnd.nextInt(hosts), "h" + rnd.nextInt(hosts)));
        }
        e.submitJob(++job, "u" + (job % 3), replicas);
      }
      if (!running.isEmpty() && rnd.nextInt(3) == 0) {
        e.taskFinished(running.remove(rnd.nextInt(running.size())));
      }
      int h = rnd.nextInt(hosts);
      // A job refuses on this slot when its id and the step say so: the same in both runs.
      int salt = rnd.nextInt(1_000_000);
      Decision d = MapService.serve(e, h, "h" + h, new MapService.Facts() {
        @Override
        public MapService.Replayed replayed(long jobId) {
          return null;
        }

        @Override
        public MapService.Refusal before(Decision x) {
          if (Long.hashCode(x.jobId() * 1_000_003L + salt) % 3 != 0) {
            return null;
          }
          log.add("refused " + x.jobId() + "/" + x.task() + " on " + x.host());
          return MapService.Refusal.NOT_ASKING;
        }

        @Override
        public boolean allowed(Decision x) {
          return true;
        }

        @Override
        public boolean allocate(Decision x) {
          return true;
        }
      }, 256);
      if (d != null) {
        running.add(d.task());
        log.add("ran " + d.jobId() + "/" + d.task() + " on " + d.host() + ": " + d.reason());
      }
    }
    return log;
  }
}
