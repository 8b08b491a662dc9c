package io.dataloc.yarn.line;

import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.Queue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.QueueMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplication;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplicationAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAddedSchedulerEvent;

/**
 * Hadoop 3.4 and later: YARN counts applications with an unmanaged ApplicationMaster apart in its queue
 * metrics (YARN-11078, from 3.4), and the scheduler is told which ones they are.
 */
public final class UnmanagedAms {
  private UnmanagedAms() {}

  /** Whether the added application's AM is unmanaged. */
  public static boolean unmanaged(AppAddedSchedulerEvent e) {
    return e.isUnmanagedAM();
  }

  /** The scheduler's record of an added application. */
  public static <T extends SchedulerApplicationAttempt> SchedulerApplication<T> application(Queue queue,
      String user, Priority priority, boolean unmanaged) {
    return new SchedulerApplication<>(queue, user, priority, unmanaged);
  }

  /** Counts a submitted application in the queue metrics. */
  public static void submitApp(QueueMetrics metrics, String user, boolean unmanaged) {
    metrics.submitApp(user, unmanaged);
  }

  /** Counts a submitted attempt of the application in the queue metrics. */
  public static void submitAppAttempt(QueueMetrics metrics, SchedulerApplication<?> app) {
    metrics.submitAppAttempt(app.getUser(), app.isUnmanagedAM());
  }
}
