package io.dataloc.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Test;

/**
 * The chain search against an independent oracle (a plain breadth-first search over hosts that
 * keeps whole paths in maps, no stamps, no shared scratch), over seeded random graphs: every chain
 * returned is valid (each move data-local, each next task sitting on the previous move's host,
 * distinct hosts, ending at an accepted host, starting where asked), as short as the oracle's, and
 * found exactly when the oracle finds one; one instance reused for many searches never leaks a
 * stamp from one to the next.
 */
class LocalChainsTest {
  /** A random graph: tasks on hosts, each local on 1–3 hosts, some hosts unusable. */
  private record Instance(int hosts, List<List<Integer>> on, int[][] local, boolean[] usable)
      implements LocalChains.Graph {
    @Override
    public int hosts() {
      return hosts;
    }

    @Override
    public void forEachOn(int host, IntPredicate visit) {
      for (int t : on.get(host)) {
        if (!visit.test(t)) {
          return;
        }
      }
    }

    @Override
    public int localCount(int task) {
      return local[task].length;
    }

    @Override
    public int localHost(int task, int i) {
      return local[task][i];
    }

    @Override
    public boolean usable(int host) {
      return usable[host];
    }

    int hostOf(int task) {
      for (int h = 0; h < hosts; h++) {
        if (on.get(h).contains(task)) {
          return h;
        }
      }
      return -1;
    }
  }

  private static Instance random(SplittableRandom rnd) {
    int hosts = 2 + rnd.nextInt(9);
    int tasks = 1 + rnd.nextInt(25);
    List<List<Integer>> on = new ArrayList<>();
    for (int h = 0; h < hosts; h++) {
      on.add(new ArrayList<>());
    }
    int[][] local = new int[tasks][];
    for (int t = 0; t < tasks; t++) {
      on.get(rnd.nextInt(hosts)).add(t);
      Set<Integer> reps = new HashSet<>();
      int r = 1 + rnd.nextInt(3);
      while (reps.size() < Math.min(r, hosts)) {
        reps.add(rnd.nextInt(hosts));
      }
      local[t] = reps.stream().mapToInt(Integer::intValue).sorted().toArray();
    }
    boolean[] usable = new boolean[hosts];
    for (int h = 0; h < hosts; h++) {
      usable[h] = rnd.nextInt(8) != 0;
    }
    return new Instance(hosts, on, local, usable);
  }

  /** The oracle: the fewest moves from the start to an accepted host, or -1; hosts entered once, as the search does. */
  private static int oracleLength(Instance g, int source, int entering, IntPredicate target) {
    Map<Integer, Integer> depth = new HashMap<>();
    List<Integer> layer = new ArrayList<>();
    if (source >= 0) {
      depth.put(source, 0);
      layer.add(source);
    } else {
      for (int y : g.local()[entering]) {
        if (g.usable(y) && !depth.containsKey(y)) {
          depth.put(y, 1);
          if (target.test(y)) {
            return 1;
          }
          layer.add(y);
        }
      }
    }
    while (!layer.isEmpty()) {
      List<Integer> next = new ArrayList<>();
      for (int x : layer) {
        for (int t : g.on().get(x)) {
          for (int y : g.local()[t]) {
            if (g.usable(y) && !depth.containsKey(y)) {
              depth.put(y, depth.get(x) + 1);
              if (target.test(y)) {
                return depth.get(y);
              }
              next.add(y);
            }
          }
        }
      }
      layer = next;
    }
    return -1;
  }

  /** Checks a chain move by move; its moves run from the end host back to the start. */
  private static void assertValid(Instance g, int source, int entering, IntPredicate target,
      List<LocalChains.Move> chain) {
    assertTrue(target.test(chain.get(0).host()), "ends at an accepted host");
    Set<Integer> hosts = new HashSet<>();
    for (int i = 0; i < chain.size(); i++) {
      LocalChains.Move m = chain.get(i);
      assertTrue(g.usable(m.host()), "usable host " + m.host());
      assertTrue(hosts.add(m.host()), "each host entered once");
      boolean local = false;
      for (int y : g.local()[m.task()]) {
        local |= y == m.host();
      }
      assertTrue(local, "task " + m.task() + " is local on " + m.host());
      boolean first = i == chain.size() - 1;
      if (first) {
        if (entering >= 0) {
          assertEquals(entering, m.task(), "the entering task moves first");
        } else {
          assertEquals(source, g.hostOf(m.task()), "the first task leaves the source");
        }
      } else {
        assertEquals(chain.get(i + 1).host(), g.hostOf(m.task()), "each next task sits on the host the last move filled");
      }
    }
  }

  @Test
  void chainsAreValidAndShortestAgainstTheOracle() {
    SplittableRandom rnd = new SplittableRandom(20261124L);
    LocalChains chains = new LocalChains(); // reused: stamps must not leak between searches
    int found = 0;
    int none = 0;
    for (int round = 0; round < 3_000; round++) {
      Instance g = random(rnd);
      boolean fromSource = rnd.nextBoolean();
      int source = fromSource ? rnd.nextInt(g.hosts()) : -1;
      int entering = fromSource ? -1 : rnd.nextInt(g.local().length);
      if (entering >= 0) {
        g.on().get(g.hostOf(entering)).remove((Integer) entering); // it enters: it sits nowhere yet
      }
      Set<Integer> accepted = new HashSet<>();
      for (int h = 0; h < g.hosts(); h++) {
        if (h != source && rnd.nextInt(4) == 0) {
          accepted.add(h);
        }
      }
      IntPredicate target = accepted::contains;
      List<LocalChains.Move> chain = chains.search(g, source, entering, target, Integer.MAX_VALUE);
      int expected = oracleLength(g, source, entering, target);
      String where = "round " + round;
      if (expected < 0) {
        assertNull(chain, where);
        none++;
      } else {
        assertNotNull(chain, where);
        assertValid(g, source, entering, target, chain);
        assertEquals(expected, chain.size(), where + ": as short as the oracle's");
        assertEquals(chain, chains.search(g, source, entering, target, Integer.MAX_VALUE), "deterministic");
        found++;
      }
    }
    assertTrue(found > 500 && none > 200, "both outcomes exercised: " + found + " found, " + none + " none");
  }

  @Test
  void visitLimitStopsTheSearch() {
    // A path 0 → 1 → 2 → 3 through one task per host: the entering task is local on 0 only.
    Instance g = new Instance(4, List.of(List.of(1), List.of(2), List.of(3), List.of()),
        new int[][] {{0}, {1}, {2}, {3}}, new boolean[] {true, true, true, true});
    LocalChains chains = new LocalChains();
    assertEquals(4, chains.search(g, -1, 0, h -> h == 3, Integer.MAX_VALUE).size());
    assertNull(chains.search(g, -1, 0, h -> h == 3, 2), "gives up after two visited tasks");
    g.usable()[2] = false;
    assertNull(chains.search(g, -1, 0, h -> h == 3, Integer.MAX_VALUE), "an unusable host breaks the path");
  }

  @Test
  void exactlyOneStart() {
    Instance g = new Instance(1, List.of(List.of(0)), new int[][] {{0}}, new boolean[] {true});
    assertThrows(IllegalArgumentException.class, () -> new LocalChains().search(g, 0, 0, h -> true, 10));
    assertThrows(IllegalArgumentException.class, () -> new LocalChains().search(g, -1, -1, h -> true, 10));
  }
}
