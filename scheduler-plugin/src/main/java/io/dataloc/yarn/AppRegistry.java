package io.dataloc.yarn;

import io.dataloc.core.engine.DecisionEngine;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;

/**
 * The one owner of the id translations between YARN and the engine: application ↔ engine job,
 * and map container → engine task; and of the set of applications whose asks changed since the
 * last heartbeat. Everything but {@link #markDirty} runs under the scheduler's monitor;
 * {@code markDirty} is called by AM handler threads too (a concurrent set).
 */
final class AppRegistry {
  private final Map<ApplicationId, DatalocApp> apps = new LinkedHashMap<>();
  private final Map<Long, DatalocApp> byJob = new HashMap<>();
  private final Map<ContainerId, Integer> containerTask = new HashMap<>();
  /** The tied containers of each application: an application's end drops its ties without a walk over all. */
  private final Map<ApplicationId, java.util.Set<ContainerId>> tiesOf = new HashMap<>();
  /** Applications whose asks changed since the last reconciliation (written by allocate()). */
  private final Set<ApplicationId> dirty = ConcurrentHashMap.newKeySet();
  /** The marked applications in the order they were marked (an entry no longer in {@code dirty} is skipped). */
  private final java.util.Queue<ApplicationId> dirtyOrder = new java.util.concurrent.ConcurrentLinkedQueue<>();
  private final Supplier<DecisionEngine> engine;
  /** Told of an application that may now want work the engine does not serve. */
  private final Consumer<ApplicationId> mayHaveOtherWork;
  private long nextJobId = 1;

  private final java.util.function.LongSupplier clock;

  AppRegistry(Supplier<DecisionEngine> engine, Consumer<ApplicationId> mayHaveOtherWork,
      java.util.function.LongSupplier clock) {
    this.clock = clock;
    this.engine = engine;
    this.mayHaveOtherWork = mayHaveOtherWork;
  }

  DatalocApp add(ApplicationId id, String user) {
    DatalocApp a = new DatalocApp(id, nextJobId++, user, clock.getAsLong());
    apps.put(id, a);
    byJob.put(a.jobId, a);
    return a;
  }

  /** Forgets the application and its engine job (idempotent). */
  DatalocApp remove(ApplicationId id) {
    DatalocApp a = apps.remove(id);
    if (a != null) {
      dropJob(a);
      byJob.remove(a.jobId);
    }
    dirty.remove(id);
    return a;
  }

  DatalocApp get(ApplicationId id) {
    return apps.get(id);
  }

  DatalocApp byJob(long jobId) {
    return byJob.get(jobId);
  }

  boolean contains(ApplicationId id) {
    return apps.containsKey(id);
  }

  /** Every application, in submission order. */
  Collection<DatalocApp> all() {
    return apps.values();
  }

  /**
   * The application is served from its asks from now on: its engine job (plan, queued maps, ties
   * of its containers) is released, and the next heartbeat looks at its asks. Idempotent.
   */
  void goOnline(DatalocApp a, String why) {
    mayHaveOtherWork.accept(a.id);
    if (a.phase() == DatalocApp.Phase.PLANNED || a.jobCreated) {
      dropJob(a);
    }
    a.online(why);
    markDirty(a.id);
  }

  /** Releases the application's engine job and the ties of its containers (idempotent). */
  void dropJob(DatalocApp a) {
    if (a.jobCreated) {
      DecisionEngine e = engine.get();
      // Before the engine frees the job's task numbers (they are reused).
      java.util.Set<ContainerId> ties = tiesOf.remove(a.id);
      if (ties != null) {
        ties.forEach(containerTask::remove);
      }
      e.removeJob(a.jobId);
      a.jobCreated = false;
    }
  }

  /** A container now runs this engine task. */
  void tie(ContainerId container, int task) {
    containerTask.put(container, task);
    tiesOf.computeIfAbsent(container.getApplicationAttemptId().getApplicationId(), k -> new java.util.HashSet<>())
        .add(container);
  }

  /** The task a container ran, forgetting the tie; null if it ran none of the engine's. */
  Integer untie(ContainerId container) {
    Integer task = containerTask.remove(container);
    if (task != null) {
      ApplicationId app = container.getApplicationAttemptId().getApplicationId();
      java.util.Set<ContainerId> ties = tiesOf.get(app);
      if (ties != null && ties.remove(container) && ties.isEmpty()) {
        tiesOf.remove(app);
      }
    }
    return task;
  }

  int ties() {
    return containerTask.size();
  }

  /** A new engine knows no task: every tie goes (the applications go online). */
  void forgetTies() {
    containerTask.clear();
    tiesOf.clear();
  }

  void markDirty(ApplicationId id) {
    if (dirty.add(id)) {
      dirtyOrder.add(id);
    }
  }

  void clean(ApplicationId id) {
    dirty.remove(id);
  }

  /**
   * Takes at most {@code max} of the applications marked and not yet taken, oldest mark first (each
   * is unmarked); the rest wait for the next call, so one call's work is bounded and no application
   * is passed over for ever.
   */
  List<ApplicationId> takeDirty(int max) {
    if (dirty.isEmpty()) {
      return List.of();
    }
    List<ApplicationId> out = new ArrayList<>(Math.min(max, dirty.size()));
    while (out.size() < max) {
      ApplicationId id = dirtyOrder.poll();
      if (id == null) {
        break;
      }
      if (dirty.remove(id)) {
        out.add(id);
      }
    }
    return out;
  }
}
