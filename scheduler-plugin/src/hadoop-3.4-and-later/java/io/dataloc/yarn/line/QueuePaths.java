package io.dataloc.yarn.line;

import org.apache.hadoop.yarn.api.records.QueueInfo;

/** Hadoop 3.4 and later: a queue's report carries its full path (from 3.4). */
public final class QueuePaths {
  private QueuePaths() {}

  public static void set(QueueInfo info, String path) {
    info.setQueuePath(path);
  }
}
