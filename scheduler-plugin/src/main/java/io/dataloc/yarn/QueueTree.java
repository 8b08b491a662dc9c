package io.dataloc.yarn;

import java.lang.reflect.Proxy;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.Queue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics;

/**
 * The standalone scheduler's queue metrics as dashboards read the CapacityScheduler's: a
 * {@code root} (JMX {@code name=QueueMetrics,q0=root}) and the one queue under it
 * ({@code q0=root,q1=default}). The queue's applications, containers and pending resources roll up
 * into {@code root} as QueueMetrics roll up to a parent; the room left is set on both.
 */
final class QueueTree {
  static final String ROOT = "root";

  private final QueueMetrics root;
  private final QueueMetrics leaf;

  QueueTree(Configuration conf) {
    root = QueueMetrics.forQueue(ROOT, null, false, conf);
    leaf = QueueMetrics.forQueue(ROOT + "." + DatalocQueue.NAME, parentOf(root), false, conf);
  }

  /** The cluster's totals (the scheduler's root queue metrics). */
  QueueMetrics root() {
    return root;
  }

  /** The one queue's. */
  QueueMetrics leaf() {
    return leaf;
  }

  /** The room left in the cluster, which is the queue's. */
  void available(Resource free) {
    root.setAvailableResourcesToQueue(free);
    leaf.setAvailableResourcesToQueue(free);
  }

  /**
   * The parent QueueMetrics asks of a queue: its metrics only (the root has no queue object of
   * its own in a one-queue scheduler). Any other question is a programming error.
   */
  private static Queue parentOf(QueueMetrics metrics) {
    return (Queue) Proxy.newProxyInstance(Queue.class.getClassLoader(), new Class<?>[] {Queue.class},
        (proxy, method, args) -> {
          switch (method.getName()) {
            case "getMetrics":
              return metrics;
            case "getQueueName":
            case "getQueuePath":
              return ROOT;
            case "toString":
              return "root queue of the Dataloc scheduler";
            case "hashCode":
              return System.identityHashCode(proxy);
            case "equals":
              return proxy == args[0];
            default:
              throw new UnsupportedOperationException("the root queue's metrics holder has no " + method.getName());
          }
        });
  }
}
