package io.dataloc.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationAccessType;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.security.ApplicationACLsManager;
import org.junit.jupiter.api.Test;

/**
 * One view rule for the scheduler page and the REST wait reports, over YARN's own application ACLs:
 * the owner, the admins and the users an application's view ACL names may view it; a caller the
 * request does not name only while ACLs are off; lists are filtered only when the RM filters its own.
 */
class AppViewAccessTest {
  private static final String ALICES = "application_1_0001";
  private static final String BOBS = "application_1_0002";

  private static AppViewAccess access(boolean acls, boolean filter) {
    Configuration conf = new YarnConfiguration();
    conf.setBoolean(YarnConfiguration.YARN_ACL_ENABLE, acls);
    conf.set(YarnConfiguration.YARN_ADMIN_ACL, "admin");
    conf.setBoolean(YarnConfiguration.FILTER_ENTITY_LIST_BY_USER, filter);
    ApplicationACLsManager manager = new ApplicationACLsManager(conf);
    manager.addApplication(ApplicationId.fromString(ALICES), Map.of(ApplicationAccessType.VIEW_APP, "carol"));
    manager.addApplication(ApplicationId.fromString(BOBS), Map.of());
    return AppViewAccess.of(conf, manager);
  }

  @Test
  void withAclsOnANamedCallerMayViewWhatTheApplicationAclsAllowAndAnUnnamedOneNothing() {
    AppViewAccess a = access(true, false);
    assertTrue(a.mayView("alice", "alice", ALICES), "the owner");
    assertTrue(a.mayView("admin", "alice", ALICES), "an admin");
    assertTrue(a.mayView("carol", "alice", ALICES), "a user the view ACL names");
    assertFalse(a.mayView("bob", "alice", ALICES), "another user");
    assertFalse(a.mayView("carol", "bob", BOBS), "a user another application's ACL names");
    assertFalse(a.mayView(null, "alice", ALICES), "a caller the request does not name");
  }

  @Test
  void withAclsOffEveryCallerMayViewEveryApplication() {
    AppViewAccess a = access(false, true);
    for (String caller : new String[] {"alice", "bob", null}) {
      assertTrue(a.mayView(caller, "alice", ALICES), String.valueOf(caller));
      assertTrue(a.listed(caller, "bob", BOBS), String.valueOf(caller));
    }
  }

  @Test
  void listsAreFilteredOnlyWhenTheResourceManagerFiltersItsOwn() {
    AppViewAccess open = access(true, false);
    assertTrue(open.listed("bob", "alice", ALICES));
    assertTrue(open.listed(null, "alice", ALICES));
    AppViewAccess filtered = access(true, true);
    assertTrue(filtered.listed("alice", "alice", ALICES));
    assertFalse(filtered.listed("bob", "alice", ALICES));
    assertFalse(filtered.listed(null, "alice", ALICES));
  }

  @Test
  void thePageListsWhatTheRuleLists() {
    JobReport alices = new JobReport(ALICES, "alice", "planned", "split-metainfo", "flow", 1, null, 0, 0, 0, 0, 0, 0,
        null, null);
    JobReport bobs = new JobReport(BOBS, "bob", "planned", "split-metainfo", "flow", 1, null, 0, 0, 0, 0, 0, 0, null,
        null);
    List<JobReport> jobs = List.of(alices, bobs);
    assertEquals(jobs, DatalocSchedulerPage.visibleTo(jobs, null, access(true, false)));
    assertEquals(List.of(alices), DatalocSchedulerPage.visibleTo(jobs, "alice", access(true, true)));
    assertEquals(List.of(alices), DatalocSchedulerPage.visibleTo(jobs, "carol", access(true, true)));
    assertEquals(List.of(), DatalocSchedulerPage.visibleTo(jobs, null, access(true, true)));
    assertEquals(jobs, DatalocSchedulerPage.visibleTo(jobs, null, access(false, true)));
  }
}
