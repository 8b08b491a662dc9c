package io.dataloc.yarn.line;

import org.apache.hadoop.yarn.api.records.QueueInfo;

/** Hadoop 3.3: a queue's report has no path field (it came in 3.4); its name is all it carries. */
public final class QueuePaths {
  private QueuePaths() {}

  public static void set(QueueInfo info, String path) {
    // nothing to set on 3.3
  }
}
