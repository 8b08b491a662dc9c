package io.dataloc.it.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A followed job's lines: only followed jobs, a wait only when it changes, and a bound on the lines. */
class FollowTest {
  @Test
  void onlyFollowedJobsAndOnlyChangedWaitsAreRecorded() {
    Follow f = new Follow(Set.of("job1"));
    f.at(1, "job2", () -> "AM on h1");
    f.at(1, "job1", () -> "AM on h2");
    f.waiting(2, "job1", "queued at h3");
    f.waiting(3, "job1", "queued at h3");
    f.waiting(4, "job1", "queued at h4");
    f.waiting(5, "job2", "queued at h4");
    assertEquals(List.of("      1.0 job1 AM on h2", "      2.0 job1 waits: queued at h3",
        "      4.0 job1 waits: queued at h4"), f.lines());
    assertTrue(Follow.none().lines().isEmpty());
  }

  @Test
  void pastTheBoundOneLineSaysHowManyWereLeftOut() {
    Follow f = new Follow(Set.of("job1"));
    for (int i = 0; i < Follow.MAX_LINES + 7; i++) {
      f.at(i, "job1", () -> "task ended");
    }
    List<String> lines = f.lines();
    assertEquals(Follow.MAX_LINES + 1, lines.size());
    assertEquals("… 7 more lines left out (at most " + Follow.MAX_LINES + " are kept)", lines.get(lines.size() - 1));
  }
}
