package io.dataloc.yarn.line;

import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.Queue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplication;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplicationAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAddedSchedulerEvent;

/**
 * Hadoop 3.3: the queue metrics do not count applications with an unmanaged ApplicationMaster
 * apart (that came in 3.4), and the scheduler is not told which ones they are: every application
 * counts as managed, as in 3.3's own schedulers.
 */
public final class UnmanagedAms {
  private UnmanagedAms() {}

  /** Whether the added application's AM is unmanaged: 3.3 does not say, so false. */
  public static boolean unmanaged(AppAddedSchedulerEvent e) {
    return false;
  }

  /** The scheduler's record of an added application. */
  public static <T extends SchedulerApplicationAttempt> SchedulerApplication<T> application(Queue queue,
      String user, Priority priority, boolean unmanaged) {
    return new SchedulerApplication<>(queue, user, priority);
  }

  /** Counts a submitted application in the queue metrics. */
  public static void submitApp(QueueMetrics metrics, String user, boolean unmanaged) {
    metrics.submitApp(user);
  }

  /** Counts a submitted attempt of the application in the queue metrics. */
  public static void submitAppAttempt(QueueMetrics metrics, SchedulerApplication<?> app) {
    metrics.submitAppAttempt(app.getUser());
  }
}
