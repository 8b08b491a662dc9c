package io.dataloc.core.am;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.dataloc.core.am.WaitLog.Cause;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The wait log against an oracle that keeps the whole history and derives the view from it: a node
 * is forgotten once {@code nodes} other nodes were refused after it (and starts afresh if refused
 * again); per (node, cause) kept, the count, the first and last time and the latest task and
 * planned node; the job's wait from its first refusal after its last container.
 */
class WaitLogTest {
  /** A refusal, or a container served (node null). */
  private static final class Event {
    final long at;
    final String node;
    final Cause cause;
    final int task;
    final String planned;

    Event(long at, String node, Cause cause, int task, String planned) {
      this.at = at;
      this.node = node;
      this.cause = cause;
      this.task = task;
      this.planned = planned;
    }
  }

  @Test
  void matchesTheWholeHistoryOracle() {
    for (long seed = 1; seed <= 500; seed++) {
      Random rnd = new Random(seed);
      int keep = 1 + rnd.nextInt(5);
      WaitLog log = new WaitLog(keep);
      List<Event> history = new ArrayList<>();
      long now = 0;
      for (int i = 0, n = rnd.nextInt(80); i < n; i++) {
        now += rnd.nextInt(3);
        Event e = rnd.nextInt(10) == 0 ? new Event(now, null, null, -1, null)
            : new Event(now, "h" + rnd.nextInt(8), Cause.values()[rnd.nextInt(Cause.values().length)],
                rnd.nextInt(5) - 1, rnd.nextBoolean() ? null : "h" + rnd.nextInt(8));
        history.add(e);
        if (e.node == null) {
          log.served(e.at);
        } else {
          log.refused(e.at, e.node, e.cause, e.task, e.planned);
        }
      }
      assertEquals(oracle(history, keep), render(log.entries()), "seed " + seed);
      assertEquals(history.stream().filter(e -> e.node != null).count(), log.refusals(), "seed " + seed);
      long since = -1;
      for (Event e : history) {
        since = e.node == null ? -1 : since < 0 ? e.at : since;
      }
      assertEquals(since < 0 ? 0 : now + 5 - since, log.waitedMillis(now + 5), "seed " + seed);
    }
  }

  @Test
  void repeatsOfOneCauseOnOneNodeAreOneEntry() {
    WaitLog log = new WaitLog(4);
    for (long t = 100; t < 1100; t += 5) {
      log.refused(t, "h1", Cause.NOT_PLANNED_HERE, -1, null);
    }
    log.refused(1200, "h1", Cause.DECLINE_NON_LOCAL, 7, "h2");
    List<WaitLog.Entry> e = log.entries();
    assertEquals(2, e.size());
    assertEquals(Cause.DECLINE_NON_LOCAL, e.get(0).cause());
    assertEquals("h2", e.get(0).planned());
    assertEquals(7, e.get(0).task());
    assertEquals(200, e.get(1).count());
    assertEquals(100, e.get(1).first());
    assertEquals(1095, e.get(1).last());
    assertEquals(1100, log.waitedMillis(1200));
    log.served(1300);
    assertEquals(0, log.waitedMillis(1400));
    assertEquals(2, log.entries().size(), "the entries stay as history");
  }

  @Test
  void rejectsAnEmptyBound() {
    assertThrows(IllegalArgumentException.class, () -> new WaitLog(0));
  }

  /** The view, derived from the whole history. */
  private static List<String> oracle(List<Event> history, int keep) {
    List<Event> refusals = new ArrayList<>();
    for (Event e : history) {
      if (e.node != null) {
        refusals.add(e);
      }
    }
    // A node's entries start at its refusal that follows `keep` other distinct nodes since its previous one.
    List<Event> kept = new ArrayList<>();
    Set<String> done = new HashSet<>();
    for (int i = refusals.size() - 1; i >= 0; i--) {
      String node = refusals.get(i).node;
      if (done.contains(node)) {
        continue;
      }
      done.add(node);
      if (distinctSince(refusals, i + 1, refusals.size(), node) >= keep) {
        continue; // forgotten: `keep` other nodes came after its latest refusal
      }
      int start = i;
      for (int j = i - 1; j >= 0; j--) {
        if (refusals.get(j).node.equals(node)) {
          if (distinctSince(refusals, j + 1, start, node) >= keep) {
            break;
          }
          start = j;
        }
      }
      for (int j = start; j <= i; j++) {
        if (refusals.get(j).node.equals(node)) {
          kept.add(refusals.get(j));
        }
      }
    }
    List<String> rows = new ArrayList<>();
    for (String node : done) {
      for (Cause c : Cause.values()) {
        long count = 0;
        long first = 0;
        long last = 0;
        Event latest = null;
        for (Event e : kept) {
          if (e.node.equals(node) && e.cause == c) {
            first = count == 0 ? e.at : first;
            last = Math.max(last, e.at);
            latest = e;
            count++;
          }
        }
        if (latest != null) {
          rows.add(row(node, c, first, last, count, latest.task, latest.planned));
        }
      }
    }
    List<String> sorted = new ArrayList<>(rows);
    sorted.sort((a, b) -> {
      int byLast = Long.compare(lastOf(b), lastOf(a));
      return byLast != 0 ? byLast : a.compareTo(b);
    });
    return sorted;
  }

  private static int distinctSince(List<Event> refusals, int from, int to, String except) {
    Set<String> others = new HashSet<>();
    for (int k = from; k < to; k++) {
      if (!refusals.get(k).node.equals(except)) {
        others.add(refusals.get(k).node);
      }
    }
    return others.size();
  }

  private static long lastOf(String row) {
    return Long.parseLong(row.substring(0, row.indexOf(' ')));
  }

  private static String row(String node, Cause c, long first, long last, long count, int task, String planned) {
    return String.format("%08d %s %02d %d %d %d %s", last, node, c.ordinal(), first, count, task, planned);
  }

  private static List<String> render(List<WaitLog.Entry> entries) {
    List<String> out = new ArrayList<>();
    for (WaitLog.Entry e : entries) {
      out.add(row(e.node(), e.cause(), e.first(), e.last(), e.count(), e.task(), e.planned()));
    }
    return out;
  }
}
