package io.dataloc.core.am;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dataloc.core.model.TaskHosts;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The replay against the MapReduce AM's rule read literally: a container on host h runs the
 * lowest-numbered pending task whose split names h, else one naming a host of h's rack, else the
 * lowest-numbered pending task. Random jobs, random containers, tasks failing back to pending;
 * split hosts that no node has, which the AM resolves to the default rack (a node's rack, or one
 * no node is on). The oracle works on names, the replay on ids.
 */
class AmReplayTest {
  /** The rule, by a scan of every task on every question. */
  private static final class Oracle {
    final List<List<String>> hosts;
    final Function<String, String> rackOf;
    final boolean[] taken;

    Oracle(List<List<String>> hosts, Function<String, String> rackOf) {
      this.hosts = hosts;
      this.rackOf = rackOf;
      this.taken = new boolean[hosts.size()];
    }

    int first(java.util.function.IntPredicate p) {
      for (int t = 0; t < taken.length; t++) {
        if (!taken[t] && p.test(t)) {
          return t;
        }
      }
      return -1;
    }

    int local(String host) {
      return host.equals(STRANGER) ? -1 : first(t -> hosts.get(t).contains(host)); // no container is on a stranger
    }

    int rack(String rack) {
      return first(t -> hosts.get(t).stream().anyMatch(h -> rackOf.apply(h).equals(rack)));
    }

    int kind(String host, String rack) {
      return local(host) >= 0 ? 0 : rack(rack) >= 0 ? 1 : first(t -> true) >= 0 ? 2 : -1;
    }

    int take(String host, String rack) {
      int t = local(host);
      t = t >= 0 ? t : rack(rack);
      t = t >= 0 ? t : first(x -> true);
      if (t >= 0) {
        taken[t] = true;
      }
      return t;
    }

    boolean localElsewhere(String host, java.util.function.Predicate<String> alive) {
      return first(t -> hosts.get(t).stream().anyMatch(h -> !h.equals(host) && alive.test(h))) >= 0;
    }
  }

  private static final String STRANGER = "stranger";

  @Test
  void agreesWithTheRuleReadLiterally() {
    for (long seed = 1; seed <= 200; seed++) {
      SplittableRandom rnd = new SplittableRandom(seed);
      int hostCount = 1 + rnd.nextInt(12);
      int racks = 1 + rnd.nextInt(3);
      List<String> names = new ArrayList<>();
      for (int h = 0; h < hostCount; h++) {
        names.add("h" + h);
      }
      names.add(STRANGER); // a split host no node has: the default rack, a node's or its own
      String strangerRack = rnd.nextBoolean() ? "/nowhere" : "/r0";
      Function<String, String> rackOf = h -> h.equals(STRANGER) ? strangerRack : "/r" + Integer.parseInt(h.substring(1)) % racks;
      java.util.function.ToIntFunction<String> rackId = r -> r.equals("/nowhere") ? -1 : Integer.parseInt(r.substring(2));
      java.util.function.ToIntFunction<String> hostId = h -> h.equals(STRANGER) ? -1 : Integer.parseInt(h.substring(1));
      int tasks = rnd.nextInt(40);
      List<List<String>> hosts = new ArrayList<>();
      for (int t = 0; t < tasks; t++) {
        List<String> split = new ArrayList<>();
        int replicas = rnd.nextInt(4); // 0..3, with repeats, as a hostile split file may hold
        for (int i = 0; i < replicas; i++) {
          split.add(names.get(rnd.nextInt(names.size())));
        }
        hosts.add(split);
      }
      AmReplay replay = new AmReplay(TaskHosts.of(hosts, hostId), h -> rackId.applyAsInt(rackOf.apply("h" + h)),
          rackId.applyAsInt(strangerRack));
      Oracle oracle = new Oracle(hosts, rackOf);
      assertEquals(tasks, replay.tasks());
      List<Integer> taken = new ArrayList<>();
      for (int step = 0; step < 3 * tasks + 5; step++) {
        String host = names.get(rnd.nextInt(names.size()));
        String rack = rackOf.apply(host);
        int h = hostId.applyAsInt(host);
        int r = rackId.applyAsInt(rack);
        String where = "seed " + seed + " step " + step + " on " + host;
        java.util.function.Predicate<String> alive = x -> !x.equals(STRANGER) && Integer.parseInt(x.substring(1)) % 3 != 0;
        assertEquals(oracle.local(host), replay.peekLocal(h), where + ": peekLocal");
        assertEquals(oracle.kind(host, rack), replay.peekKind(h, r), where + ": peekKind");
        assertEquals(oracle.localElsewhere(host, alive), replay.localElsewhere(h, x -> alive.test("h" + x)),
            where + ": localElsewhere");
        int op = rnd.nextInt(10);
        if (op < 7) {
          int t = replay.take(h, r);
          assertEquals(oracle.take(host, rack), t, where + ": take");
          if (t >= 0) {
            taken.add(t);
          }
        } else if (op < 9 && !taken.isEmpty()) {
          int t = taken.remove(rnd.nextInt(taken.size())); // its container failed before it ran
          replay.markPending(t);
          oracle.taken[t] = false;
        } else if (tasks > 0) {
          int t = rnd.nextInt(tasks); // ran elsewhere, or the AM dropped it
          replay.markTaken(t);
          oracle.taken[t] = true;
        }
      }
    }
  }

  @Test
  void outOfRangeTasksAreIgnored() {
    AmReplay replay = new AmReplay(TaskHosts.of(List.of(List.of("a"), List.of("b")), n -> n.charAt(0) - 'a'),
        h -> 0, 0);
    replay.markTaken(-1);
    replay.markTaken(2);
    replay.markPending(7);
    assertEquals(0, replay.take(0, 0));
    assertEquals(1, replay.take(0, 0), "no local task left: the rack's first");
    assertEquals(-1, replay.take(0, 0));
    assertEquals(-1, replay.peekKind(0, 0));
  }
}
