package io.dataloc.core.engine;

import io.dataloc.core.jobs.JobView;

/** One job as the engine tracks it; policies may keep per-job indexes here. */
public final class JobState implements JobView {
  private final int index;
  private final long id;
  private final String user;
  private final long arrival;
  int running;
  int pending;
  int done;
  int total;
  long meanTaskTicks = 1;
  /** The engine's decision count when this job last got a container (or arrived). */
  long lastServed;
  int priority;

  JobState(int index, long id, String user, long arrival) {
    this.index = index;
    this.id = id;
    this.user = user;
    this.arrival = arrival;
  }

  @Override
  public int index() {
    return index;
  }

  public long id() {
    return id;
  }

  @Override
  public String user() {
    return user;
  }

  @Override
  public long arrival() {
    return arrival;
  }

  @Override
  public int priority() {
    return priority;
  }

  @Override
  public int running() {
    return running;
  }

  @Override
  public int pending() {
    return pending;
  }

  public int done() {
    return done;
  }

  public int total() {
    return total;
  }

  @Override
  public long estimatedWork() {
    return Math.max(1, (long) (pending + running) * meanTaskTicks);
  }

  @Override
  public String toString() {
    return "job " + id + " (" + user + ")";
  }
}
