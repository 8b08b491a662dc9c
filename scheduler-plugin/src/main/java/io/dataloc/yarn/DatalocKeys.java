package io.dataloc.yarn;

import io.dataloc.core.jobs.JobOrderings;
import io.dataloc.core.online.OnlinePolicies;
import java.util.List;
import java.util.Objects;

/**
 * Every Dataloc setting's definition: name (under {@value #PREFIX}), default, what is allowed, what
 * it does, who sets it ({@link Tier}) and its unit. {@link DatalocConfiguration} reads and validates
 * them; {@link ReferenceDocs} writes the operators' reference from them.
 */
public final class DatalocKeys {
  public static final String PREFIX = "yarn.scheduler.dataloc.";

  /** Who sets a key: every operator, one who tunes the scheduler, or one who studies it. */
  public enum Tier {
    OPERATOR("Operator settings", "What every installation decides: who may submit, the AM limit, which queues are planned."),
    TUNING("Tuning", "Planning, serving and the bounds on what a job may cost the ResourceManager; the defaults suit most "
        + "clusters."),
    RESEARCH("Research", "The cost model and service rates of the algorithms, and the tie-break seed: for experiments.");

    private final String title;
    private final String about;

    Tier(String title, String about) {
      this.title = title;
      this.about = about;
    }

    public String title() {
      return title;
    }

    public String about() {
      return about;
    }
  }

  /** One key: its definition, its tier and unit (empty where it has none). */
  public static final class Key {
    private final String name;
    private final String defaultValue;
    private final String allowed;
    private final String description;
    private final Tier tier;
    private final String unit;

    public Key(String name, String defaultValue, String allowed, String description, Tier tier, String unit) {
      this.name = name;
      this.defaultValue = defaultValue;
      this.allowed = allowed;
      this.description = description;
      this.tier = tier;
      this.unit = unit;
    }

    public String name() {
      return name;
    }

    public String defaultValue() {
      return defaultValue;
    }

    public String allowed() {
      return allowed;
    }

    public String description() {
      return description;
    }

    public Tier tier() {
      return tier;
    }

    public String unit() {
      return unit;
    }

    /** A tuning key without a unit; {@link #operator}, {@link #research} and {@link #unit} say otherwise. */
    public Key(String name, String defaultValue, String allowed, String description) {
      this(name, defaultValue, allowed, description, Tier.TUNING, "");
    }

    public String fullName() {
      return PREFIX + name;
    }

    Key operator() {
      return new Key(name, defaultValue, allowed, description, Tier.OPERATOR, unit);
    }

    Key research() {
      return new Key(name, defaultValue, allowed, description, Tier.RESEARCH, unit);
    }

    Key unit(String u) {
      return new Key(name, defaultValue, allowed, description, tier, u);
    }

    @Override
    public boolean equals(Object o) {
      if (o == this) {
        return true;
      }
      if (!(o instanceof Key)) {
        return false;
      }
      Key that = (Key) o;
      return Objects.equals(name, that.name)
          && Objects.equals(defaultValue, that.defaultValue)
          && Objects.equals(allowed, that.allowed)
          && Objects.equals(description, that.description)
          && Objects.equals(tier, that.tier)
          && Objects.equals(unit, that.unit);
    }

    @Override
    public int hashCode() {
      return Objects.hash(name, defaultValue, allowed, description, tier, unit);
    }

    @Override
    public String toString() {
      return "Key[name=" + name
          + ", defaultValue=" + defaultValue
          + ", allowed=" + allowed
          + ", description=" + description
          + ", tier=" + tier
          + ", unit=" + unit + "]";
    }
  }

  public static final Key ASSIGNER = new Key("assigner", "bar",
      "round-robin, flow, bar, labl, labl:always, labl:+K, hungarian, hungarian:song",
      "offline assigner that plans a job's map tasks when their input blocks are known");
  public static final Key FALLBACK_ASSIGNER = new Key("plan.fallback-assigner", "round-robin",
      "an assigner name, or none", "cheaper assigner used when the main one exceeds the time budget");
  public static final Key POLICY = new Key("online-policy", "break-even",
      String.join(", ", OnlinePolicies.names()),
      "online policy: how queued tasks are routed and what a free container serves");
  public static final Key ORDERING = new Key("job-ordering", "fair", String.join(", ", JobOrderings.names()),
      "which job a free container serves first among those with work for it; unless fifo, a job past its maps"
          + " holding more than an equal share of the cluster, or of the lowest priority while a job of a higher one"
          + " asks for maps, also loses its reduces' precedence over other jobs' maps");
  public static final Key REDUCE_MAX_SHARE = new Key("reduce.max-share", "0.5", "0 < f <= 1 (1: off)",
      "while other applications are in the scheduler, a job of the lowest application priority among them that has "
          + "run a container at map-priority (or is a MapReduce job recovered after a restart) and holds more than "
          + "this share of the cluster's memory, its "
          + "ApplicationMaster aside, gets no new container at reduce-priority, even where one is free: the rest "
          + "stays for jobs that arrive while a large job shuffles")
      .unit("fraction");
  public static final Key REDUCE_PRIORITY = new Key("reduce-priority", "10", "0..1000",
      "request priority of reduce tasks (the MapReduce AM uses 10; its retried maps, at 5, are never capped): the "
          + "requests reduce.max-share caps");
  public static final Key COST_LOCAL = new Key("cost.local", "1", "a number > 0, 3 decimals at most",
      "planning cost of a node-local map").research();
  public static final Key COST_RACK = new Key("cost.rack", "2", ">= cost.local",
      "planning cost of a rack-local map").research();
  public static final Key COST_REMOTE = new Key("cost.remote", "3", ">= cost.rack",
      "planning cost of an off-rack map").research();
  public static final Key COST_CONGESTION = new Key("cost.congestion", "0", ">= 0",
      "extra cost of every non-local map per non-local map in the job (BAR's C_rem(r))").research();
  public static final Key COST_LINK_CONGESTION = new Key("cost.link-congestion", "0", "0 to 1000, 3 decimals at most",
      "extra cost of a non-local map per map already running away from its data that may read through the least"
      + " busy link among its replica hosts, in plans and in break-even's wait (0: both ignore the links)").research();
  public static final Key RATE_LOCAL = new Key("rate.local", "0.8", "0 < rate.remote <= rate.rack <= rate.local <= 1",
      "service rate α of local maps (MaxWeight, Balanced-PANDAS)").research().unit("per tick");
  public static final Key RATE_RACK = new Key("rate.rack", "0.5", "see rate.local", "service rate β of rack-local maps").research().unit("per tick");
  public static final Key RATE_REMOTE = new Key("rate.remote", "0.2", "see rate.local",
      "service rate γ of off-rack maps").research().unit("per tick");
  public static final Key COST_LEARN_SAMPLES = new Key("cost.learn-samples", "3", "0 (off) or a whole number >= 1",
      "raise cost.rack and cost.remote to the ratio of observed map durations (away from the data against on it) "
          + "once local maps and maps of that level have this many samples each; never below the configured costs").research().unit("maps");
  public static final Key LEARN_SAMPLES = new Key("rate.learn-samples", "0", "0 (off) or a whole number >= 1",
      "learn rates from run times: this many finished local maps set the time scale, each level its own once sampled").research().unit("maps");
  public static final Key PLAN_BUDGET = new Key("plan.time-budget-ms", "2000", "10..600000",
      "time a plan may take: the assigner stops at it and the fallback assigner plans, within as much again "
          + "(past that, the job is served from its asks)").unit("ms");
  public static final Key PLAN_MAX_TASKS = new Key("plan.max-tasks", "200000", "0..10000000",
      "jobs with more maps are served online only (0 disables planning)").unit("maps");
  public static final Key SOURCES = new Key("placement.sources", "split-metainfo,input-hint,asks",
      "a comma list of split-metainfo, input-hint, asks", "where a job's per-task block hosts come from, in order");
  public static final Key HINT_ENV = new Key("placement.hint-env", "DATALOC_INPUT_PATHS", "an environment name",
      "AM environment variable holding comma-separated input paths (the input-hint source)");
  public static final Key READ_TIMEOUT = new Key("placement.read-timeout-ms", "10000", "100..600000",
      "how long reading a job's block locations may take before it is served online").unit("ms");
  public static final Key MAP_PRIORITY = new Key("map-priority", "20", "0..1000",
      "request priority of map tasks (the MapReduce AM uses 20)").operator();
  public static final Key NODE_DELAY = new Key("delay.node", "3", ">= 0",
      "delay scheduling: opportunities a job skips before taking a rack-local container").unit("scheduling opportunities");
  public static final Key RACK_DELAY = new Key("delay.rack", "3", ">= 0",
      "delay scheduling: further opportunities before an off-rack container").unit("scheduling opportunities");
  public static final Key SEED = new Key("seed", "1", "a whole number", "the seed of every tie-break").research();
  public static final Key MAX_FILE_BYTES = new Key("placement.max-file-bytes", "67108864", "1024..2147483647",
      "a job.splitmetainfo larger than this is not read (the job is served from its asks)").unit("bytes");
  public static final Key MAX_SPLITS = new Key("placement.max-splits", "200000", "1..10000000",
      "a job with more splits (or input-hint blocks) than this is not read (served from its asks)").unit("splits");
  public static final Key MAX_HOSTS_PER_SPLIT = new Key("placement.max-hosts-per-split", "64", "1..10000",
      "a split naming more hosts than this makes the file unread (served from its asks)").unit("hosts");
  public static final Key MAX_HOST_LENGTH = new Key("placement.max-host-length", "255", "1..65535",
      "a host name longer than this (in bytes) makes the file unread (served from its asks)").unit("bytes");
  public static final Key MAX_LISTING = new Key("placement.max-listing", "100000", "1..10000000",
      "an input hint listing more files than this is not used (served from its asks)").unit("files");
  public static final Key MAX_JOB_CONF_BYTES = new Key("placement.max-job-conf-bytes", "16777216",
      "1024..1073741824", "a job.xml larger than this is not read (maps planned at the minimum allocation)").unit("bytes");
  public static final Key STAGING_ROOT = new Key("placement.staging-root", "", "empty, or an absolute path",
      "if set, job files are read only under ROOT/USER/.staging/ (always: on the default file system, in a "
          + "USER/.staging/JOB directory of the submitting user)").operator();
  public static final Key PLACEMENT_THREADS = new Key("placement.threads", "4", "1..64",
      "threads reading block placements; a read that never returns holds one of them").unit("threads");
  public static final Key PLACEMENT_MAX_WAITING = new Key("placement.max-waiting", "1000", "1..1000000",
      "jobs waiting for a placement read or a plan; more are served from their asks at once").unit("jobs");
  public static final Key MAX_BYTES_IN_FLIGHT = new Key("placement.max-bytes-in-flight", "268435456",
      "1048576..17179869184", "heap all read placements waiting for the plan thread may hold together, in bytes; "
      + "a read that would pass it is served from its asks").unit("bytes");
  public static final Key ONLINE_MAX_PENDING = new Key("online.max-pending-per-job", "1000", "1..1000000",
      "most engine tasks built from one job's asks at a time (the AM's ask count never sizes anything)").unit("tasks");
  public static final Key AM_RESOURCE_PERCENT = new Key("maximum-am-resource-percent", "0.1", "0 < p <= 1",
      "share of the cluster's memory (the dominant share of memory and vcores with resource-calculator dominant) that "
          + "ApplicationMasters may hold, rounded up to a multiple of the minimum allocation as the CapacityScheduler "
          + "rounds it (one AM is always admitted)").operator().unit("fraction");
  public static final Key AM_PLACEMENT_WAIT = new Key("am.placement-wait-ms", "2000", "0..600000 (0: first fit)",
      "an ApplicationMaster declines room on a node whose data live maps need more than a node with room has, for at "
          + "most this long, then takes any room").unit("ms");
  public static final Key HEARTBEAT_MAX_CONTAINERS = new Key("heartbeat.max-containers", "0",
      "0..10000 (0: as many as fit)",
      "most containers one node heartbeat hands out, ApplicationMasters, maps and other work together, as the "
          + "CapacityScheduler's per-node-heartbeat.maximum-container-assignments and the FairScheduler's "
          + "assignmultiple (off: one) pace them; the rest wait for the node's next heartbeat").unit("containers");
  public static final Key AM_ADMISSION = new Key("am.admission-ordering", "fifo", String.join(", ", JobOrderings.names()),
      "which waiting ApplicationMaster the AM limit lets in next, among those of the highest application priority "
          + "(fifo: submission order, as the stock schedulers; bid: the highest wait over size, the job's maps, "
          + "a size not known counting as the median, over the user's running AMs; fair: as fifo, since no waiting "
          + "job runs anything)");
  public static final Key STARVATION = new Key("online.starvation-rounds", "2", "0..1000000 (0: off)",
      "a job with a map queued for a node that has had no container for this many rounds of decisions (a round: "
          + "as many as the cluster has slots) runs it there before the policy picks").unit("rounds");
  public static final Key RECOVERY = new Key("error.recovery-ms", "60000", "0..86400000 (0: only -refreshQueues)",
      "after an error no application can be blamed for, plain locality scheduling for this long without a further "
          + "error, then the engine is rebuilt and jobs are planned again").unit("ms");
  public static final Key RESOURCE_CALCULATOR = new Key("resource-calculator", "memory",
      "memory (DefaultResourceCalculator), dominant (DominantResourceCalculator), or either class name",
      "what a container costs: memory only, or memory and vcores (and what fits is the dominant share), as the "
          + "CapacityScheduler's resource-calculator; read at start only").operator();
  public static final Key ACL_SUBMIT = new Key("acl.submit-applications", "*",
      "a Hadoop ACL: users,... groups,... or *", "who may submit applications (enforced with yarn.acl.enable)").operator();
  public static final Key ACL_ADMINISTER = new Key("acl.administer-queue", "*",
      "a Hadoop ACL: users,... groups,... or *",
      "who may administer the queue: kill or change others' applications (enforced with yarn.acl.enable)").operator();

  public static final Key ACL_MAX_PRIORITY = new Key("acl.application-max-priority", "*",
      "* or groups [user=u1,u2 group=g1 max_priority=N default_priority=M] ..., as the CapacityScheduler's "
          + "acl_application_max_priority",
      "the highest priority each user or group may give an application (above it, submission and change are "
          + "refused), and the priority an application asking none gets (enforced with yarn.acl.enable)").operator();

  public static final Key CS_MAX_WAIT = new Key("cs.max-wait-ms", "3000", "0..600000 (0: never declined)",
      "CapacityScheduler mode: how long a planned job's map key may decline nodes that its plan does not want "
          + "without getting a container; past it the job takes what the CapacityScheduler offers until its next "
          + "container").operator().unit("ms");
  public static final Key CS_QUEUES = new Key("cs.queues", "*", "* or leaf queue names or paths, comma-separated",
      "CapacityScheduler mode: the queues whose jobs Dataloc plans (the others are scheduled as stock)").operator();

  /** Keys of the standalone scheduler only: inside the CapacityScheduler its own settings rule (refused there). */
  public static final List<Key> STANDALONE_ONLY = List.of(ORDERING, REDUCE_MAX_SHARE, REDUCE_PRIORITY, AM_RESOURCE_PERCENT,
      AM_ADMISSION, STARVATION, RESOURCE_CALCULATOR, ACL_SUBMIT, ACL_ADMINISTER, ACL_MAX_PRIORITY,
      NODE_DELAY, RACK_DELAY, HEARTBEAT_MAX_CONTAINERS);

  public static final List<Key> KEYS = List.of(ASSIGNER, FALLBACK_ASSIGNER, POLICY, ORDERING, REDUCE_MAX_SHARE, REDUCE_PRIORITY, COST_LOCAL, COST_RACK,
      COST_REMOTE, COST_CONGESTION, COST_LINK_CONGESTION, COST_LEARN_SAMPLES, RATE_LOCAL, RATE_RACK, RATE_REMOTE, LEARN_SAMPLES,
      PLAN_BUDGET, PLAN_MAX_TASKS, SOURCES, HINT_ENV, READ_TIMEOUT, MAP_PRIORITY, NODE_DELAY, RACK_DELAY, SEED, MAX_FILE_BYTES, MAX_SPLITS,
      MAX_HOSTS_PER_SPLIT, MAX_HOST_LENGTH, MAX_LISTING, MAX_JOB_CONF_BYTES, STAGING_ROOT, PLACEMENT_THREADS,
      PLACEMENT_MAX_WAITING, MAX_BYTES_IN_FLIGHT, ONLINE_MAX_PENDING, AM_RESOURCE_PERCENT, AM_PLACEMENT_WAIT, AM_ADMISSION,
      HEARTBEAT_MAX_CONTAINERS, STARVATION, RECOVERY, RESOURCE_CALCULATOR,
      ACL_SUBMIT, ACL_ADMINISTER, ACL_MAX_PRIORITY, CS_MAX_WAIT, CS_QUEUES);

  private DatalocKeys() {}
}
