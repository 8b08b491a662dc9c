package io.dataloc.it;

import io.dataloc.core.workload.Scenarios;

import io.dataloc.yarn.LocalityScheduler;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRM;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;

/**
 * Scheduler overhead inside a ResourceManager (a MockRM: the real RM services, its dispatcher and
 * the real scheduler classes, with NodeManagers and AMs simulated in-process). For each cluster
 * size and each scheduler in turn it registers the nodes on racks of 40, submits MapReduce-like
 * jobs whose asks and container matching follow the MapReduce AM (HDFS-style three-replica
 * placement from a seeded generator), and drives rounds: every AM heartbeats, every node
 * heartbeats (reporting the maps that finished), every AM heartbeats again. A map runs one round
 * if data-local, two if rack-local, three otherwise.
 *
 * <p>Measured inside the scheduler ({@link SchedulerClock}, around {@code handle} and
 * {@code allocate}): time per node heartbeat (p50, p99) and allocations per second of scheduler
 * time; from the jobs: rounds until every map had a container, locality by level, and the most
 * maps on one host against the ideal ⌈maps / nodes⌉.
 *
 * <pre>
 * mvn -B -ntp -q -DskipTests -Prm-bench verify -pl integration-tests -am \
 *     [-Drm.bench.args="--runs 1000:10:1000,5000:20:2500 --schedulers dataloc-bar,dataloc-flow,capacity,fair
 *      --planner-scale 10000:100000 --await-plans false"]
 * </pre>
 *
 * <p>Schedulers: {@code dataloc-bar}, {@code dataloc-flow} (standalone), {@code capacity},
 * {@code capacity-dataloc} (the CapacityScheduler with Dataloc's placement component; both
 * CapacityScheduler rows schedule on heartbeats), {@code fair}; a Dataloc scheduler with settings
 * changed is {@code NAME:KEY=VALUE,...} (keys without {@code yarn.scheduler.dataloc.}), e.g.
 * {@code dataloc-flow:online-policy=jsq-maxweight-steal}. With {@code --await-plans true}
 * the rounds start once every job is planned: the plans' own CPU (on Dataloc's threads, competing
 * for the machine's cores with the timed scheduler) is then not inside the measured rounds.
 */
public final class RmBenchmark {
  private RmBenchmark() {}

  record Shape(int nodes, int apps, int tasksPerApp) {
    int tasks() {
      return apps * tasksPerApp;
    }
  }

  record Result(String scheduler, Shape shape, double p50, double p99, int heartbeats, double schedulerSeconds,
      long allocations, int placedRound, int rounds, double placeWallSeconds, int local, int rack, int off,
      int maxOnHost, double maxHeartbeatMicros, String maxLockHold, double emptyHeartbeatP50) {
    int ideal() {
      return (shape.tasks() + shape.nodes() - 1) / shape.nodes();
    }
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> opts = parse(args);
    if (opts.containsKey("idle")) {
      idleApps(opts);
      return;
    }
    List<Shape> shapes = new ArrayList<>();
    for (String s : opts.getOrDefault("runs", "1000:10:1000,5000:20:2500").split(",")) {
      String[] p = s.split(":");
      shapes.add(new Shape(Integer.parseInt(p[0]), Integer.parseInt(p[1]), Integer.parseInt(p[2])));
    }
    List<String> schedulers = List.of(opts.getOrDefault("schedulers", "dataloc-bar,dataloc-flow,capacity,fair")
        .split(","));
    Path out = Path.of(opts.getOrDefault("out", "target/rm-bench"));
    Files.createDirectories(out);
    MiniMr.quiet = true;
    // One small run per scheduler first, discarded: the JVM loads and compiles the RM's and the
    // scheduler's code, which an RM that has run for a while has long done (maxima would show it).
    for (String scheduler : schedulers) {
      System.out.printf(Locale.ROOT, "%s: warm-up (200 nodes, discarded) ...%n", scheduler);
      run(scheduler, new Shape(200, 4, 500), out.resolve("work"));
    }
    List<Result> results = new ArrayList<>();
    for (Shape shape : shapes) {
      for (String scheduler : schedulers) {
        System.out.printf(Locale.ROOT, "%s: %d nodes, %d jobs x %d maps ...%n", scheduler, shape.nodes(),
            shape.apps(), shape.tasksPerApp());
        Result r = run(scheduler, shape, 0, Boolean.parseBoolean(opts.getOrDefault("await-plans", "false")),
            out.resolve("work"));
        results.add(r);
        System.out.println("  " + row(r));
      }
    }
    String table = table(results);
    System.out.println();
    System.out.println(table);
    Files.writeString(out.resolve("results.md"), table);
    String scale = opts.getOrDefault("planner-scale", "10000:100000");
    if (!scale.equals("none")) {
      String[] p = scale.split(":");
      String report = plannerScale(Integer.parseInt(p[0]), Integer.parseInt(p[1]), out.resolve("work"));
      System.out.println(report);
      Files.writeString(out.resolve("planner-scale.md"), report);
    }
  }

  /**
   * {@code --idle NODES:MAPS:N1,N2,...}: one job of MAPS maps on NODES nodes beside N1, N2, ...
   * idle applications, under each scheduler: how a heartbeat's cost grows with applications that
   * wait for nothing.
   */
  private static void idleApps(Map<String, String> opts) throws Exception {
    String[] p = opts.get("idle").split(":");
    int nodes = Integer.parseInt(p[0]);
    int maps = Integer.parseInt(p[1]);
    List<String> schedulers = List.of(opts.getOrDefault("schedulers", "dataloc-bar,capacity").split(","));
    Path out = Path.of(opts.getOrDefault("out", "target/rm-bench"));
    Files.createDirectories(out);
    MiniMr.quiet = true;
    for (String scheduler : schedulers) {
      run(scheduler, new Shape(200, 4, 500), 0, true, out.resolve("work")); // warm-up, discarded
    }
    StringBuilder sb = new StringBuilder("| scheduler | idle applications | heartbeat with nothing to run, p50 µs"
        + " | heartbeat p50 µs | heartbeat p99 µs"
        + " | heartbeat max µs | longest lock hold (wall / CPU) | rounds to place every map | rounds to finish"
        + " | node / rack / off-switch |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    for (String n : p[2].split(",")) {
      int idle = Integer.parseInt(n);
      for (String scheduler : schedulers) {
        System.out.printf(Locale.ROOT, "%s: %d nodes, one job of %d maps, %d idle applications ...%n", scheduler, nodes,
            maps, idle);
        Result r = run(scheduler, new Shape(nodes, 1, maps), idle, true, out.resolve("work"));
        String row = String.format(Locale.ROOT,
            "| %s | %,d | %.1f | %.0f | %.0f | %,.0f | %s | %d | %d | %.1f%% / %.1f%% / %.1f%% |",
            scheduler, idle, r.emptyHeartbeatP50(), r.p50(), r.p99(), r.maxHeartbeatMicros(), r.maxLockHold(),
            r.placedRound(), r.rounds(),
            100.0 * r.local() / maps, 100.0 * r.rack() / maps, 100.0 * r.off() / maps);
        System.out.println("  " + row);
        sb.append(row).append('\n');
      }
    }
    System.out.println();
    System.out.println(sb);
    Files.writeString(out.resolve("idle-apps.md"), sb.toString());
  }

  private static Map<String, String> parse(String[] args) {
    Map<String, String> m = new HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      if (!args[i].startsWith("--")) {
        throw new IllegalArgumentException("rm-bench: expected --option value, got '" + args[i] + "'");
      }
      m.put(args[i].substring(2), args[i + 1]);
    }
    return m;
  }

  static Class<? extends ResourceScheduler> schedulerClass(String variant) {
    String name = variant.split(":", 2)[0];
    return switch (name) {
      case "dataloc-bar", "dataloc-flow" -> TimedSchedulers.Dataloc.class;
      case "capacity" -> TimedSchedulers.Capacity.class;
      case "capacity-dataloc" -> TimedSchedulers.CapacityDataloc.class;
      case "fair" -> TimedSchedulers.Fair.class;
      default -> throw new IllegalArgumentException("rm-bench: unknown scheduler '" + name
          + "' (dataloc-bar, dataloc-flow, capacity, capacity-dataloc, fair)");
    };
  }

  /**
   * Each scheduler's settings. The CapacityScheduler schedules on heartbeats here (asynchronous
   * scheduling, on by default in Hadoop 3.5, would allocate on threads this clock does not time),
   * so its allocation work is measured as Dataloc's is.
   */
  static Map<String, String> settings(String variant) {
    String[] parts = variant.split(":", 2);
    Map<String, String> m = new HashMap<>(base(parts[0]));
    if (parts.length == 2) {
      for (String kv : parts[1].split(",")) {
        String[] p = kv.split("=", 2);
        if (p.length != 2 || !parts[0].contains("dataloc")) {
          throw new IllegalArgumentException("rm-bench: a variant is SCHEDULER:KEY=VALUE,... of a Dataloc scheduler, not '"
              + variant + "'");
        }
        m.put("yarn.scheduler.dataloc." + p[0], p[1]);
      }
    }
    return m;
  }

  private static Map<String, String> base(String name) {
    String async = "yarn.scheduler.capacity.schedule-asynchronously.enable";
    if (name.equals("capacity-dataloc")) {
      return Map.of("yarn.scheduler.app-placement-allocator.class",
          io.dataloc.yarn.cs.DatalocPlacementAllocator.class.getName(), async, "false");
    }
    if (name.equals("capacity")) {
      return Map.of(async, "false");
    }
    return name.startsWith("dataloc-") ? Map.of("yarn.scheduler.dataloc.assigner", name.substring(8)) : Map.of();
  }

  static Result run(String scheduler, Shape shape, Path work) throws Exception {
    return run(scheduler, shape, 0, false, work);
  }

  /**
   * As {@link #run(String, Shape, Path)}, with {@code idle} applications beside the jobs: each has
   * its AM running and asks for nothing more (a job in its reduce phase with every container it
   * wants, a long-running service), as a shared RM holds hundreds of. With {@code awaitPlans}, the
   * rounds start once Dataloc has planned every job (otherwise how many rounds pass while the
   * plans are made depends on how long a round takes).
   */
  static Result run(String scheduler, Shape shape, int idle, boolean awaitPlans, Path work) throws Exception {
    Map<String, String> topology = Scenarios.racks(shape.nodes(), 40);
    Path dir = work.resolve(scheduler + "-" + shape.nodes() + "-" + idle);
    MiniMr.deleteQuietly(dir);
    Map<String, String> settings = new HashMap<>(settings(scheduler));
    if (idle > 0 || shape.apps() > 100) {
      // Room for every AM (idle ones, or thousands of jobs in their map phase at once): their
      // containers are what is measured around, not the AM limit.
      settings.put("yarn.scheduler.dataloc.maximum-am-resource-percent", "1.0");
      settings.put("yarn.scheduler.capacity.maximum-am-resource-percent", "1.0");
    }
    try (MiniMr c = MiniMr.start(schedulerClass(scheduler), settings, topology, 8192, dir)) {
      List<MockNM> all = c.nodeList();
      for (int i = 0; i < idle; i++) {
        MockRM.launchAndRegisterAM(c.submit("idle" + (i % 8), null), c.rm, all.get(i % all.size()));
      }
      List<MrJob> jobs = new ArrayList<>();
      for (int a = 0; a < shape.apps(); a++) {
        List<List<String>> splits = Scenarios.hdfs(shape.tasksPerApp(), topology, 1000L * shape.nodes() + a);
        RMApp app = c.submit("user" + (a % 4), splits);
        jobs.add(c.launch(app, "h" + (1 + (long) a * shape.nodes() / shape.apps()), splits));
      }
      var csPlans = c.rm.getResourceScheduler() instanceof io.dataloc.yarn.cs.DatalocCapacityScheduler d ? d.plans()
          : null;
      if (awaitPlans && csPlans != null) {
        for (int i = 0; i < 6000 && jobs.stream().anyMatch(j -> {
          String p = csPlans.phaseOf(j.applicationId());
          return "reading".equals(p) || "planning".equals(p);
        }); i++) {
          Thread.sleep(10);
        }
      }
      if (awaitPlans && c.rm.getResourceScheduler() instanceof LocalityScheduler s) {
        for (int i = 0; i < 6000 && s.reports().jobs().stream().anyMatch(
            j -> j.phase().equals("reading") || j.phase().equals("planning")); i++) {
          Thread.sleep(10);
        }
      }
      SchedulerClock.reset();
      if (c.rm.getResourceScheduler() instanceof LocalityScheduler s) {
        s.reports().resetLockHolds(); // node registration and submission are not what is measured
      }
      if (csPlans != null) {
        csPlans.resetHolds();
      }
      long t0 = System.nanoTime();
      double placeWall = -1;
      int placedRound = -1;
      int round = 0;
      Map<String, List<ContainerStatus>> finished = new HashMap<>();
      List<MockNM> nodes = c.nodeList();
      while (round < 500) {
        round++;
        for (MrJob j : jobs) {
          j.heartbeat();
        }
        for (MockNM nm : nodes) {
          nm.nodeHeartbeat(finished.getOrDefault(nm.getNodeId().getHost(), List.of()), true);
        }
        c.rm.drainEvents();
        Map<String, List<ContainerStatus>> next = new HashMap<>();
        boolean allPlaced = true;
        boolean allDone = true;
        for (MrJob j : jobs) {
          j.heartbeat();
          j.finishRound().forEach((h, l) -> next.computeIfAbsent(h, k -> new ArrayList<>()).addAll(l));
          allPlaced &= j.pendingMaps() == 0;
          allDone &= j.finished();
        }
        finished = next;
        if (allPlaced && placedRound < 0) {
          placedRound = round;
          placeWall = (System.nanoTime() - t0) / 1e9;
        }
        if (allDone) {
          break;
        }
      }
      int local = 0;
      int rack = 0;
      int off = 0;
      long allocations = shape.apps();
      Map<String, Integer> perHost = new HashMap<>();
      for (MrJob j : jobs) {
        local += j.dataLocal();
        rack += j.atLevel(1);
        off += j.atLevel(2);
        allocations += j.splits.size() + j.released;
        j.perHost().forEach((h, n) -> perHost.merge(h, n, Integer::sum));
      }
      int max = perHost.values().stream().mapToInt(Integer::intValue).max().orElse(0);
      if (c.rm.getResourceScheduler() instanceof LocalityScheduler s && s.datalocMetrics().errors() > 0) {
        throw new IllegalStateException(scheduler + " caught " + s.datalocMetrics().errors() + " errors");
      }
      if (csPlans != null && csPlans.metrics().errors() > 0) {
        throw new IllegalStateException(scheduler + " caught " + csPlans.metrics().errors() + " errors");
      }
      long[] holdNanos = c.rm.getResourceScheduler() instanceof LocalityScheduler s ? s.reports().maxLockHoldNanos()
          : csPlans != null ? csPlans.maxHoldNanos() : null;
      String hold = holdNanos == null ? "not measured"
          : String.format(Locale.ROOT, "%.2f / %.2f ms", holdNanos[0] / 1e6, holdNanos[1] / 1e6);
      if (csPlans != null) {
        System.out.println("  plan lock holds: " + csPlans.holds());
      }
      if (c.rm.getResourceScheduler() instanceof LocalityScheduler s) {
        System.out.println("  lock holds: " + s.reports().lockHolds());
      }
      double p50 = SchedulerClock.heartbeatMicros(0.5);
      double p99 = SchedulerClock.heartbeatMicros(0.99);
      double maxHeartbeat = SchedulerClock.heartbeatMicros(1.0);
      int heartbeats = SchedulerClock.heartbeats();
      double schedulerSeconds = SchedulerClock.schedulerSeconds();
      System.out.printf(Locale.ROOT, "  scheduler time: %.2f s wall, %.2f s CPU%n", schedulerSeconds,
          SchedulerClock.schedulerCpuSeconds());
      // Then heartbeats with nothing left to run: what walking the applications costs by itself.
      SchedulerClock.reset();
      for (int r = 0; r < 10; r++) {
        for (MockNM nm : nodes) {
          nm.nodeHeartbeat(true);
        }
        c.rm.drainEvents();
      }
      return new Result(scheduler, shape, p50, p99, heartbeats, schedulerSeconds, allocations, placedRound, round,
          placeWall, local, rack, off, max, maxHeartbeat, hold, SchedulerClock.heartbeatMicros(0.5));
    }
  }

  static String row(Result r) {
    int n = r.shape().tasks();
    return String.format(Locale.ROOT,
        "| %,d | %,d | %s | %.0f | %.0f | %,.0f | %s | %,.0f | %d | %.1f%% / %.1f%% / %.1f%% | %d (ideal %d) |",
        r.shape().nodes(), n, r.scheduler(), r.p50(), r.p99(), r.maxHeartbeatMicros(), r.maxLockHold(),
        r.allocations() / r.schedulerSeconds(), r.placedRound(), 100.0 * r.local() / n, 100.0 * r.rack() / n,
        100.0 * r.off() / n, r.maxOnHost(), r.ideal());
  }

  static String table(List<Result> results) {
    StringBuilder sb = new StringBuilder();
    sb.append("| nodes | maps | scheduler | heartbeat p50 µs | heartbeat p99 µs | heartbeat max µs | longest lock hold (wall / CPU)"
        + " | allocations / s of scheduler time | rounds to place every map | node / rack / off-switch"
        + " | most maps on a host |\n");
    sb.append("|---:|---:|---|---:|---:|---:|---:|---:|---:|---|---|\n");
    for (Result r : results) {
      sb.append(row(r)).append('\n');
    }
    return sb.toString();
  }

  /**
   * One job of {@code tasks} maps on {@code nodes} nodes under Dataloc (bar): how long the plan
   * took, with which planner (the fallback if the budget ran out), and how many node heartbeats the
   * scheduler served while it was being made.
   */
  static String plannerScale(int nodes, int tasks, Path work) throws Exception {
    Map<String, String> topology = Scenarios.racks(nodes, 40);
    Path dir = work.resolve("planner-scale");
    MiniMr.deleteQuietly(dir);
    System.out.printf(Locale.ROOT, "planner scale: one job of %,d maps on %,d nodes ...%n", tasks, nodes);
    try (MiniMr c = MiniMr.start(TimedSchedulers.Dataloc.class, settings("dataloc-bar"), topology, 8192, dir)) {
      List<List<String>> splits = Scenarios.hdfs(tasks, topology, 42);
      LocalityScheduler s = (LocalityScheduler) c.rm.getResourceScheduler();
      // A job of a tenth the size first (warm-up, as in any RM that has planned before); it stays
      // queued, so the measured plan is made against a cluster that already holds work.
      c.submit("bob", Scenarios.hdfs(tasks / 10, topology, 41));
      for (int i = 0; i < 1000 && !s.reports().jobs().get(0).phase().equals("planned")
          && !s.reports().jobs().get(0).phase().equals("online"); i++) {
        for (MockNM nm : c.nodeList()) {
          nm.nodeHeartbeat(true);
        }
        c.rm.drainEvents();
      }
      SchedulerClock.reset();
      s.reports().resetLockHolds();
      RMApp app = c.submit("alice", splits);
      // From submission on, the nodes keep heartbeating while the split file is read and planned.
      int servedWhilePlanning = 0;
      int roundsWhilePlanning = 0;
      List<MockNM> nodeList = c.nodeList();
      for (int round = 0; round < 1000; round++) {
        String phase = s.reports().jobs().get(1).phase();
        if (!phase.equals("reading") && !phase.equals("planning")) {
          break;
        }
        int before = SchedulerClock.heartbeats();
        for (MockNM nm : nodeList) {
          nm.nodeHeartbeat(true);
        }
        c.rm.drainEvents();
        servedWhilePlanning += SchedulerClock.heartbeats() - before;
        roundsWhilePlanning++;
      }
      // Until the plan is in: the last chunks may enter after the phase reads "planned".
      for (int round = 0; round < 50; round++) {
        for (MockNM nm : nodeList) {
          nm.nodeHeartbeat(true);
        }
        c.rm.drainEvents();
      }
      var report = s.reports().jobs().get(1);
      String holds = s.reports().lockHolds();
      // Then the job is killed, its maps running or queued: its removal, and the heartbeats after,
      // which release the rest of its tasks a part at a time.
      s.reports().resetLockHolds();
      c.rm.killApp(app.getApplicationId());
      c.rm.waitForState(app.getApplicationId(), RMAppState.KILLED);
      for (int round = 0; round < 5; round++) {
        for (MockNM nm : nodeList) {
          nm.nodeHeartbeat(true);
        }
        c.rm.drainEvents();
      }
      String killed = s.reports().lockHolds();
      return String.format(Locale.ROOT,
          "Planner scale: %,d maps on %,d nodes: phase %s, planner %s, plan %.0f ms (budget %d ms), plan makespan %.0f"
              + " against lower bound %.0f, %d%% of maps planned data-local; %,d node heartbeats served in %d rounds"
              + " while the plan was read and made (heartbeat p99 %.0f µs, max %.0f µs); scheduler lock: %s."
              + " Killed then, with five rounds of heartbeats after: scheduler lock: %s.%n",
          tasks, nodes, report.phase(), report.planner(), report.planMillis(), s.settings().planBudgetMs(),
          report.plan() == null ? 0.0 : report.plan().makespan() / 1000.0,
          report.plan() == null ? 0.0 : report.plan().lowerBound() / 1000.0,
          report.plan() == null ? 0 : 100 * report.plan().local() / tasks, servedWhilePlanning, roundsWhilePlanning,
          SchedulerClock.heartbeatMicros(0.99), SchedulerClock.heartbeatMicros(1.0), holds, killed);
    }
  }
}
