package io.dataloc.it;

import org.apache.hadoop.yarn.server.resourcemanager.MockNM;

/** Drives a cluster in rounds: AM heartbeat, every node heartbeats in order, AM pulls, maps tick. */
final class Rounds {
  private Rounds() {}

  /** Runs until the job's maps are done or {@code max} rounds pass; returns the rounds taken. */
  static int run(MiniMr c, MrJob job, int max) throws Exception {
    for (int round = 1; round <= max; round++) {
      job.heartbeat();
      for (MockNM nm : c.nodeList()) {
        nm.nodeHeartbeat(true);
        c.rm.drainEvents();
      }
      job.heartbeat();
      job.tick(c.nodes);
      c.rm.drainEvents();
      if (job.finished()) {
        return round;
      }
    }
    return -1;
  }

  /** Runs every job in the same rounds until all are done or {@code max} rounds pass; returns the rounds taken. */
  static int runAll(MiniMr c, java.util.List<MrJob> jobs, int max) throws Exception {
    for (int round = 1; round <= max; round++) {
      for (MrJob job : jobs) {
        job.heartbeat();
      }
      for (MockNM nm : c.nodeList()) {
        nm.nodeHeartbeat(true);
        c.rm.drainEvents();
      }
      for (MrJob job : jobs) {
        job.heartbeat();
        job.tick(c.nodes);
      }
      c.rm.drainEvents();
      if (jobs.stream().allMatch(MrJob::finished)) {
        return round;
      }
    }
    return -1;
  }
}
