package io.dataloc.yarn;

import io.dataloc.yarn.line.QueuePaths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.authorize.AccessControlList;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.QueueACL;
import org.apache.hadoop.yarn.api.records.QueueInfo;
import org.apache.hadoop.yarn.api.records.QueueState;
import org.apache.hadoop.yarn.api.records.QueueUserACLInfo;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.factories.RecordFactory;
import org.apache.hadoop.yarn.factory.providers.RecordFactoryProvider;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerState;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ActiveUsersManager;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.Queue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplicationAttempt;

/**
 * The one queue, {@code default}: every application runs in it, ordered by the engine's job
 * ordering. Who may submit and administer is {@code acl.submit-applications} and
 * {@code acl.administer-queue} (default everyone, as with the FIFO scheduler); an administrator
 * may also submit, as in the stock schedulers.
 */
final class DatalocQueue implements Queue {
  static final String NAME = "default";
  private static final RecordFactory RECORDS = RecordFactoryProvider.getRecordFactory(null);

  private final QueueMetrics metrics;
  private final ActiveUsersManager users;
  private final Supplier<Resource> cluster;
  private final Supplier<Resource> used;
  private final java.util.function.Consumer<RMContainer> onRecover;
  private volatile Map<QueueACL, AccessControlList> acls = acls("*", "*");

  DatalocQueue(QueueMetrics metrics, ActiveUsersManager users, Supplier<Resource> cluster, Supplier<Resource> used,
      java.util.function.Consumer<RMContainer> onRecover) {
    this.metrics = metrics;
    this.users = users;
    this.cluster = cluster;
    this.used = used;
    this.onRecover = onRecover;
  }

  @Override
  public String getQueueName() {
    return NAME;
  }

  public String getQueuePath() {
    return NAME;
  }

  @Override
  public QueueMetrics getMetrics() {
    return metrics;
  }

  @Override
  public QueueInfo getQueueInfo(boolean includeChildQueues, boolean recursive) {
    QueueInfo info = RECORDS.newRecordInstance(QueueInfo.class);
    info.setQueueName(NAME);
    QueuePaths.set(info, NAME);
    info.setCapacity(1.0f);
    info.setMaximumCapacity(1.0f);
    long total = cluster.get().getMemorySize();
    info.setCurrentCapacity(total == 0 ? 0f : (float) used.get().getMemorySize() / total);
    info.setChildQueues(new ArrayList<>());
    info.setQueueState(QueueState.RUNNING);
    return info;
  }

  /** The root of the queue tree: the whole cluster, with {@code default} as its one child. */
  /** The one queue's names: {@code default} and its full path {@code root.default}. */
  static boolean isOurs(String name) {
    return NAME.equals(name) || ("root." + NAME).equals(name);
  }

  /** The root of the queue tree, as clients ({@code yarn queue -list}, {@code getAllQueues}) ask for it. */
  static boolean isRoot(String name) {
    return "root".equals(name);
  }

  /** The information of a queue by name; any other name is an unknown queue, as under the CapacityScheduler. */
  QueueInfo lookup(String queueName) throws java.io.IOException {
    if (isRoot(queueName)) {
      return getRootQueueInfo();
    }
    if (!isOurs(queueName)) {
      throw new java.io.IOException("Unknown queue: " + queueName + " (Dataloc has one queue, " + NAME + ")");
    }
    return getQueueInfo(false, false);
  }

  /** The calling user's ACLs on the queue (all of them, when the caller cannot be told). */
  List<QueueUserACLInfo> userAclInfo() {
    try {
      return getQueueUserAclInfo(UserGroupInformation.getCurrentUser());
    } catch (java.io.IOException e) {
      return getQueueUserAclInfo(null);
    }
  }

  /** The current attempts of the applications, if the name is this queue or the root; else null (unknown queue). */
  List<org.apache.hadoop.yarn.api.records.ApplicationAttemptId> appsIn(String queueName,
      java.util.Collection<? extends org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplication<
          DatalocAppAttempt>> applications) {
    if (!isOurs(queueName) && !isRoot(queueName)) {
      return null;
    }
    List<org.apache.hadoop.yarn.api.records.ApplicationAttemptId> out = new java.util.ArrayList<>();
    for (var app : applications) {
      if (app.getCurrentAppAttempt() != null) {
        out.add(app.getCurrentAppAttempt().getApplicationAttemptId());
      }
    }
    return out;
  }

  QueueInfo getRootQueueInfo() {
    QueueInfo root = RECORDS.newRecordInstance(QueueInfo.class);
    root.setQueueName("root");
    QueuePaths.set(root, "root");
    root.setCapacity(1.0f);
    root.setMaximumCapacity(1.0f);
    QueueInfo child = getQueueInfo(false, false);
    root.setCurrentCapacity(child.getCurrentCapacity());
    root.setChildQueues(new ArrayList<>(List.of(child)));
    root.setQueueState(QueueState.RUNNING);
    return root;
  }

  private static Map<QueueACL, AccessControlList> acls(String submit, String administer) {
    Map<QueueACL, AccessControlList> acls = new EnumMap<>(QueueACL.class);
    acls.put(QueueACL.SUBMIT_APPLICATIONS, new AccessControlList(submit));
    acls.put(QueueACL.ADMINISTER_QUEUE, new AccessControlList(administer));
    return acls;
  }

  /** Sets the queue's ACLs (at start and on {@code -refreshQueues}). */
  void setAcls(String submit, String administer) {
    acls = acls(submit, administer);
  }

  Map<QueueACL, AccessControlList> acls() {
    return acls;
  }

  @Override
  public List<QueueUserACLInfo> getQueueUserAclInfo(UserGroupInformation user) {
    QueueUserACLInfo info = RECORDS.newRecordInstance(QueueUserACLInfo.class);
    info.setQueueName(NAME);
    List<QueueACL> allowed = new ArrayList<>();
    for (QueueACL acl : QueueACL.values()) {
      if (user == null || hasAccess(acl, user)) {
        allowed.add(acl);
      }
    }
    info.setUserAcls(allowed);
    return Collections.singletonList(info);
  }

  @Override
  public boolean hasAccess(QueueACL acl, UserGroupInformation user) {
    Map<QueueACL, AccessControlList> now = acls;
    AccessControlList list = now.get(acl);
    return (list != null && list.isUserAllowed(user)) || now.get(QueueACL.ADMINISTER_QUEUE).isUserAllowed(user);
  }

  @Override
  public ActiveUsersManager getAbstractUsersManager() {
    return users;
  }

  @Override
  public void recoverContainer(Resource clusterResource, SchedulerApplicationAttempt attempt, RMContainer container) {
    if (!container.getState().equals(RMContainerState.COMPLETED)) {
      onRecover.accept(container);
    }
  }

  @Override
  public Set<String> getAccessibleNodeLabels() {
    return null;
  }

  @Override
  public String getDefaultNodeLabelExpression() {
    return null;
  }

  @Override
  public void incPendingResource(String nodeLabel, Resource resourceToInc) {}

  @Override
  public void decPendingResource(String nodeLabel, Resource resourceToDec) {}

  @Override
  public Priority getDefaultApplicationPriority() {
    return null;
  }

  @Override
  public void incReservedResource(String partition, Resource reservedRes) {}

  @Override
  public void decReservedResource(String partition, Resource reservedRes) {}
}
