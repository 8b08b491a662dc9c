package io.dataloc.yarn;

import io.dataloc.yarn.line.UnmanagedAms;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.QueueACL;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppEvent;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppEventType;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptEvent;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptEventType;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptState;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerEventType;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerState;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ActiveUsersManager;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplication;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applications and their attempts coming and going: admission to Dataloc's one queue (unknown
 * queues and submit ACLs refused as the CapacityScheduler refuses them), the start of a new job's
 * placement read, a retried or recovered attempt served from its asks, and every trace of an
 * application released when it ends. Under the scheduler's monitor.
 */
final class AppLifecycle {
  private static final Logger LOG = LoggerFactory.getLogger(LocalityScheduler.class);
  /** The application type MapReduce's client gives its jobs. */
  static final String MAPREDUCE = "MAPREDUCE";

  private final SchedulerContext ctx;
  private final Map<ApplicationId, SchedulerApplication<DatalocAppAttempt>> applications;
  private final DatalocQueue queue;
  private final ActiveUsersManager users;
  private final QueueMetrics metrics;
  private final Configuration rmConf;
  private final PlacementPipeline placement;
  private final OtherWork otherWork;
  private final AskSync asks;
  private final NodeEvents.Completer completer;

  AppLifecycle(SchedulerContext ctx, Map<ApplicationId, SchedulerApplication<DatalocAppAttempt>> applications,
      DatalocQueue queue, ActiveUsersManager users, QueueMetrics metrics, Configuration rmConf,
      PlacementPipeline placement, OtherWork otherWork, AskSync asks, NodeEvents.Completer completer) {
    this.ctx = ctx;
    this.applications = applications;
    this.queue = queue;
    this.users = users;
    this.metrics = metrics;
    this.rmConf = rmConf;
    this.placement = placement;
    this.otherWork = otherWork;
    this.asks = asks;
    this.completer = completer;
  }

  private void reject(ApplicationId id, String msg) {
    LOG.warn("Dataloc: rejecting {}: {}", id, msg);
    ctx.metrics().appsRefused.incr();
    ctx.rmContext().getDispatcher().getEventHandler().handle(new RMAppEvent(id, RMAppEventType.APP_REJECTED, msg));
  }

  /**
   * The queue's submit ACL, with {@code yarn.acl.enable}: the RM checks it only for the Capacity and
   * Fair schedulers, so Dataloc does, on the client's RPC thread at submission (from
   * {@code checkAndGetApplicationPriority}), never under the scheduler's monitor: resolving the
   * user's groups may ask LDAP or run a shell, and a slow answer must not stop scheduling. A user
   * outside the ACL is refused there, as the CapacityScheduler refuses, with the key's name.
   */
  void checkSubmitAccess(UserGroupInformation user, ApplicationId id) throws YarnException {
    if (user != null && YarnConfiguration.isAclEnabled(rmConf) && !queue.hasAccess(QueueACL.SUBMIT_APPLICATIONS, user)) {
      ctx.metrics().appsRefused.incr();
      String msg = "User " + user.getShortUserName() + " cannot submit applications to queue " + DatalocQueue.NAME
          + " (" + DatalocKeys.ACL_SUBMIT.fullName() + ")";
      LOG.warn("Dataloc: refusing {}: {}", id, msg);
      throw new YarnException(new org.apache.hadoop.security.AccessControlException(msg));
    }
  }

  void added(ApplicationId id, String user, String queueName, Priority priority, boolean recovering,
      boolean unmanaged) {
    // As the CapacityScheduler: an application for a queue that does not exist is rejected, with
    // the queue's name, rather than run somewhere it did not ask for.
    if (!recovering && queueName != null && !DatalocQueue.isOurs(queueName)) {
      reject(id, "Application " + id + " submitted by user " + user + " to unknown queue: " + queueName
          + " (Dataloc has one queue, " + DatalocQueue.NAME + ")");
      return;
    }
    if (recovering && queueName != null && !DatalocQueue.isOurs(queueName)) {
      // Recovered from another scheduler's queue (an operator switched to Dataloc): it runs in
      // ours, and says so, or its next attempt would ask for a queue that no longer exists.
      var rmApp = ctx.rmContext().getRMApps().get(id);
      if (rmApp != null) {
        rmApp.setQueue(DatalocQueue.NAME);
      }
      LOG.info("Dataloc: {} recovered from queue {} runs in queue {}", id, queueName, DatalocQueue.NAME);
    }
    SchedulerApplication<DatalocAppAttempt> app = UnmanagedAms.application(queue, user,
        priority == null ? Priority.newInstance(0) : priority, unmanaged);
    applications.put(id, app);
    otherWork.applicationsChanged();
    UnmanagedAms.submitApp(metrics, user, unmanaged);
    DatalocApp a = ctx.apps().add(id, user);
    if (recovering) {
      var rmApp = ctx.rmContext().getRMApps().get(id);
      a.recoveredMapReduce = rmApp != null && MAPREDUCE.equalsIgnoreCase(rmApp.getApplicationType());
      // Some of its maps may be running in recovered containers we cannot tie to tasks: the AM
      // re-sends what is left after it resyncs, and that is served from its asks.
      ctx.apps().goOnline(a, "recovered after a ResourceManager restart: served from its re-sent asks");
    } else {
      placement.start(a);
      ctx.rmContext().getDispatcher().getEventHandler().handle(new RMAppEvent(id, RMAppEventType.APP_ACCEPTED));
    }
  }

  void attemptAdded(ApplicationAttemptId attemptId, boolean transfer, boolean recovering) {
    SchedulerApplication<DatalocAppAttempt> app = applications.get(attemptId.getApplicationId());
    if (app == null) {
      LOG.warn("Attempt {} for an unknown application", attemptId);
      return;
    }
    DatalocAppAttempt attempt = new DatalocAppAttempt(attemptId, app.getUser(), queue, users, ctx.rmContext(),
        app.getPriority(), recovering);
    if (transfer && app.getCurrentAppAttempt() != null) {
      attempt.transferStateFromPreviousAttempt(app.getCurrentAppAttempt());
    }
    boolean retry = app.getCurrentAppAttempt() != null;
    app.setCurrentAppAttempt(attempt);
    UnmanagedAms.submitAppAttempt(metrics, app);
    DatalocApp a = ctx.apps().get(attemptId.getApplicationId());
    if (retry && a != null) {
      // The new AM re-requests what is left in an order we cannot replay: serve it from its asks.
      ctx.apps().goOnline(a, "AM attempt " + attemptId.getAttemptId());
    }
    if (!recovering) {
      ctx.rmContext().getDispatcher().getEventHandler().handle(new RMAppAttemptEvent(attemptId,
          RMAppAttemptEventType.ATTEMPT_ADDED));
    }
  }

  void removed(ApplicationId id, RMAppState state) {
    SchedulerApplication<DatalocAppAttempt> app = applications.get(id);
    ctx.apps().remove(id);
    asks.forget(id);
    otherWork.remove(id);
    if (app == null) {
      return;
    }
    users.deactivateApplication(app.getUser(), id);
    app.stop(state);
    applications.remove(id);
    otherWork.applicationsChanged();
  }

  void attemptRemoved(ApplicationAttemptId attemptId, RMAppAttemptState state, boolean keep) {
    SchedulerApplication<DatalocAppAttempt> app = applications.get(attemptId.getApplicationId());
    DatalocAppAttempt attempt = app == null ? null : app.getCurrentAppAttempt();
    if (attempt == null) {
      LOG.info("Unknown application attempt {} finished", attemptId);
      return;
    }
    for (RMContainer c : attempt.getLiveContainers()) {
      if (keep && c.getState().equals(RMContainerState.RUNNING)) {
        continue;
      }
      completer.complete(c, SchedulerUtils.createAbnormalContainerStatus(c.getContainerId(),
          SchedulerUtils.COMPLETED_APPLICATION), RMContainerEventType.KILL);
    }
    attempt.stop(state);
  }
}
