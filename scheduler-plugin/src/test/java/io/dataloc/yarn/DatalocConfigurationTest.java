package io.dataloc.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/**
 * Every key: the default loads, another valid value reaches the settings, and an invalid value is
 * refused naming the key and what is allowed.
 */
class DatalocConfigurationTest {

  /**
   * Per key, one invalid value and one valid value other than the default (a test fails when a key
   * is added without them).
   */
  private static final Map<String, String> INVALID = new LinkedHashMap<>();
  private static final Map<String, String> OTHER = new LinkedHashMap<>();

  private static void example(String key, String invalid, String other) {
    INVALID.put(key, invalid);
    OTHER.put(key, other);
  }

  static {
    example("assigner", "magic", "flow");
    example("plan.fallback-assigner", "faster", "none");
    example("online-policy", "random", "jsq-maxweight-steal");
    example("job-ordering", "lifo", "bid");
    example("cost.local", "0", "0.5");
    example("cost.rack", "0.5", "2.5");
    example("cost.remote", "1.5", "4");
    example("cost.congestion", "-0.1", "1");
    example("cost.link-congestion", "1000.5", "1");
    example("rate.local", "1.5", "0.9");
    example("rate.rack", "0.9", "0.4");
    example("rate.remote", "0.6", "0.1");
    example("rate.learn-samples", "-3", "3");
    example("plan.time-budget-ms", "5", "1000");
    example("plan.max-tasks", "lots", "1000");
    example("placement.sources", "split-metainfo,hdfs", "asks");
    example("placement.hint-env", "INPUT PATHS", "OTHER_INPUT_PATHS");
    example("placement.read-timeout-ms", "99", "5000");
    example("map-priority", "1001", "21");
    example("delay.node", "-1", "1");
    example("delay.rack", "two", "2");
    example("seed", "0x1f", "7");
    example("placement.max-file-bytes", "100", "1048576");
    example("placement.max-splits", "0", "1000");
    example("placement.max-hosts-per-split", "10001", "8");
    example("placement.max-host-length", "-5", "100");
    example("placement.max-listing", "many", "1000");
    example("placement.max-job-conf-bytes", "2147483648", "1048576");
    example("placement.staging-root", "tmp/staging", "/tmp/staging");
    example("placement.threads", "65", "2");
    example("placement.max-waiting", "0", "10");
    example("placement.max-bytes-in-flight", "1024", "1048576");
    example("online.max-pending-per-job", "0", "10");
    example("maximum-am-resource-percent", "1.5", "0.2");
    example("reduce.max-share", "0", "0.25");
    example("reduce-priority", "-1", "11");
    example("am.placement-wait-ms", "600001", "0");
    example("am.admission-ordering", "sjf", "bid");
    example("heartbeat.max-containers", "10001", "5");
    example("online.starvation-rounds", "-1", "0");
    example("error.recovery-ms", "-5", "0");
    example("cost.learn-samples", "-1", "0");
    example("acl.submit-applications", "alice\nbob", "alice");
    example("acl.administer-queue", "root\radmins", "admins");
    example("resource-calculator", "org.apache.hadoop.yarn.util.resource.ResourceCalculator", "dominant");
    example("acl.application-max-priority", "[user=alice max-priority=3]", "[user=alice max_priority=3]");
    example("cs.max-wait-ms", "600001", "1000");
    example("cs.queues", "root.a,,b", "a,b");
  }

  /** A key the settings dropped (a setter left out of the builder) would leave them as the defaults. */
  @Test
  void everyKeyReachesTheSettings() {
    assertEquals(DatalocKeys.KEYS.stream().map(DatalocKeys.Key::name).collect(Collectors.toSet()), OTHER.keySet());
    Settings defaults = DatalocConfiguration.load(new Configuration(false));
    assertEquals(defaults, DatalocConfiguration.load(new Configuration(false)), "settings compare by value");
    for (Map.Entry<String, String> e : OTHER.entrySet()) {
      Configuration conf = new Configuration(false);
      conf.set(DatalocKeys.PREFIX + e.getKey(), e.getValue());
      org.junit.jupiter.api.Assertions.assertNotEquals(defaults, DatalocConfiguration.load(conf),
          e.getKey() + " = " + e.getValue() + " left the settings as they were");
    }
  }

  @Test
  void theSimulatorsResourceManagerEngineIsTheOneTheDefaultsBuild() {
    assertEquals(io.dataloc.core.engine.EngineConfig.resourceManager("bar"),
        DatalocConfiguration.load(new org.apache.hadoop.conf.Configuration(false)).engineConfig());
  }

  @Test
  void everyKeyHasAnInvalidExample() {
    assertEquals(DatalocKeys.KEYS.stream().map(DatalocKeys.Key::name).collect(Collectors.toSet()),
        INVALID.keySet());
  }

  @Test
  void theDefaultsLoad() {
    Settings s = DatalocConfiguration.load(new Configuration(false));
    assertEquals("bar", s.assigner());
    assertEquals(2000, s.planBudgetMs());
  }

  @Test
  void eachInvalidValueIsRefusedNamingItsKey() {
    for (Map.Entry<String, String> e : INVALID.entrySet()) {
      Configuration conf = new Configuration(false);
      conf.set(DatalocKeys.PREFIX + e.getKey(), e.getValue());
      IllegalArgumentException x = assertThrows(IllegalArgumentException.class, () -> DatalocConfiguration.load(conf),
          e.getKey() + " = " + e.getValue());
      String m = x.getMessage();
      assertTrue(m.contains(DatalocKeys.PREFIX + e.getKey()), "names the key: " + m);
      assertTrue(m.contains(e.getValue().trim()), "quotes the value: " + m);
      assertTrue(m.length() > (DatalocKeys.PREFIX + e.getKey() + e.getValue()).length() + 10,
          "says what is allowed: " + m);
    }
  }

  /**
   * A refresh that changes a key read at start only is refused, naming the key, as for
   * {@code resource-calculator}; before, {@code placement.threads} and {@code placement.max-waiting}
   * were validated, accepted and silently not applied. Other keys refresh.
   */
  @Test
  void aRefreshThatChangesAStartOnlyKeyIsRefused() throws Exception {
    Settings current = DatalocConfiguration.load(new Configuration(false));
    for (String key : new String[] {"placement.threads", "placement.max-waiting", "resource-calculator", "map-priority"}) {
      Configuration c = new Configuration(false);
      c.set(DatalocKeys.PREFIX + key, key.equals("resource-calculator") ? "dominant" : "7");
      java.io.IOException e = assertThrows(java.io.IOException.class, () -> DatalocConfiguration.onRefresh(c, current));
      assertTrue(e.getMessage().contains(DatalocKeys.PREFIX + key) && e.getMessage().contains("start only"),
          e.getMessage());
    }
    Configuration c = new Configuration(false);
    c.set(DatalocKeys.PREFIX + "plan.time-budget-ms", "500");
    assertEquals(500, DatalocConfiguration.onRefresh(c, current).planBudgetMs());
  }

  /**
   * Inside the CapacityScheduler the standalone scheduler's own keys (AM limit, ACLs, job ordering,
   * delays, ...) mean nothing: each set to anything but its default is refused at start, naming
   * it; {@code cs.queues} selects queues by leaf name or path.
   */
  @Test
  void standaloneKeysAreRefusedInsideTheCapacityScheduler() {
    for (DatalocKeys.Key k : DatalocKeys.STANDALONE_ONLY) {
      Configuration conf = new Configuration(false);
      conf.set(k.fullName(), "other-than-" + k.defaultValue());
      var x = assertThrows(org.apache.hadoop.yarn.exceptions.YarnRuntimeException.class,
          () -> DatalocConfiguration.insideCapacityScheduler(conf), k.fullName());
      assertTrue(x.getMessage().contains(k.fullName()), x.getMessage());
      conf.set(k.fullName(), k.defaultValue()); // the shipped file lists every key at its default
      DatalocConfiguration.insideCapacityScheduler(conf);
    }
    Settings all = DatalocConfiguration.insideCapacityScheduler(new Configuration(false));
    assertTrue(all.plansQueue("anything", "root.anything"));
    Configuration some = new Configuration(false);
    some.set(DatalocKeys.CS_QUEUES.fullName(), "etl, root.research.batch");
    Settings s = DatalocConfiguration.insideCapacityScheduler(some);
    assertTrue(s.plansQueue("etl", "root.etl"));
    assertTrue(s.plansQueue("batch", "root.research.batch"));
    assertTrue(!s.plansQueue("batch", "root.other.batch"));
    assertTrue(!s.plansQueue("adhoc", "root.adhoc"));
  }
}
