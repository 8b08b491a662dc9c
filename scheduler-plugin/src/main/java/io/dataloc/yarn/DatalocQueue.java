package io.dataloc.yarn;

import java.util.ArrayList;
import java.util.Arrays;
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
 * ordering; everyone may submit and administer (as with the FIFO scheduler).
 */
final class DatalocQueue implements Queue {
  static final String NAME = "default";
  private static final RecordFactory RECORDS = RecordFactoryProvider.getRecordFactory(null);

  private final QueueMetrics metrics;
  private final ActiveUsersManager users;
  private final Supplier<Resource> cluster;
  private final Supplier<Resource> used;
  private final java.util.function.Consumer<RMContainer> onRecover;

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
    info.setQueuePath(NAME);
    info.setCapacity(1.0f);
    info.setMaximumCapacity(1.0f);
    long total = cluster.get().getMemorySize();
    info.setCurrentCapacity(total == 0 ? 0f : (float) used.get().getMemorySize() / total);
    info.setChildQueues(new ArrayList<>());
    info.setQueueState(QueueState.RUNNING);
    return info;
  }

  Map<QueueACL, AccessControlList> acls() {
    Map<QueueACL, AccessControlList> acls = new EnumMap<>(QueueACL.class);
    for (QueueACL acl : QueueACL.values()) {
      acls.put(acl, new AccessControlList("*"));
    }
    return acls;
  }

  @Override
  public List<QueueUserACLInfo> getQueueUserAclInfo(UserGroupInformation user) {
    QueueUserACLInfo info = RECORDS.newRecordInstance(QueueUserACLInfo.class);
    info.setQueueName(NAME);
    info.setUserAcls(Arrays.asList(QueueACL.values()));
    return Collections.singletonList(info);
  }

  @Override
  public boolean hasAccess(QueueACL acl, UserGroupInformation user) {
    return acls().get(acl).isUserAllowed(user);
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
