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

  /** One invalid value per key (a test fails when a key is added without one). */
  private static final Map<String, String> INVALID = new LinkedHashMap<>();

  static {
    INVALID.put("assigner", "magic");
    INVALID.put("plan.fallback-assigner", "faster");
    INVALID.put("online-policy", "random");
    INVALID.put("job-ordering", "lifo");
    INVALID.put("cost.local", "0");
    INVALID.put("cost.rack", "0.5");
    INVALID.put("cost.remote", "1.5");
    INVALID.put("cost.congestion", "-0.1");
    INVALID.put("cost.link-congestion", "1000.5");
    INVALID.put("rate.local", "1.5");
    INVALID.put("rate.rack", "0.9");
    INVALID.put("rate.remote", "0.6");
    INVALID.put("rate.learn-samples", "-3");
    INVALID.put("plan.time-budget-ms", "5");
    INVALID.put("plan.max-tasks", "lots");
    INVALID.put("placement.sources", "split-metainfo,hdfs");
    INVALID.put("placement.hint-env", "INPUT PATHS");
    INVALID.put("placement.read-timeout-ms", "99");
    INVALID.put("map-priority", "1001");
    INVALID.put("delay.node", "-1");
    INVALID.put("delay.rack", "two");
    INVALID.put("seed", "0x1f");
    INVALID.put("placement.max-file-bytes", "100");
    INVALID.put("placement.max-splits", "0");
    INVALID.put("placement.max-hosts-per-split", "10001");
    INVALID.put("placement.max-host-length", "-5");
    INVALID.put("placement.max-listing", "many");
    INVALID.put("placement.max-job-conf-bytes", "2147483648");
    INVALID.put("placement.staging-root", "tmp/staging");
    INVALID.put("placement.threads", "65");
    INVALID.put("placement.max-waiting", "0");
    INVALID.put("placement.max-bytes-in-flight", "1024");
    INVALID.put("online.max-pending-per-job", "0");
    INVALID.put("maximum-am-resource-percent", "1.5");
    INVALID.put("reduce.max-share", "0");
    INVALID.put("reduce-priority", "-1");
    INVALID.put("am.placement-wait-ms", "600001");
    INVALID.put("am.admission-ordering", "sjf");
    INVALID.put("heartbeat.max-containers", "10001");
    INVALID.put("online.starvation-rounds", "-1");
    INVALID.put("error.recovery-ms", "-5");
    INVALID.put("cost.learn-samples", "-1");
    INVALID.put("acl.submit-applications", "alice\nbob");
    INVALID.put("acl.administer-queue", "root\radmins");
    INVALID.put("resource-calculator", "org.apache.hadoop.yarn.util.resource.ResourceCalculator");
    INVALID.put("acl.application-max-priority", "[user=alice max-priority=3]");
    INVALID.put("cs.max-wait-ms", "600001");
    INVALID.put("cs.queues", "root.a,,b");
  }

  /** One valid value other than the default per key: each must reach the loaded settings. */
  private static final Map<String, String> OTHER = new LinkedHashMap<>();

  static {
    OTHER.put("assigner", "flow");
    OTHER.put("plan.fallback-assigner", "none");
    OTHER.put("online-policy", "jsq-maxweight-steal");
    OTHER.put("job-ordering", "bid");
    OTHER.put("cost.local", "0.5");
    OTHER.put("cost.rack", "2.5");
    OTHER.put("cost.remote", "4");
    OTHER.put("cost.congestion", "1");
    OTHER.put("cost.link-congestion", "1");
    OTHER.put("rate.local", "0.9");
    OTHER.put("rate.rack", "0.4");
    OTHER.put("rate.remote", "0.1");
    OTHER.put("rate.learn-samples", "3");
    OTHER.put("plan.time-budget-ms", "1000");
    OTHER.put("plan.max-tasks", "1000");
    OTHER.put("placement.sources", "asks");
    OTHER.put("placement.hint-env", "OTHER_INPUT_PATHS");
    OTHER.put("placement.read-timeout-ms", "5000");
    OTHER.put("map-priority", "21");
    OTHER.put("delay.node", "1");
    OTHER.put("delay.rack", "2");
    OTHER.put("seed", "7");
    OTHER.put("placement.max-file-bytes", "1048576");
    OTHER.put("placement.max-splits", "1000");
    OTHER.put("placement.max-hosts-per-split", "8");
    OTHER.put("placement.max-host-length", "100");
    OTHER.put("placement.max-listing", "1000");
    OTHER.put("placement.max-job-conf-bytes", "1048576");
    OTHER.put("placement.staging-root", "/tmp/staging");
    OTHER.put("placement.threads", "2");
    OTHER.put("placement.max-waiting", "10");
    OTHER.put("placement.max-bytes-in-flight", "1048576");
    OTHER.put("online.max-pending-per-job", "10");
    OTHER.put("maximum-am-resource-percent", "0.2");
    OTHER.put("reduce.max-share", "0.25");
    OTHER.put("reduce-priority", "11");
    OTHER.put("am.placement-wait-ms", "0");
    OTHER.put("am.admission-ordering", "bid");
    OTHER.put("heartbeat.max-containers", "5");
    OTHER.put("online.starvation-rounds", "0");
    OTHER.put("error.recovery-ms", "0");
    OTHER.put("cost.learn-samples", "0");
    OTHER.put("acl.submit-applications", "alice");
    OTHER.put("acl.administer-queue", "admins");
    OTHER.put("resource-calculator", "dominant");
    OTHER.put("acl.application-max-priority", "[user=alice max_priority=3]");
    OTHER.put("cs.max-wait-ms", "1000");
    OTHER.put("cs.queues", "a,b");
  }

  /** A key the settings dropped (a setter left out of the builder) would leave them as the defaults. */
  @Test
  void everyKeyReachesTheSettings() {
    assertEquals(INVALID.keySet(), OTHER.keySet());
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
