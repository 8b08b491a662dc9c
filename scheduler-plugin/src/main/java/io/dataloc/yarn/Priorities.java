package io.dataloc.yarn;

import java.util.Map;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.thirdparty.com.google.common.util.concurrent.SettableFuture;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.apache.hadoop.yarn.server.resourcemanager.recovery.records.ApplicationStateData;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplication;
import org.apache.hadoop.yarn.server.resourcemanager.security.AppPriorityACLsManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Application priorities as the CapacityScheduler keeps them: the priority an application gets at
 * submission (its user's default from {@code acl.application-max-priority}, capped at the
 * cluster's maximum, refused above the user's maximum with {@code yarn.acl.enable}) and changes of
 * a running application's priority, serialised from the state-store write to the scheduler's
 * state (lock order: {@code changes}, then the scheduler's monitor).
 */
final class Priorities {
  private static final Logger LOG = LoggerFactory.getLogger(LocalityScheduler.class);

  private final SchedulerContext ctx;
  private final OtherWork otherWork;
  private final Supplier<Map<ApplicationId, SchedulerApplication<DatalocAppAttempt>>> applications;
  private final Supplier<Priority> clusterMax;
  /** Serialises application priority changes (taken before the scheduler's lock, never inside it). */
  private final Object changes = new Object();
  /** Who may give an application which priority ({@code acl.application-max-priority}). */
  private volatile AppPriorityACLsManager acls;

  Priorities(SchedulerContext ctx, OtherWork otherWork,
      Supplier<Map<ApplicationId, SchedulerApplication<DatalocAppAttempt>>> applications,
      Supplier<Priority> clusterMax) {
    this.ctx = ctx;
    this.otherWork = otherWork;
    this.applications = applications;
    this.clusterMax = clusterMax;
  }

  /**
   * The priority ACLs of {@code acl.application-max-priority}, for Dataloc's one queue (at start and
   * refresh); whether ACLs are enforced at all is {@code yarn.acl.enable} of the ResourceManager's
   * configuration at start ({@code aclEnabled}), as for the submit ACL: a refresh's yarn-site.xml
   * does not switch one without the other.
   */
  void configure(Configuration conf, Settings s, boolean aclEnabled) {
    Configuration c = new Configuration(conf);
    c.setBoolean(YarnConfiguration.YARN_ACL_ENABLE, aclEnabled);
    var m = new AppPriorityACLsManager(c);
    int max = conf.getInt(YarnConfiguration.MAX_CLUSTER_LEVEL_APPLICATION_PRIORITY,
        YarnConfiguration.DEFAULT_CLUSTER_LEVEL_APPLICATION_PRIORITY);
    m.addPrioirityACLs(PriorityAcl.groups(s.aclMaxPriority(), max), DatalocQueue.NAME);
    acls = m;
  }

  /**
   * As the CapacityScheduler: an application without a priority gets its user's default priority
   * from {@code acl.application-max-priority}, else 0 (Dataloc's one queue has no default priority
   * of its own); none gets more than {@code yarn.cluster.max-application-priority} (default 0, so by
   * default every application has priority 0, as under the stock schedulers) and none less than
   * 0, the lowest: a negative priority, which the RM passes through, is raised to 0; with
   * {@code yarn.acl.enable}, a priority above the user's maximum is refused with an
   * {@code AccessControlException}, at submission and on a change.
   */
  Priority check(Priority requested, UserGroupInformation user, ApplicationId applicationId) throws YarnException {
    var a = acls;
    Priority p = requested;
    if (p == null) {
      p = user == null ? null : a.getDefaultPriority(DatalocQueue.NAME, user);
      if (p == null) {
        p = Priority.newInstance(0);
      }
    }
    int max = clusterMax.get().getPriority();
    if (p.getPriority() > max) {
      p = Priority.newInstance(max);
    }
    if (p.getPriority() < 0) {
      LOG.info("Dataloc: priority {} asked for {} raised to 0, the lowest application priority",
          p.getPriority(), applicationId);
      p = Priority.newInstance(0);
    }
    if (user != null && !a.checkAccess(user, DatalocQueue.NAME, p)) {
      throw new YarnException(new AccessControlException("User " + user.getShortUserName()
          + " does not have permission to submit/update " + applicationId + " for " + p + " ("
          + DatalocKeys.ACL_MAX_PRIORITY.fullName() + ")"));
    }
    return Priority.newInstance(p.getPriority());
  }

  /**
   * Changes a running application's priority as the CapacityScheduler does: capped, saved in the
   * state store, then used at once — its maps are served before those of lower priority in every
   * queue of the engine, and its other requests (AM, reduces) before theirs.
   */
  Priority update(Priority newPriority, ApplicationId applicationId, SettableFuture<Object> future,
      UserGroupInformation user) throws YarnException {
    SchedulerApplication<DatalocAppAttempt> app = applications.get().get(applicationId);
    var rmApp = ctx.rmContext().getRMApps().get(applicationId);
    if (app == null || rmApp == null) {
      throw new YarnException("Application '" + applicationId + "' is not present, hence could not change priority.");
    }
    // One change at a time, from the store write to the scheduler's state: two clients' changes
    // must land in the same order in both. The store write is not made under the scheduler's lock.
    synchronized (changes) {
      Priority p = check(newPriority, user, applicationId);
      if (p.equals(app.getPriority())) {
        future.set(null);
        return p;
      }
      rmApp.getApplicationSubmissionContext().setPriority(p);
      var stored = ApplicationStateData.newInstance(rmApp.getSubmitTime(), rmApp.getStartTime(),
          rmApp.getApplicationSubmissionContext(), rmApp.getUser(), rmApp.getRealUser(), rmApp.getCallerContext());
      stored.setApplicationTimeouts(rmApp.getApplicationTimeouts());
      stored.setLaunchTime(rmApp.getLaunchTime());
      ctx.rmContext().getStateStore().updateApplicationStateSynchronously(stored, false, future);
      synchronized (ctx.lock()) {
        ctx.holds().enter();
        try {
          boolean walked = otherWork.remove(applicationId); // its place in the walk depends on the priority
          app.setPriority(p);
          if (app.getCurrentAppAttempt() != null) {
            app.getCurrentAppAttempt().setPriority(p); // what its pages show
          }
          if (walked) {
            otherWork.add(applicationId);
          }
          otherWork.applicationsChanged();
          DatalocApp a = ctx.apps().get(applicationId);
          if (a != null) {
            ctx.engine().setPriority(a.jobId, p.getPriority());
          }
        } finally {
          ctx.holds().exit("updateApplicationPriority");
        }
      }
      LOG.info("Dataloc: priority of {} is now {}", applicationId, p.getPriority());
      return p;
    }
  }
}
