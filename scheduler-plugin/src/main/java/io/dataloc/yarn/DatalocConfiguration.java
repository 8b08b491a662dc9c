package io.dataloc.yarn;

import io.dataloc.core.engine.EngineConfig;
import io.dataloc.core.jobs.JobOrderings;
import io.dataloc.core.model.CostModel;
import io.dataloc.core.model.Units;
import io.dataloc.core.offline.Assigners;
import io.dataloc.core.online.OnlinePolicies;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.hadoop.conf.Configuration;

/**
 * Every Dataloc setting: one definition per key (name, default, what is allowed, what it does),
 * one validation, one immutable result. Keys live under {@value #PREFIX}. An invalid value is an
 * {@link IllegalArgumentException} naming the key, the value and what is allowed; the scheduler
 * turns it into a failed start (or a refused {@code -refreshQueues}).
 */
public final class DatalocConfiguration {
  public static final String PREFIX = "yarn.scheduler.dataloc.";

  /** One key. */
  public record Key(String name, String defaultValue, String allowed, String description) {
    public String fullName() {
      return PREFIX + name;
    }
  }

  public static final Key ASSIGNER = new Key("assigner", "bar",
      "round-robin, flow, bar, labl, labl:always, labl:+K, hungarian, hungarian:song",
      "offline assigner that plans a job's map tasks when their input blocks are known");
  public static final Key FALLBACK_ASSIGNER = new Key("plan.fallback-assigner", "round-robin",
      "an assigner name, or none", "cheaper assigner used when the main one exceeds the time budget");
  public static final Key POLICY = new Key("online-policy", "jsq-maxweight-steal",
      String.join(", ", OnlinePolicies.names()),
      "online policy: how queued tasks are routed and what a free container serves");
  public static final Key ORDERING = new Key("job-ordering", "fair", String.join(", ", JobOrderings.names()),
      "which job a free container serves first among those with work for it");
  public static final Key COST_LOCAL = new Key("cost.local", "1", "a number > 0, 3 decimals at most",
      "planning cost of a node-local map");
  public static final Key COST_RACK = new Key("cost.rack", "2", ">= cost.local",
      "planning cost of a rack-local map");
  public static final Key COST_REMOTE = new Key("cost.remote", "3", ">= cost.rack",
      "planning cost of an off-rack map");
  public static final Key COST_CONGESTION = new Key("cost.congestion", "0", ">= 0",
      "extra cost of every non-local map per non-local map in the job (BAR's C_rem(r))");
  public static final Key RATE_LOCAL = new Key("rate.local", "0.8", "0 < rate.remote <= rate.rack <= rate.local <= 1",
      "service rate α of local maps (MaxWeight, Balanced-PANDAS)");
  public static final Key RATE_RACK = new Key("rate.rack", "0.5", "see rate.local", "service rate β of rack-local maps");
  public static final Key RATE_REMOTE = new Key("rate.remote", "0.2", "see rate.local",
      "service rate γ of off-rack maps");
  public static final Key COST_LEARN_SAMPLES = new Key("cost.learn-samples", "3", "0 (off) or a whole number >= 1",
      "raise cost.rack and cost.remote to the ratio of observed map durations (away from the data against on it) "
          + "once local maps and maps of that level have this many samples each; never below the configured costs");
  public static final Key LEARN_SAMPLES = new Key("rate.learn-samples", "0", "0 (off) or a whole number >= 1",
      "learn rates from run times: this many finished local maps set the time scale, each level its own once sampled");
  public static final Key PLAN_BUDGET = new Key("plan.time-budget-ms", "2000", "10..600000",
      "time a plan may take: the assigner stops at it and the fallback assigner plans, within as much again "
          + "(past that, the job is served from its asks)");
  public static final Key PLAN_MAX_TASKS = new Key("plan.max-tasks", "200000", "0..10000000",
      "jobs with more maps are served online only (0 disables planning)");
  public static final Key SOURCES = new Key("placement.sources", "split-metainfo,input-hint,asks",
      "a comma list of split-metainfo, input-hint, asks", "where a job's per-task block hosts come from, in order");
  public static final Key HINT_ENV = new Key("placement.hint-env", "DATALOC_INPUT_PATHS", "an environment name",
      "AM environment variable holding comma-separated input paths (the input-hint source)");
  public static final Key READ_TIMEOUT = new Key("placement.read-timeout-ms", "10000", "100..600000",
      "how long reading a job's block locations may take before it is served online");
  public static final Key MAP_PRIORITY = new Key("map-priority", "20", "0..1000",
      "request priority of map tasks (the MapReduce AM uses 20)");
  public static final Key NODE_DELAY = new Key("delay.node", "3", ">= 0",
      "delay scheduling: opportunities a job skips before taking a rack-local container");
  public static final Key RACK_DELAY = new Key("delay.rack", "3", ">= 0",
      "delay scheduling: further opportunities before an off-rack container");
  public static final Key SEED = new Key("seed", "1", "a whole number", "the seed of every tie-break");
  public static final Key MAX_FILE_BYTES = new Key("placement.max-file-bytes", "67108864", "1024..2147483647",
      "a job.splitmetainfo larger than this is not read (the job is served from its asks)");
  public static final Key MAX_SPLITS = new Key("placement.max-splits", "200000", "1..10000000",
      "a job with more splits (or input-hint blocks) than this is not read (served from its asks)");
  public static final Key MAX_HOSTS_PER_SPLIT = new Key("placement.max-hosts-per-split", "64", "1..10000",
      "a split naming more hosts than this makes the file unread (served from its asks)");
  public static final Key MAX_HOST_LENGTH = new Key("placement.max-host-length", "255", "1..65535",
      "a host name longer than this (in bytes) makes the file unread (served from its asks)");
  public static final Key MAX_LISTING = new Key("placement.max-listing", "100000", "1..10000000",
      "an input hint listing more files than this is not used (served from its asks)");
  public static final Key MAX_JOB_CONF_BYTES = new Key("placement.max-job-conf-bytes", "16777216",
      "1024..1073741824", "a job.xml larger than this is not read (maps planned at the minimum allocation)");
  public static final Key STAGING_ROOT = new Key("placement.staging-root", "", "empty, or an absolute path",
      "if set, job files are read only under ROOT/USER/.staging/ (always: on the default file system, in a "
          + "USER/.staging/JOB directory of the submitting user)");
  public static final Key PLACEMENT_THREADS = new Key("placement.threads", "4", "1..64",
      "threads reading block placements; a read that never returns holds one of them");
  public static final Key PLACEMENT_MAX_WAITING = new Key("placement.max-waiting", "1000", "1..1000000",
      "jobs waiting for a placement read or a plan; more are served from their asks at once");
  public static final Key MAX_BYTES_IN_FLIGHT = new Key("placement.max-bytes-in-flight", "268435456",
      "1048576..17179869184", "heap all read placements waiting for the plan thread may hold together, in bytes; "
      + "a read that would pass it is served from its asks");
  public static final Key ONLINE_MAX_PENDING = new Key("online.max-pending-per-job", "1000", "1..1000000",
      "most engine tasks built from one job's asks at a time (the AM's ask count never sizes anything)");
  public static final Key AM_RESOURCE_PERCENT = new Key("maximum-am-resource-percent", "0.1", "0 < p <= 1",
      "share of the cluster's memory (the dominant share of memory and vcores with resource-calculator dominant) that "
          + "ApplicationMasters may hold, rounded up to a multiple of the minimum allocation as the CapacityScheduler "
          + "rounds it (one AM is always admitted)");
  public static final Key AM_PLACEMENT_WAIT = new Key("am.placement-wait-ms", "0", "0..600000 (0: first fit)",
      "an ApplicationMaster declines room on a node whose data live maps need more than a node with room has, for at "
          + "most this long, then takes any room");
  public static final Key AM_ADMISSION = new Key("am.admission-ordering", "fifo", String.join(", ", JobOrderings.names()),
      "which waiting ApplicationMaster the AM limit lets in next, among those of the highest application priority "
          + "(fifo: submission order, as the stock schedulers; bid: the highest wait over size, the job's maps, "
          + "a size not known counting as the median, over the user's running AMs)");
  public static final Key STARVATION = new Key("online.starvation-rounds", "2", "0..1000000 (0: off)",
      "a job with a map queued for a node that has had no container for this many rounds of decisions (a round: "
          + "as many as the cluster has slots) runs it there before the policy picks");
  public static final Key RECOVERY = new Key("error.recovery-ms", "60000", "0..86400000 (0: only -refreshQueues)",
      "after an error no application can be blamed for, plain locality scheduling for this long without a further "
          + "error, then the engine is rebuilt and jobs are planned again");
  public static final Key RESOURCE_CALCULATOR = new Key("resource-calculator", "memory",
      "memory (DefaultResourceCalculator), dominant (DominantResourceCalculator), or either class name",
      "what a container costs: memory only, or memory and vcores (and what fits is the dominant share), as the "
          + "CapacityScheduler's resource-calculator; read at start only");
  public static final Key ACL_SUBMIT = new Key("acl.submit-applications", "*",
      "a Hadoop ACL: users,... groups,... or *", "who may submit applications (enforced with yarn.acl.enable)");
  public static final Key ACL_ADMINISTER = new Key("acl.administer-queue", "*",
      "a Hadoop ACL: users,... groups,... or *",
      "who may administer the queue: kill or change others' applications (enforced with yarn.acl.enable)");

  public static final Key ACL_MAX_PRIORITY = new Key("acl.application-max-priority", "*",
      "* or groups [user=u1,u2 group=g1 max_priority=N default_priority=M] ..., as the CapacityScheduler's "
          + "acl_application_max_priority",
      "the highest priority each user or group may give an application (above it, submission and change are "
          + "refused), and the priority an application asking none gets (enforced with yarn.acl.enable)");

  public static final Key CS_MAX_WAIT = new Key("cs.max-wait-ms", "3000", "0..600000 (0: never declined)",
      "CapacityScheduler mode: how long a planned job's map key may decline nodes that its plan does not want "
          + "without getting a container; past it the job takes what the CapacityScheduler offers until its next "
          + "container");
  public static final Key CS_QUEUES = new Key("cs.queues", "*", "* or leaf queue names or paths, comma-separated",
      "CapacityScheduler mode: the queues whose jobs Dataloc plans (the others are scheduled as stock)");

  /** Keys of the standalone scheduler only: inside the CapacityScheduler its own settings rule (refused there). */
  public static final List<Key> STANDALONE_ONLY = List.of(ORDERING, AM_RESOURCE_PERCENT,
      AM_PLACEMENT_WAIT, AM_ADMISSION, STARVATION, RESOURCE_CALCULATOR, ACL_SUBMIT, ACL_ADMINISTER, ACL_MAX_PRIORITY,
      NODE_DELAY, RACK_DELAY);

  public static final List<Key> KEYS = List.of(ASSIGNER, FALLBACK_ASSIGNER, POLICY, ORDERING, COST_LOCAL, COST_RACK,
      COST_REMOTE, COST_CONGESTION, COST_LEARN_SAMPLES, RATE_LOCAL, RATE_RACK, RATE_REMOTE, LEARN_SAMPLES,
      PLAN_BUDGET, PLAN_MAX_TASKS, SOURCES, HINT_ENV, READ_TIMEOUT, MAP_PRIORITY, NODE_DELAY, RACK_DELAY, SEED, MAX_FILE_BYTES, MAX_SPLITS,
      MAX_HOSTS_PER_SPLIT, MAX_HOST_LENGTH, MAX_LISTING, MAX_JOB_CONF_BYTES, STAGING_ROOT, PLACEMENT_THREADS,
      PLACEMENT_MAX_WAITING, MAX_BYTES_IN_FLIGHT, ONLINE_MAX_PENDING, AM_RESOURCE_PERCENT, AM_PLACEMENT_WAIT, AM_ADMISSION,
      STARVATION, RECOVERY, RESOURCE_CALCULATOR,
      ACL_SUBMIT, ACL_ADMINISTER, ACL_MAX_PRIORITY, CS_MAX_WAIT, CS_QUEUES);

  /** What a job's files may cost the ResourceManager before a byte of them is believed. */
  public record Bounds(long maxFileBytes, int maxSplits, int maxHostsPerSplit, int maxHostLength, int maxListing,
      long maxJobConfBytes, String stagingRoot, int placementThreads, int maxWaiting, long maxBytesInFlight,
      int onlineMaxPending) {

    /** The defaults, for tests and tools. */
    public static Bounds defaults() {
      return load(new Configuration(false)).bounds();
    }
  }

  /** The validated settings. */
  public record Settings(
      String assigner, String fallbackAssigner, String policy, String ordering, CostModel cost, long alpha, long beta,
      long gamma, int learnSamples, long planBudgetMs, int planMaxTasks, Set<String> sources, String hintEnv,
      long readTimeoutMs, int mapPriority, int nodeDelay, int rackDelay, long seed, Bounds bounds,
      long amResourcePermille, String aclSubmit, String aclAdminister, int starvationRounds, long recoveryMs,
      int costLearnSamples, boolean dominantResources, String aclMaxPriority, long amPlacementWaitMs,
      String amAdmission, long csMaxWaitMs, Set<String> csQueues) {

    /** Whether a request key is MapReduce's map key ({@code map-priority}; any allocation request id). */
    public boolean isMapKey(org.apache.hadoop.yarn.server.scheduler.SchedulerRequestKey key) {
      return key != null && key.getPriority() != null && key.getPriority().getPriority() == mapPriority;
    }

    /** Whether Dataloc plans the jobs of this leaf queue (named by its short name or its path). */
    public boolean plansQueue(String leaf, String path) {
      return csQueues.isEmpty() || csQueues.contains(leaf) || path != null && csQueues.contains(path);
    }

    public EngineConfig engineConfig() {
      return new EngineConfig(policy, ordering, assigner, cost, alpha, beta, gamma, learnSamples, nodeDelay, rackDelay,
          planMaxTasks, seed, starvationRounds, costLearnSamples);
    }
  }

  private DatalocConfiguration() {}

  /**
   * The settings a ResourceManager starts with: every key valid, and no resource type beyond
   * memory and vcores (GPUs, FPGAs: refused here, not ignored later); else an error naming them.
   */
  static Settings atStart(Configuration conf) {
    Settings s;
    try {
      s = load(conf);
    } catch (IllegalArgumentException e) {
      throw new org.apache.hadoop.yarn.exceptions.YarnRuntimeException("Dataloc cannot start: " + e.getMessage(), e);
    }
    int types = org.apache.hadoop.yarn.util.resource.ResourceUtils.getNumberOfKnownResourceTypes();
    if (types > 2) {
      throw new org.apache.hadoop.yarn.exceptions.YarnRuntimeException("Dataloc cannot start: it schedules memory "
          + "and vcores (" + RESOURCE_CALCULATOR.fullName() + "); the " + types
          + " resource types of yarn.resource-types (GPUs, FPGAs, ...) are not supported");
    }
    return s;
  }

  /**
   * The settings of a refresh ({@code -refreshQueues}) of a ResourceManager running {@code current};
   * else an {@code IOException} "refused: ..." naming the bad key, or a key read at start only.
   */
  static Settings onRefresh(Configuration conf, Settings current) throws java.io.IOException {
    Settings next;
    try {
      next = load(conf);
    } catch (IllegalArgumentException e) {
      throw new java.io.IOException("refused: " + e.getMessage(), e);
    }
    // The calculator, the placement threads and their queue are made at start; the map priority
    // names the request keys already attached and tied (a change would split them).
    Map<Key, Boolean> changed = Map.of(RESOURCE_CALCULATOR, next.dominantResources() != current.dominantResources(),
        PLACEMENT_THREADS, next.bounds().placementThreads() != current.bounds().placementThreads(),
        PLACEMENT_MAX_WAITING, next.bounds().maxWaiting() != current.bounds().maxWaiting(),
        MAP_PRIORITY, next.mapPriority() != current.mapPriority());
    for (Map.Entry<Key, Boolean> e : changed.entrySet()) {
      if (e.getValue()) {
        throw new java.io.IOException("refused: " + e.getKey().fullName()
            + " is read at start only (restart the ResourceManager to change it)");
      }
    }
    return next;
  }

  /**
   * Reads and validates every key.
   *
   * @throws IllegalArgumentException naming the first bad key, its value and what is allowed
   */
  public static Settings load(Configuration conf) {
    String assigner = choice(conf, ASSIGNER, v -> {
      Assigners.create(v, io.dataloc.core.offline.AssignerOptions.defaults());
      return v;
    });
    String fallback = choice(conf, FALLBACK_ASSIGNER, v -> {
      if (!v.equals("none")) {
        Assigners.create(v, io.dataloc.core.offline.AssignerOptions.defaults());
      }
      return v;
    });
    String policy = choice(conf, POLICY, v -> {
      OnlinePolicies.create(v, 0, 0);
      return v;
    });
    String ordering = choice(conf, ORDERING, v -> {
      JobOrderings.create(v);
      return v;
    });
    String amAdmission = choice(conf, AM_ADMISSION, v -> {
      JobOrderings.create(v);
      return v;
    });
    long local = units(conf, COST_LOCAL);
    long rack = units(conf, COST_RACK);
    long remote = units(conf, COST_REMOTE);
    long congestion = units(conf, COST_CONGESTION);
    if (local <= 0) {
      throw bad(COST_LOCAL, get(conf, COST_LOCAL), "must be > 0");
    }
    if (rack < local) {
      throw bad(COST_RACK, get(conf, COST_RACK), "must be >= " + COST_LOCAL.fullName() + " (" + Units.format(local) + ")");
    }
    if (remote < rack) {
      throw bad(COST_REMOTE, get(conf, COST_REMOTE), "must be >= " + COST_RACK.fullName() + " (" + Units.format(rack) + ")");
    }
    if (congestion < 0) {
      throw bad(COST_CONGESTION, get(conf, COST_CONGESTION), "must be >= 0");
    }
    long alpha = rate(conf, RATE_LOCAL);
    long beta = rate(conf, RATE_RACK);
    long gamma = rate(conf, RATE_REMOTE);
    if (beta > alpha) {
      throw bad(RATE_RACK, get(conf, RATE_RACK), "must be <= " + RATE_LOCAL.fullName());
    }
    if (gamma > beta) {
      throw bad(RATE_REMOTE, get(conf, RATE_REMOTE), "must be <= " + RATE_RACK.fullName());
    }
    int learn = (int) range(conf, LEARN_SAMPLES, 0, 1_000_000);
    long budget = range(conf, PLAN_BUDGET, 10, 600_000);
    int maxTasks = (int) range(conf, PLAN_MAX_TASKS, 0, 10_000_000);
    Set<String> sources = new LinkedHashSet<>();
    for (String s : get(conf, SOURCES).split(",")) {
      String v = s.trim().toLowerCase(Locale.ROOT);
      if (!List.of("split-metainfo", "input-hint", "asks").contains(v)) {
        throw bad(SOURCES, get(conf, SOURCES), "allowed: " + SOURCES.allowed());
      }
      sources.add(v);
    }
    String hintEnv = get(conf, HINT_ENV).trim();
    if (!hintEnv.matches("[A-Za-z_][A-Za-z0-9_]*")) {
      throw bad(HINT_ENV, hintEnv, "must be an environment variable name");
    }
    long readTimeout = range(conf, READ_TIMEOUT, 100, 600_000);
    int mapPriority = (int) range(conf, MAP_PRIORITY, 0, 1000);
    int nodeDelay = (int) range(conf, NODE_DELAY, 0, 1_000_000);
    int rackDelay = (int) range(conf, RACK_DELAY, 0, 1_000_000);
    long seed = range(conf, SEED, Long.MIN_VALUE, Long.MAX_VALUE);
    String stagingRoot = get(conf, STAGING_ROOT).trim();
    if (!stagingRoot.isEmpty() && !stagingRoot.startsWith("/")) {
      throw bad(STAGING_ROOT, stagingRoot, "must be empty or an absolute path");
    }
    Bounds bounds = new Bounds(range(conf, MAX_FILE_BYTES, 1024, Integer.MAX_VALUE),
        (int) range(conf, MAX_SPLITS, 1, 10_000_000), (int) range(conf, MAX_HOSTS_PER_SPLIT, 1, 10_000),
        (int) range(conf, MAX_HOST_LENGTH, 1, 65_535), (int) range(conf, MAX_LISTING, 1, 10_000_000),
        range(conf, MAX_JOB_CONF_BYTES, 1024, 1L << 30), stagingRoot, (int) range(conf, PLACEMENT_THREADS, 1, 64),
        (int) range(conf, PLACEMENT_MAX_WAITING, 1, 1_000_000), range(conf, MAX_BYTES_IN_FLIGHT, 1L << 20, 16L << 30),
        (int) range(conf, ONLINE_MAX_PENDING, 1, 1_000_000));
    long amPermille = rate(conf, AM_RESOURCE_PERCENT);
    String aclSubmit = acl(conf, ACL_SUBMIT);
    String aclAdminister = acl(conf, ACL_ADMINISTER);
    return new Settings(assigner, fallback, policy, ordering, CostModel.of(local, rack, remote, congestion), alpha, beta,
        gamma, learn, budget, maxTasks, sources, hintEnv, readTimeout, mapPriority, nodeDelay, rackDelay, seed, bounds,
        amPermille, aclSubmit, aclAdminister, (int) range(conf, STARVATION, 0, 1_000_000),
        range(conf, RECOVERY, 0, 86_400_000), (int) range(conf, COST_LEARN_SAMPLES, 0, 1_000_000),
        dominant(conf), PriorityAcl.check(get(conf, ACL_MAX_PRIORITY)),
        range(conf, AM_PLACEMENT_WAIT, 0, 600_000), amAdmission, range(conf, CS_MAX_WAIT, 0, 600_000), queues(conf));
  }

  /** {@code cs.queues}: empty for every queue ({@code *}). */
  private static Set<String> queues(Configuration conf) {
    String v = get(conf, CS_QUEUES).trim();
    Set<String> out = new LinkedHashSet<>();
    if (v.equals("*")) {
      return Set.of();
    }
    for (String q : v.split(",")) {
      String name = q.trim();
      if (name.isEmpty() || name.equals("*") || name.length() > 1024 || !name.matches("[A-Za-z0-9_.\\-]+")) {
        throw bad(CS_QUEUES, v, "allowed: " + CS_QUEUES.allowed());
      }
      out.add(name);
    }
    return Set.copyOf(out);
  }

  /**
   * The settings a CapacityScheduler with Dataloc starts with: as {@link #atStart}, and no key of
   * the standalone scheduler set to anything but its default (the CapacityScheduler's own settings
   * rule there); else an error naming the key.
   */
  public static Settings insideCapacityScheduler(Configuration conf) {
    for (Key k : STANDALONE_ONLY) {
      String v = conf.getTrimmed(k.fullName());
      if (v != null && !v.isEmpty() && !v.equals(k.defaultValue())) {
        throw new org.apache.hadoop.yarn.exceptions.YarnRuntimeException("Dataloc cannot start inside the "
            + "CapacityScheduler: " + k.fullName() + " is a setting of the standalone scheduler only (the "
            + "CapacityScheduler's own queue settings decide this there); remove it");
      }
    }
    return atStart(conf);
  }

  private static boolean dominant(Configuration conf) {
    String v = get(conf, RESOURCE_CALCULATOR).trim();
    return switch (v) {
      case "memory", "org.apache.hadoop.yarn.util.resource.DefaultResourceCalculator" -> false;
      case "dominant", "org.apache.hadoop.yarn.util.resource.DominantResourceCalculator" -> true;
      default -> throw bad(RESOURCE_CALCULATOR, v, "allowed: " + RESOURCE_CALCULATOR.allowed());
    };
  }

  /** The reference table of the README, generated from the definitions. */
  public static String markdownTable() {
    List<String> lines = new ArrayList<>();
    lines.add("| key | default | allowed | what it does |");
    lines.add("|---|---|---|---|");
    for (Key k : KEYS) {
      lines.add("| `" + k.fullName() + "` | `" + k.defaultValue() + "` | " + k.allowed() + " | " + k.description() + " |");
    }
    return String.join("\n", lines);
  }

  private static String get(Configuration conf, Key k) {
    String v = conf.getTrimmed(k.fullName());
    return v == null || v.isEmpty() ? k.defaultValue() : v;
  }

  private static String choice(Configuration conf, Key k, Function<String, String> check) {
    String v = get(conf, k);
    try {
      return check.apply(v);
    } catch (IllegalArgumentException e) {
      throw bad(k, v, "allowed: " + k.allowed());
    }
  }

  private static long units(Configuration conf, Key k) {
    String v = get(conf, k);
    try {
      return Units.of(new BigDecimal(v));
    } catch (NumberFormatException e) {
      throw bad(k, v, "must be a number");
    } catch (IllegalArgumentException e) {
      throw bad(k, v, e.getMessage());
    }
  }

  private static long rate(Configuration conf, Key k) {
    String v = get(conf, k);
    try {
      BigDecimal d = new BigDecimal(v);
      if (d.signum() <= 0 || d.compareTo(BigDecimal.ONE) > 0) {
        throw bad(k, v, "must be in (0, 1]");
      }
      return Units.of(d);
    } catch (NumberFormatException e) {
      throw bad(k, v, "must be a number in (0, 1]");
    }
  }

  /** A Hadoop access control list ({@code "*"}, or users then groups, comma-separated). */
  private static String acl(Configuration conf, Key k) {
    String v = conf.get(k.fullName());
    v = v == null || v.isBlank() ? k.defaultValue() : v;
    if (v.length() > 65_536 || v.chars().anyMatch(c -> c == '\n' || c == '\r')) {
      throw bad(k, v.length() > 80 ? v.substring(0, 80) + "..." : v, "must be one line of at most 65536 characters");
    }
    new org.apache.hadoop.security.authorize.AccessControlList(v);
    return v;
  }

  private static long range(Configuration conf, Key k, long min, long max) {
    String v = get(conf, k);
    long n;
    try {
      n = Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw bad(k, v, "must be a whole number (" + k.allowed() + ")");
    }
    if (n < min || n > max) {
      throw bad(k, v, "allowed: " + k.allowed());
    }
    return n;
  }

  static IllegalArgumentException bad(Key k, String value, String why) {
    return new IllegalArgumentException(k.fullName() + " = '" + value + "' is invalid: " + why);
  }
}
