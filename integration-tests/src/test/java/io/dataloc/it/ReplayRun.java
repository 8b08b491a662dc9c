package io.dataloc.it;

import io.dataloc.it.replay.ClusterModel;
import io.dataloc.it.replay.FlowNetwork;
import io.dataloc.it.replay.Follow;
import io.dataloc.it.replay.ReplayResult;
import io.dataloc.it.replay.SwimTrace;
import io.dataloc.it.replay.TaskRunner;
import io.dataloc.yarn.DatalocFrontEnd;
import io.dataloc.yarn.LocalityScheduler;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceManager;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptState;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractYarnScheduler;
import org.apache.hadoop.yarn.util.ControlledClock;

/**
 * One scheduler through one trace, under a virtual clock: the real ResourceManager and scheduler
 * (a MockRM, as {@link RmBenchmark} drives it), NodeManagers and MapReduce AMs simulated
 * ({@link MrJob}), tasks timed by the cluster model ({@link TaskRunner}).
 *
 * <p>Each virtual second: the jobs whose submit time has come are submitted, one at a time (and,
 * under Dataloc, each planned before the next goes in: its plans are made on its own threads, in
 * the order their reads end, and waiting for each keeps the run deterministic); the tasks run to
 * the second; every NodeManager heartbeats, reporting the containers that started and ended;
 * allocated AM containers are launched (an AM asks {@code amStartSeconds} later); every AM
 * heartbeats (asks, releases, takes containers, starts tasks); a job whose tasks are all done
 * unregisters, and its AM container ends with its node's next heartbeat. Each node heartbeat is
 * processed to its end before the next is sent, each step waits for the state store's thread
 * ({@link #settle}), and the ids carry a fixed cluster timestamp ({@link #CLUSTER_TIMESTAMP}): a
 * seed replays alike in any JVM, unless a plan runs out of its time budget
 * ({@code plan.time-budget-ms}). Scheduling is heartbeat-driven: asynchronous scheduling is off for
 * the CapacityScheduler, continuous scheduling off for the FairScheduler (whose fair shares the
 * replay updates every virtual 500 ms, as its update thread does every 500 ms of wall time). The
 * schedulers read the virtual clock through YARN's {@code Clock}; the wall clock enters no
 * decision.
 */
final class ReplayRun {
  private ReplayRun() {}

  private static final class Job {
    final SwimTrace.Job trace;
    final long input;
    final long shuffle;
    final long output;
    final int maps;
    final int reduces;
    final List<List<String>> splits;
    RMApp app;
    MockAM am;
    MrJob mr;
    String amHost;
    ContainerId amContainer;
    double amReadyAt = -1;
    double amAt = -1;
    double firstMapAt = -1;
    double mapsDoneAt = -1;
    double finishedAt = -1;
    final Map<String, Integer> mapsByHost = new TreeMap<>();

    Job(SwimTrace.Job trace, ClusterModel m) {
      this.trace = trace;
      this.input = m.scale(trace.inputBytes());
      this.shuffle = m.scale(trace.shuffleBytes());
      this.output = m.scale(trace.outputBytes());
      this.maps = m.maps(input);
      this.reduces = m.reduces(shuffle);
      this.splits = m.blocks(trace.inputPath(), maps);
    }

    long mapBytes(int task, long block) {
      return Math.max(0, Math.min(block, input - task * block));
    }
  }

  /** The scheduler's settings beyond {@link RmBenchmark#settings}: the tuned CapacityScheduler, the AM limit. */
  static Map<String, String> settings(String scheduler, int nodes, int racks, double amPercent) {
    Map<String, String> s = new HashMap<>(RmBenchmark.settings(scheduler.equals("capacity-tuned") ? "capacity"
        : scheduler.equals("dataloc") ? "dataloc-bar" : scheduler));
    if (scheduler.equals("dataloc")) {
      s.remove("yarn.scheduler.dataloc.assigner"); // the shipped default
    }
    if (scheduler.equals("capacity-tuned") || scheduler.equals("capacity-dataloc")) {
      // As the CapacityScheduler's documentation advises: the number of nodes, then one more pass
      // over the racks before off-switch.
      s.put("yarn.scheduler.capacity.node-locality-delay", Integer.toString(nodes));
      s.put("yarn.scheduler.capacity.rack-locality-additional-delay", Integer.toString(nodes));
    }
    if (scheduler.equals("fair")) {
      s.put("yarn.scheduler.fair.locality.threshold.node", "1.0");
      s.put("yarn.scheduler.fair.locality.threshold.rack", "1.0");
      s.put("yarn.scheduler.fair.continuous-scheduling-enabled", "false");
      // Its fair shares are recomputed by a thread every 500 ms of wall time; the replay calls the
      // same update every virtual 500 ms instead (the thread's own turn, a day away, never comes).
      s.put("yarn.scheduler.fair.update-interval-ms", Integer.toString(24 * 3600 * 1000));
    }
    String pct = Double.toString(amPercent);
    s.put("yarn.scheduler.capacity.maximum-am-resource-percent", pct);
    if (scheduler.equals("dataloc")) {
      s.put("yarn.scheduler.dataloc.maximum-am-resource-percent", pct); // a key of the standalone scheduler only
    }
    return s;
  }

  /**
   * The ResourceManager's settings {@code base} plus, for the CapacitySchedulers ({@code capacity},
   * {@code capacity-tuned}, {@code capacity-dataloc}), {@code capacity}'s keys under {@code
   * yarn.scheduler.capacity.}.
   */
  static Map<String, String> capacitySettings(String scheduler, Map<String, String> capacity, Map<String, String> base) {
    Map<String, String> rm = new java.util.TreeMap<>(base);
    if (scheduler.startsWith("capacity")) {
      capacity.forEach((key, v) -> rm.put("yarn.scheduler.capacity." + key, v));
    }
    return rm;
  }

  static Class<? extends org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler> schedulerClass(
      String scheduler) {
    return RmBenchmark.schedulerClass(switch (scheduler) {
      case "capacity-tuned" -> "capacity";
      case "dataloc" -> "dataloc-bar";
      default -> scheduler;
    });
  }

  static ReplayResult run(String scheduler, List<SwimTrace.Job> trace, ClusterModel model, double amPercent,
      double maxSeconds, double quantum, Path work, Consumer<String> progress) throws Exception {
    return run(scheduler, trace, model, amPercent, maxSeconds, quantum, Map.of(), work, progress);
  }

  /** As above, with Dataloc's settings {@code dataloc} (keys without {@code yarn.scheduler.dataloc.}) under both Dataloc schedulers. */
  static ReplayResult run(String scheduler, List<SwimTrace.Job> trace, ClusterModel model, double amPercent,
      double maxSeconds, double quantum, Map<String, String> dataloc, Path work, Consumer<String> progress)
      throws Exception {
    return run(scheduler, trace, model, amPercent, maxSeconds, quantum, dataloc, Map.of(), work, progress);
  }

  /** As above, the ResourceManager's settings {@code rm} (whole keys) set last, for every scheduler. */
  static ReplayResult run(String scheduler, List<SwimTrace.Job> trace, ClusterModel model, double amPercent,
      double maxSeconds, double quantum, Map<String, String> dataloc, Map<String, String> rm, Path work,
      Consumer<String> progress) throws Exception {
    return run(scheduler, trace, model, amPercent, maxSeconds, quantum, dataloc, rm, work, progress, Follow.none());
  }

  /** As above, recording the jobs {@code follow} names as they go. */
  static ReplayResult run(String scheduler, List<SwimTrace.Job> trace, ClusterModel model, double amPercent,
      double maxSeconds, double quantum, Map<String, String> dataloc, Map<String, String> rm, Path work,
      Consumer<String> progress, Follow follow) throws Exception {
    ClusterModel.Constants k = model.k;
    Map<String, String> settings = settings(scheduler, model.nodes, model.racks, amPercent);
    if (scheduler.equals("dataloc") || scheduler.equals("capacity-dataloc")) {
      dataloc.forEach((key, v) -> settings.put("yarn.scheduler.dataloc." + key, v));
    }
    settings.putAll(rm);
    Path dir = work.resolve(scheduler);
    MiniMr.deleteQuietly(dir);
    long wall0 = System.nanoTime();
    SchedulerClock.reset();
    long stamp = ResourceManager.getClusterTimeStamp();
    try (MiniMr c = MiniMr.start(schedulerClass(scheduler), settings, model.topology(), k.nodeMb(), dir)) {
      clusterTimestamp(CLUSTER_TIMESTAMP); // after the start, which takes the wall clock's
      ControlledClock clock = new ControlledClock();
      // The virtual second 0 sits just after the wall-clock now because parts of the RM outside the
      // scheduler stamp applications with the wall clock; a fixed base could fall before those
      // stamps. Every decision reads only differences from the base, so the run stays the same.
      long base = System.currentTimeMillis() + 1000;
      clock.setTime(base);
      ((AbstractYarnScheduler<?, ?>) c.rm.getResourceScheduler()).setClock(clock);
      FlowNetwork net = new FlowNetwork(model.linkCapacities(), quantum);
      TaskRunner runner = new TaskRunner(model, net);
      Map<String, MockNM> nodes = new LinkedHashMap<>();
      c.nodeList().forEach(nm -> nodes.put(nm.getNodeId().getHost(), nm));
      // Each second the nodes heartbeat in a fresh order: a real NodeManager's heartbeat falls
      // anywhere in the second a job arrives in, so no node is always first to offer its room
      // (in a fixed order the first node would get every AM that fits there).
      List<Map.Entry<String, MockNM>> order = new ArrayList<>(nodes.entrySet());
      SplittableRandom beat = new SplittableRandom(model.seed() * 0x9E3779B97F4A7C15L + 1);
      Map<String, List<ContainerStatus>> outbox = new HashMap<>();
      Map<ContainerId, Job> owner = new HashMap<>();
      Map<ContainerId, Job> amStarting = new HashMap<>();
      List<Job> jobs = new ArrayList<>();
      List<Job> live = new ArrayList<>();
      List<Job> waitingForAm = new ArrayList<>();
      List<Job> active = new ArrayList<>();
      Resource task = Resource.newInstance(1024, 1);
      int next = 0;
      int done = 0;
      double[] now = {0};
      long reportEvery = 600;
      for (int t = 0; ; t++) {
        now[0] = t;
        clock.setTime(base + t * 1000L);
        // The jobs of one second go in one at a time, each planned before the next: Dataloc plans
        // in the order its reads of the jobs' splits end, which its reader threads' speed decides.
        while (next < trace.size() && trace.get(next).submitSeconds() <= t) {
          Job j = new Job(trace.get(next), model);
          follow.at(t, j.trace.name(), () -> String.format(Locale.ROOT, "submitted: %d maps, %d reduces, floor %.1f s",
              j.maps, j.reduces, model.floor(j.trace.name(), j.input, j.shuffle, j.output, j.maps, j.reduces)));
          j.app = c.submitOnly("swim", j.splits, url -> url);
          jobs.add(j);
          live.add(j);
          waitingForAm.add(j);
          next++;
          settle(c, live);
          awaitPlan(c, j);
        }
        settle(c, live);
        for (TaskRunner.Ended e : runner.advanceTo(t)) {
          ContainerId id = (ContainerId) e.key();
          Job ready = amStarting.remove(id);
          if (ready != null) {
            ready.amReadyAt = e.at();
            continue;
          }
          Job j = owner.remove(id);
          follow.at(e.at(), j.trace.name(), () -> "task ended on " + e.host() + " (" + id + ")");
          int before = j.mr.mapsDone();
          outbox.computeIfAbsent(e.host(), h -> new ArrayList<>()).add(j.mr.complete(id));
          if (j.mr.mapsDone() == j.maps && before < j.maps) {
            j.mapsDoneAt = e.at();
            follow.at(e.at(), j.trace.name(), () -> "maps done");
            runner.mapsDone(j, j.mapsByHost);
          }
        }
        if (c.rm.getResourceScheduler() instanceof org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler fs) {
          fs.update();
        }
        int half = nodes.size() / 2;
        int n = 0;
        shuffle(order, beat);
        for (Map.Entry<String, MockNM> e : order) {
          if (n++ == half && c.rm.getResourceScheduler()
              instanceof org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler fs) {
            settle(c, live);
            fs.update();
          }
          List<ContainerStatus> sent = outbox.remove(e.getKey());
          e.getValue().nodeHeartbeat(sent == null ? List.of() : sent, true);
          // Each heartbeat's consequences before the next: the dispatcher's own events (a finished
          // AM's application removed, a pending one admitted) queue behind whichever heartbeats
          // were sent before it reached them, so without this a run depends on thread speed.
          c.rm.drainEvents();
        }
        settle(c, live);
        for (var it = waitingForAm.iterator(); it.hasNext(); ) {
          Job j = it.next();
          RMAppAttempt attempt = j.app.getCurrentAppAttempt();
          if (attempt == null || attempt.getAppAttemptState() != RMAppAttemptState.ALLOCATED) {
            continue;
          }
          j.amContainer = attempt.getMasterContainer().getId();
          j.amHost = attempt.getMasterContainer().getNodeId().getHost();
          j.am = c.rm.sendAMLaunched(attempt.getAppAttemptId());
          settle(c, live);
          j.am.registerAppAttempt();
          j.amAt = t;
          follow.at(t, j.trace.name(), () -> "AM on " + j.amHost);
          amStarting.put(j.amContainer, j);
          runner.startAm(j.amContainer, j.amHost, t);
          outbox.computeIfAbsent(j.amHost, h -> new ArrayList<>()).add(ContainerStatus.newInstance(j.amContainer,
              ContainerState.RUNNING, "", 0));
          active.add(j);
          it.remove();
        }
        for (var it = active.iterator(); it.hasNext(); ) {
          Job j = it.next();
          if (j.amReadyAt < 0 || j.amReadyAt > t) {
            continue; // its JVM is still starting
          }
          if (j.mr == null) {
            j.mr = new MrJob(j.am, j.splits, model.topology(), task);
            j.mr.listen(tasks(j, runner, owner, outbox, now, model, follow), j.reduces, k.slowStart());
          }
          j.mr.heartbeat();
          if (follow.follows(j.trace.name()) && c.rm.getResourceScheduler() instanceof DatalocFrontEnd d) {
            io.dataloc.yarn.WaitReport w = d.waitReports().of(j.app.getApplicationId());
            if (w != null && w.job().pending() > 0) {
              follow.waiting(t, j.trace.name(), w.summary());
            }
          }
          if (j.mr.allDone()) {
            follow.at(t, j.trace.name(), () -> "finished");
            j.am.unregisterAppAttempt(false);
            j.finishedAt = t;
            outbox.computeIfAbsent(j.amHost, h -> new ArrayList<>()).add(ContainerStatus.newInstance(j.amContainer,
                ContainerState.COMPLETE, "done", 0));
            runner.forget(j);
            it.remove();
            done++;
          }
        }
        settle(c, live);
        if (t % reportEvery == 0 && t > 0) {
          progress.accept(String.format(Locale.ROOT, "%s: %,d s simulated, %,d of %,d jobs done, %d running,"
              + " %d waiting for an AM, %d flows, %.0f s wall", scheduler, t, done, trace.size(), active.size(),
              waitingForAm.size(), net.active(), (System.nanoTime() - wall0) / 1e9));
        }
        if ((next == trace.size() && active.isEmpty() && waitingForAm.isEmpty()) || t >= maxSeconds) {
          return result(scheduler, jobs, model, net, t, (System.nanoTime() - wall0) / 1e9);
        }
      }
    } finally {
      clusterTimestamp(stamp);
    }
  }

  /**
   * The cluster timestamp every run's ids carry. The ResourceManager takes its own from the wall
   * clock as it starts; an id's hash, and so the order of every hash map keyed by ids in the
   * ResourceManager and the schedulers, follows it.
   */
  static final long CLUSTER_TIMESTAMP = 1_262_304_000_000L;

  /** Sets the ResourceManager's cluster timestamp (a static, for every RM of the JVM). */
  private static void clusterTimestamp(long stamp) throws ReflectiveOperationException {
    var set = ResourceManager.class.getDeclaredMethod("setClusterTimeStamp", long.class);
    set.setAccessible(true);
    set.invoke(null, stamp);
  }

  /** Fisher–Yates, from {@code rnd}. */
  private static <T> void shuffle(List<T> list, SplittableRandom rnd) {
    for (int i = list.size() - 1; i > 0; i--) {
      java.util.Collections.swap(list, i, rnd.nextInt(i + 1));
    }
  }

  private static final List<String> LEVELS = List.of("node-local", "rack-local", "off-switch");

  private static MrJob.Tasks tasks(Job j, TaskRunner runner, Map<ContainerId, Job> owner,
      Map<String, List<ContainerStatus>> outbox, double[] now, ClusterModel model, Follow follow) {
    ClusterModel.Constants k = model.k;
    return new MrJob.Tasks() {
      @Override
      public void mapStarted(int task, String host, int level, ContainerId container) {
        if (j.firstMapAt < 0) {
          j.firstMapAt = now[0];
        }
        follow.at(now[0], j.trace.name(), () -> "map " + task + " on " + host + " " + LEVELS.get(level) + ", its block on "
            + j.splits.get(task));
        owner.put(container, j);
        j.mapsByHost.merge(host, 1, Integer::sum);
        long out = j.reduces > 0 ? j.shuffle / j.maps : j.output / j.maps;
        runner.startMap(container, host, j.splits.get(task), j.mapBytes(task, k.blockBytes()), out,
            model.cpuFactor(j.trace.name(), task), now[0]);
        running(host, container);
      }

      @Override
      public void reduceStarted(int reduce, String host, ContainerId container) {
        follow.at(now[0], j.trace.name(), () -> "reduce " + reduce + " on " + host);
        owner.put(container, j);
        runner.startReduce(container, j, host, j.shuffle / j.reduces, j.output / j.reduces, now[0]);
        running(host, container);
      }

      @Override
      public void reducePreempted(ContainerId container) {
        owner.remove(container);
        runner.cancel(container);
      }

      @Override
      public boolean shuffling(ContainerId container) {
        return runner.shuffling(container);
      }

      private void running(String host, ContainerId container) {
        outbox.computeIfAbsent(host, h -> new ArrayList<>()).add(ContainerStatus.newInstance(container,
            ContainerState.RUNNING, "", 0));
      }
    };
  }

  /** An application or attempt whose record the state store's own thread is saving. */
  private static final Set<RMAppState> APP_SAVING = EnumSet.of(RMAppState.NEW_SAVING, RMAppState.FINAL_SAVING);
  private static final Set<RMAppAttemptState> ATTEMPT_SAVING = EnumSet.of(RMAppAttemptState.ALLOCATED_SAVING,
      RMAppAttemptState.LAUNCHED_UNMANAGED_SAVING, RMAppAttemptState.FINAL_SAVING);
  private static final Set<RMAppState> APP_DONE = EnumSet.of(RMAppState.FINISHED, RMAppState.FAILED,
      RMAppState.KILLED);

  /**
   * Drains the ResourceManager's events, then waits (wall time) until no live job's application or
   * attempt is being saved by the state store, and drains again. The store saves on its own thread
   * (a new application, an allocated AM, a finished attempt) and answers with an event; unawaited,
   * the answer lands at a point of the virtual second that depends on the threads' speed, and with
   * it when an AM is allocated, on which node, and when a finished job frees its place under the
   * AM limit: runs of one seed would differ. Jobs whose application is done leave {@code live}.
   */
  private static void settle(MiniMr c, List<Job> live) throws InterruptedException {
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (true) {
      c.rm.drainEvents();
      boolean saving = false;
      for (var it = live.iterator(); it.hasNext(); ) {
        RMApp app = it.next().app;
        RMAppState state = app.getState();
        if (APP_DONE.contains(state)) {
          it.remove();
          continue;
        }
        RMAppAttempt attempt = app.getCurrentAppAttempt();
        saving |= APP_SAVING.contains(state) || attempt != null && ATTEMPT_SAVING.contains(attempt.getAppAttemptState());
      }
      if (!saving) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the state store saved nothing in a minute of wall time");
      }
      Thread.yield();
    }
  }

  /**
   * Under Dataloc, waits (wall time) until a new job is planned or served online: no plan lands at
   * a wall-clock-dependent second. A job still unplanned after a minute fails the run.
   */
  private static void awaitPlan(MiniMr c, Job job) throws InterruptedException {
    var scheduler = c.rm.getResourceScheduler();
    String id = job.app.getApplicationId().toString();
    for (int i = 0; i < 60_000; i++) {
      String phase = null;
      if (scheduler instanceof LocalityScheduler s) {
        for (var r : s.reports().jobs()) {
          if (r.application().equals(id)) {
            phase = r.phase();
          }
        }
      } else if (scheduler instanceof io.dataloc.yarn.cs.DatalocCapacityScheduler d) {
        phase = d.plans().phaseOf(job.app.getApplicationId());
      }
      if (!"reading".equals(phase) && !"planning".equals(phase)) {
        return;
      }
      Thread.sleep(1);
    }
    throw new IllegalStateException("no plan for " + job.trace.name() + " in a minute of wall time");
  }


  private static ReplayResult result(String scheduler, List<Job> jobs, ClusterModel model, FlowNetwork net, int t,
      double wall) {
    List<ReplayResult.JobTime> out = new ArrayList<>();
    for (Job j : jobs) {
      double floor = model.floor(j.trace.name(), j.input, j.shuffle, j.output, j.maps, j.reduces);
      int local = j.mr == null ? 0 : j.mr.dataLocal();
      int rack = j.mr == null ? 0 : j.mr.atLevel(1);
      int off = j.mr == null ? 0 : j.mr.atLevel(2);
      out.add(new ReplayResult.JobTime(j.trace.name(), j.maps, j.reduces, j.trace.submitSeconds(),
          j.amAt < 0 ? -1 : j.amAt - j.trace.submitSeconds(),
          j.firstMapAt < 0 ? -1 : j.firstMapAt - j.trace.submitSeconds(),
          j.mapsDoneAt < 0 ? -1 : j.mapsDoneAt - j.trace.submitSeconds(),
          j.finishedAt < 0 ? -1 : j.finishedAt - j.trace.submitSeconds(), floor, local, rack, off, j.amHost,
          Map.copyOf(j.mapsByHost)));
    }
    double nic = 0;
    double uplink = 0;
    for (int l = 0; l < 2 * model.nodes + 2 * model.racks; l += 2) {
      if (model.isUplink(l)) {
        uplink += net.carried(l);
      } else {
        nic += net.carried(l);
      }
    }
    return new ReplayResult(scheduler, out, nic, uplink, t, wall, SchedulerClock.schedulerCpuSeconds());
  }
}
