package io.dataloc.sim.online;

import io.dataloc.core.engine.Decision;
import io.dataloc.core.engine.DecisionEngine;
import io.dataloc.core.engine.JobState;
import io.dataloc.core.engine.PlanApplication;
import io.dataloc.core.engine.PlanInput;
import io.dataloc.core.offline.Assigner;
import io.dataloc.core.offline.AssignerOptions;
import io.dataloc.core.offline.Assigners;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A discrete-time cluster driving a {@link DecisionEngine}, as in Wang et al.'s model: time is
 * slotted; at the start of a slot jobs arrive and are routed, then every idle machine asks the
 * engine for a task (in a seeded random order), then every busy machine finishes its task with
 * probability α (local), β (rack-local) or γ (remote) — geometric service times. One slot per
 * machine (the papers' servers). Virtual time only; the one random source is seeded.
 *
 * <p>Arrivals are routed by the online policy, or, with {@link #planWith}, each job is planned on
 * arrival by an offline assigner against the hosts' current loads and its tasks enter the queues
 * where the plan put them, as the ResourceManager plans a MapReduce job (without the adapter's
 * host levelling and plan budget).
 */
public final class SlottedSimulator {
  /** A job arriving in a slot: its id, user, each task's replica hosts, and its priority (higher first). */
  public record Arrival(long id, String user, List<List<String>> tasks, int priority) {
    /** A job of the default priority, 0. */
    public Arrival(long id, String user, List<List<String>> tasks) {
      this(id, user, tasks, 0);
    }
  }

  /** Statistics of one run. */
  public static final class Stats {
    public final List<Integer> jobsInSystem = new ArrayList<>();
    public double jobDelaySum;
    public long jobsDone;
    public double taskDelaySum;
    public double taskWaitSum;
    public long tasksDone;
    public long local;
    public long rack;
    public long remote;
    public final Map<String, double[]> waitByUser = new HashMap<>();
    /**
     * Per job, as Song et al. average: each finished job's mean task wait (start − job arrival),
     * summed over jobs ({@code jobWaitSum / jobsDone}), and by user ({@code [sum, jobs]}).
     */
    public double jobWaitSum;
    public final Map<String, double[]> jobWaitByUser = new HashMap<>();
    /** Per user: {sum of finished jobs' delays (departure − arrival), jobs}. */
    public final Map<String, double[]> jobDelayByUser = new HashMap<>();
    public boolean abortedUnstable;
    public long slots;
  }

  private final DecisionEngine engine;
  private final int machines;
  private final long[] rate;
  private final SplittableRandom rnd;
  private final int[] busyTask;
  private final int[] busyLevel;
  private int measureFrom;
  /** Job id → {sum of its tasks' waits, tasks started}, for the per-job mean wait. */
  private final Map<Long, double[]> waitOfJob = new HashMap<>();
  private Assigner planner;

  /**
   * @param rate service probability per slot by level (local, rack, remote), in thousandths
   */
  public SlottedSimulator(DecisionEngine engine, int machines, long[] rate, long seed) {
    this.engine = engine;
    this.machines = machines;
    this.rate = rate.clone();
    this.rnd = new SplittableRandom(seed);
    busyTask = new int[machines];
    busyLevel = new int[machines];
    java.util.Arrays.fill(busyTask, -1);
  }

  /** Plans every arriving job with this assigner (seeded) instead of routing its tasks one by one. */
  public SlottedSimulator planWith(String assigner, long seed) {
    this.planner = Assigners.create(assigner, AssignerOptions.defaults().withSeed(seed));
    return this;
  }

  /**
   * Runs {@code slots} slots; {@code arrivals.apply(slot)} gives the jobs arriving in a slot.
   * Statistics (delays, locality) count jobs and tasks that depart in the second half; the run
   * stops early if more than {@code maxJobs} jobs are in the system (clearly unstable).
   */
  public Stats run(int slots, java.util.function.IntFunction<List<Arrival>> arrivals, int maxJobs,
      java.util.function.IntConsumer onSlot) {
    return run(slots, slots / 2, arrivals, maxJobs, onSlot);
  }

  /** As {@link #run(int, java.util.function.IntFunction, int, java.util.function.IntConsumer)},
   * counting statistics from slot {@code measureFrom} on. */
  public Stats run(int slots, int measureFrom, java.util.function.IntFunction<List<Arrival>> arrivals, int maxJobs,
      java.util.function.IntConsumer onSlot) {
    this.measureFrom = measureFrom;
    Stats st = new Stats();
    int[] order = new int[machines];
    for (int i = 0; i < machines; i++) {
      order[i] = i;
    }
    for (int slot = 0; slot < slots; slot++) {
      engine.advanceTo(slot);
      for (Arrival a : arrivals.apply(slot)) {
        submit(a);
        if (a.priority() != 0) {
          engine.setPriority(a.id(), a.priority());
        }
      }
      shuffle(order);
      for (int h : order) {
        if (busyTask[h] < 0) {
          Decision d = engine.onSlotFree(h);
          if (d != null) {
            busyTask[h] = d.task();
            busyLevel[h] = d.level().ordinal();
            if (slot >= measureFrom) {
              st.taskWaitSum += slot - engine.state().queuedAt(d.task());
              String user = engine.state().job(d.task()).user();
              double[] w = st.waitByUser.computeIfAbsent(user, k -> new double[2]);
              w[0] += slot - engine.state().job(d.task()).arrival();
              w[1]++;
            }
            double[] jw = waitOfJob.computeIfAbsent(engine.state().job(d.task()).id(), k -> new double[2]);
            jw[0] += slot - engine.state().job(d.task()).arrival();
            jw[1]++;
          }
        }
      }
      engine.advanceTo(slot + 1);
      for (int h = 0; h < machines; h++) {
        int t = busyTask[h];
        if (t >= 0 && rnd.nextLong(1000) < rate[busyLevel[h]]) {
          finish(st, h, t, slot, slots);
        }
      }
      st.jobsInSystem.add(engine.activeJobs());
      st.slots = slot + 1;
      if (onSlot != null) {
        onSlot.accept(slot);
      }
      if (engine.activeJobs() > maxJobs) {
        st.abortedUnstable = true;
        break;
      }
    }
    return st;
  }

  private void submit(Arrival a) {
    if (planner == null) {
      engine.submitJob(a.id(), a.user(), a.tasks());
      return;
    }
    PlanInput in = engine.planHosts(h -> 1).input(a.tasks());
    PlanApplication app = PlanApplication.prepare(a.id(), a.user(), in, planner.assign(in.problem()));
    while (!engine.applySome(app, Integer.MAX_VALUE)) {
      // all at once: no lock to share in a simulation
    }
  }

  private void finish(Stats st, int h, int t, int slot, int slots) {
    JobState j = engine.state().job(t);
    engine.taskFinished(t);
    busyTask[h] = -1;
    if (slot >= measureFrom) {
      st.tasksDone++;
      st.taskDelaySum += slot + 1 - j.arrival();
      switch (busyLevel[h]) {
        case 0 -> st.local++;
        case 1 -> st.rack++;
        default -> st.remote++;
      }
    }
    if (j.done() == j.total()) {
      engine.removeJob(j.id());
      double[] jw = waitOfJob.remove(j.id());
      if (slot >= measureFrom) {
        st.jobsDone++;
        st.jobDelaySum += slot + 1 - j.arrival();
        double[] jd = st.jobDelayByUser.computeIfAbsent(j.user(), k -> new double[2]);
        jd[0] += slot + 1 - j.arrival();
        jd[1]++;
        double mean = jw == null || jw[1] == 0 ? 0 : jw[0] / jw[1];
        st.jobWaitSum += mean;
        double[] u = st.jobWaitByUser.computeIfAbsent(j.user(), k -> new double[2]);
        u[0] += mean;
        u[1]++;
      }
    }
  }

  private void shuffle(int[] a) {
    for (int i = a.length - 1; i > 0; i--) {
      int k = rnd.nextInt(i + 1);
      int tmp = a[i];
      a[i] = a[k];
      a[k] = tmp;
    }
  }
}
