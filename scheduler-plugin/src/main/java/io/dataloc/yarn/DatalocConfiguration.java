package io.dataloc.yarn;

import io.dataloc.core.jobs.JobOrderings;
import io.dataloc.core.model.CostModel;
import io.dataloc.core.model.Units;
import io.dataloc.core.offline.Assigners;
import io.dataloc.core.online.OnlinePolicies;
import io.dataloc.yarn.DatalocKeys.Key;
import java.math.BigDecimal;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.hadoop.conf.Configuration;

/**
 * Every Dataloc setting read: one validation per key of {@link DatalocKeys}, one immutable result.
 * An invalid value is an
 * {@link IllegalArgumentException} naming the key, the value and what is allowed; the scheduler
 * turns it into a failed start (or a refused {@code -refreshQueues}).
 */
public final class DatalocConfiguration {
  /**
   * The keys a refresh ({@code -refreshQueues}) may not change, with the setting each gives: the
   * calculator, the placement threads and their queue are made at start; the map priority names
   * the request keys already attached and tied (a change would split them).
   */
  public static final Map<Key, Function<Settings, Object>> START_ONLY = Map.of(
      DatalocKeys.RESOURCE_CALCULATOR, Settings::dominantResources,
      DatalocKeys.PLACEMENT_THREADS, s -> s.bounds().placementThreads(),
      DatalocKeys.PLACEMENT_MAX_WAITING, s -> s.bounds().maxWaiting(),
      DatalocKeys.MAP_PRIORITY, Settings::mapPriority);

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
          + "and vcores (" + DatalocKeys.RESOURCE_CALCULATOR.fullName() + "); the " + types
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
    for (Map.Entry<Key, Function<Settings, Object>> e : START_ONLY.entrySet()) {
      if (!e.getValue().apply(next).equals(e.getValue().apply(current))) {
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
    String assigner = choice(conf, DatalocKeys.ASSIGNER, v -> {
      Assigners.create(v, io.dataloc.core.offline.AssignerOptions.defaults());
      return v;
    });
    String fallback = choice(conf, DatalocKeys.FALLBACK_ASSIGNER, v -> {
      if (!v.equals("none")) {
        Assigners.create(v, io.dataloc.core.offline.AssignerOptions.defaults());
      }
      return v;
    });
    String policy = choice(conf, DatalocKeys.POLICY, v -> {
      OnlinePolicies.create(v, 0, 0);
      return v;
    });
    String ordering = choice(conf, DatalocKeys.ORDERING, v -> {
      JobOrderings.create(v);
      return v;
    });
    String amAdmission = choice(conf, DatalocKeys.AM_ADMISSION, v -> {
      JobOrderings.create(v);
      return v;
    });
    long local = units(conf, DatalocKeys.COST_LOCAL);
    long rack = units(conf, DatalocKeys.COST_RACK);
    long remote = units(conf, DatalocKeys.COST_REMOTE);
    long congestion = units(conf, DatalocKeys.COST_CONGESTION);
    long linkCongestion = units(conf, DatalocKeys.COST_LINK_CONGESTION);
    if (local <= 0) {
      throw bad(DatalocKeys.COST_LOCAL, get(conf, DatalocKeys.COST_LOCAL), "must be > 0");
    }
    if (rack < local) {
      throw bad(DatalocKeys.COST_RACK, get(conf, DatalocKeys.COST_RACK), "must be >= " + DatalocKeys.COST_LOCAL.fullName() + " (" + Units.format(local) + ")");
    }
    if (remote < rack) {
      throw bad(DatalocKeys.COST_REMOTE, get(conf, DatalocKeys.COST_REMOTE), "must be >= " + DatalocKeys.COST_RACK.fullName() + " (" + Units.format(rack) + ")");
    }
    if (congestion < 0) {
      throw bad(DatalocKeys.COST_CONGESTION, get(conf, DatalocKeys.COST_CONGESTION), "must be >= 0");
    }
    if (linkCongestion < 0 || linkCongestion > Units.of(1000)) {
      throw bad(DatalocKeys.COST_LINK_CONGESTION, get(conf, DatalocKeys.COST_LINK_CONGESTION), "must be 0 to 1000");
    }
    long alpha = rate(conf, DatalocKeys.RATE_LOCAL);
    long beta = rate(conf, DatalocKeys.RATE_RACK);
    long gamma = rate(conf, DatalocKeys.RATE_REMOTE);
    if (beta > alpha) {
      throw bad(DatalocKeys.RATE_RACK, get(conf, DatalocKeys.RATE_RACK), "must be <= " + DatalocKeys.RATE_LOCAL.fullName());
    }
    if (gamma > beta) {
      throw bad(DatalocKeys.RATE_REMOTE, get(conf, DatalocKeys.RATE_REMOTE), "must be <= " + DatalocKeys.RATE_RACK.fullName());
    }
    int learn = (int) range(conf, DatalocKeys.LEARN_SAMPLES, 0, 1_000_000);
    long budget = range(conf, DatalocKeys.PLAN_BUDGET, 10, 600_000);
    int maxTasks = (int) range(conf, DatalocKeys.PLAN_MAX_TASKS, 0, 10_000_000);
    Set<String> sources = new LinkedHashSet<>();
    for (String s : get(conf, DatalocKeys.SOURCES).split(",")) {
      String v = s.trim().toLowerCase(Locale.ROOT);
      if (!List.of("split-metainfo", "input-hint", "asks").contains(v)) {
        throw bad(DatalocKeys.SOURCES, get(conf, DatalocKeys.SOURCES), "allowed: " + DatalocKeys.SOURCES.allowed());
      }
      sources.add(v);
    }
    String hintEnv = get(conf, DatalocKeys.HINT_ENV).trim();
    if (!hintEnv.matches("[A-Za-z_][A-Za-z0-9_]*")) {
      throw bad(DatalocKeys.HINT_ENV, hintEnv, "must be an environment variable name");
    }
    long readTimeout = range(conf, DatalocKeys.READ_TIMEOUT, 100, 600_000);
    int mapPriority = (int) range(conf, DatalocKeys.MAP_PRIORITY, 0, 1000);
    int nodeDelay = (int) range(conf, DatalocKeys.NODE_DELAY, 0, 1_000_000);
    int rackDelay = (int) range(conf, DatalocKeys.RACK_DELAY, 0, 1_000_000);
    long seed = range(conf, DatalocKeys.SEED, Long.MIN_VALUE, Long.MAX_VALUE);
    String stagingRoot = get(conf, DatalocKeys.STAGING_ROOT).trim();
    if (!stagingRoot.isEmpty() && !stagingRoot.startsWith("/")) {
      throw bad(DatalocKeys.STAGING_ROOT, stagingRoot, "must be empty or an absolute path");
    }
    PlacementBounds bounds = new PlacementBounds(range(conf, DatalocKeys.MAX_FILE_BYTES, 1024, Integer.MAX_VALUE),
        (int) range(conf, DatalocKeys.MAX_SPLITS, 1, 10_000_000), (int) range(conf, DatalocKeys.MAX_HOSTS_PER_SPLIT, 1, 10_000),
        (int) range(conf, DatalocKeys.MAX_HOST_LENGTH, 1, 65_535), (int) range(conf, DatalocKeys.MAX_LISTING, 1, 10_000_000),
        range(conf, DatalocKeys.MAX_JOB_CONF_BYTES, 1024, 1L << 30), stagingRoot, (int) range(conf, DatalocKeys.PLACEMENT_THREADS, 1, 64),
        (int) range(conf, DatalocKeys.PLACEMENT_MAX_WAITING, 1, 1_000_000), range(conf, DatalocKeys.MAX_BYTES_IN_FLIGHT, 1L << 20, 16L << 30),
        (int) range(conf, DatalocKeys.ONLINE_MAX_PENDING, 1, 1_000_000));
    long amPermille = rate(conf, DatalocKeys.AM_RESOURCE_PERCENT);
    String aclSubmit = acl(conf, DatalocKeys.ACL_SUBMIT);
    String aclAdminister = acl(conf, DatalocKeys.ACL_ADMINISTER);
    return Settings.builder().assigner(assigner).fallbackAssigner(fallback).policy(policy).ordering(ordering)
        .cost(CostModel.of(local, rack, remote, congestion, linkCongestion)).alpha(alpha).beta(beta).gamma(gamma)
        .learnSamples(learn).planBudgetMs(budget).planMaxTasks(maxTasks).sources(sources).hintEnv(hintEnv)
        .readTimeoutMs(readTimeout).mapPriority(mapPriority).nodeDelay(nodeDelay).rackDelay(rackDelay).seed(seed)
        .bounds(bounds).amResourcePermille(amPermille).aclSubmit(aclSubmit).aclAdminister(aclAdminister)
        .starvationRounds((int) range(conf, DatalocKeys.STARVATION, 0, 1_000_000))
        .recoveryMs(range(conf, DatalocKeys.RECOVERY, 0, 86_400_000))
        .costLearnSamples((int) range(conf, DatalocKeys.COST_LEARN_SAMPLES, 0, 1_000_000))
        .dominantResources(dominant(conf))
        .aclMaxPriority(PriorityAcl.check(get(conf, DatalocKeys.ACL_MAX_PRIORITY)))
        .amPlacementWaitMs(range(conf, DatalocKeys.AM_PLACEMENT_WAIT, 0, 600_000))
        .amAdmission(amAdmission)
        .csMaxWaitMs(range(conf, DatalocKeys.CS_MAX_WAIT, 0, 600_000))
        .csQueues(queues(conf))
        .heartbeatMaxContainers((int) range(conf, DatalocKeys.HEARTBEAT_MAX_CONTAINERS, 0, Heartbeat.MAX_CONTAINERS))
        .reduceMaxSharePermille(rate(conf, DatalocKeys.REDUCE_MAX_SHARE))
        .reducePriority((int) range(conf, DatalocKeys.REDUCE_PRIORITY, 0, 1000))
        .build();
  }

  /** {@code cs.queues}: empty for every queue ({@code *}). */
  private static Set<String> queues(Configuration conf) {
    String v = get(conf, DatalocKeys.CS_QUEUES).trim();
    Set<String> out = new LinkedHashSet<>();
    if (v.equals("*")) {
      return Set.of();
    }
    for (String q : v.split(",")) {
      String name = q.trim();
      if (name.isEmpty() || name.equals("*") || name.length() > 1024 || !name.matches("[A-Za-z0-9_.\\-]+")) {
        throw bad(DatalocKeys.CS_QUEUES, v, "allowed: " + DatalocKeys.CS_QUEUES.allowed());
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
    for (Key k : DatalocKeys.STANDALONE_ONLY) {
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
    String v = get(conf, DatalocKeys.RESOURCE_CALCULATOR).trim();
    switch (v) {
      case "memory":
      case "org.apache.hadoop.yarn.util.resource.DefaultResourceCalculator":
        return false;
      case "dominant":
      case "org.apache.hadoop.yarn.util.resource.DominantResourceCalculator":
        return true;
      default:
        throw bad(DatalocKeys.RESOURCE_CALCULATOR, v, "allowed: " + DatalocKeys.RESOURCE_CALCULATOR.allowed());
    }
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
