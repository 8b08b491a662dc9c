package io.dataloc.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.core.workload.Scenarios;
import io.dataloc.yarn.LocalityScheduler;
import io.dataloc.yarn.WaitReport;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Listing every application's wait report (the scheduler page, the REST list) holds the lock once
 * to list the applications and once per application, never for all their reports at once (each
 * reads its job's pending tasks); the caller's view rule is asked first, so no report is made for
 * an application the caller may not see.
 */
class WaitReportsHoldTest {
  @TempDir Path dir;

  @Test
  void theListTakesTheLockOncePerApplication() throws Exception {
    try (MiniMr c = MiniMr.start(LocalityScheduler.class, Map.of(), Scenarios.twoRacks(2), 4096, dir)) {
      for (String user : List.of("alice", "bob", "carol")) {
        RMApp app = c.submit(user, Collections.nCopies(4, List.of("h1")));
        assertTrue(app != null);
      }
      LocalityScheduler s = (LocalityScheduler) c.rm.getResourceScheduler();
      s.reports().resetLockHolds();
      List<WaitReport> all = s.waitReports().all();
      assertEquals(3, all.size());
      Matcher m = Pattern.compile("report: waits: ([0-9,]+) holds").matcher(s.reports().lockHolds());
      assertTrue(m.find(), s.reports().lockHolds());
      assertEquals(1 + 3, Integer.parseInt(m.group(1).replace(",", "")), "one hold to list, one per report");
      // A caller's view rule is asked before a report is made: one report, two holds.
      s.reports().resetLockHolds();
      List<WaitReport> bobs = s.waitReports().all((user, application) -> user.equals("bob"));
      assertEquals(List.of("bob"), bobs.stream().map(WaitReport::user).toList());
      m = Pattern.compile("report: waits: ([0-9,]+) holds").matcher(s.reports().lockHolds());
      assertTrue(m.find(), s.reports().lockHolds());
      assertEquals(1 + 1, Integer.parseInt(m.group(1).replace(",", "")), "no report made for the others");
      assertEquals("carol", s.waitReports().userOf(ApplicationId.fromString(all.get(2).application())));
    }
  }
}
