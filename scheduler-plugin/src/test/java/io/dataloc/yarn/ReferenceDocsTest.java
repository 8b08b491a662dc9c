package io.dataloc.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.yarn.DatalocKeys.Key;
import io.dataloc.yarn.DatalocKeys.Tier;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.junit.jupiter.api.Test;

/** The committed references are the ones the code writes, and they say what the code does. */
class ReferenceDocsTest {
  private static final Path DOC = Path.of(System.getProperty("user.dir")).getParent().resolve("docs/configuration.md");

  @Test
  void theCommittedReferenceIsTheGeneratedOne() throws Exception {
    assertEquals(ReferenceDocs.configuration(), Files.readString(DOC, StandardCharsets.UTF_8),
        "docs/configuration.md is stale: mvn -B -ntp -q -DskipTests package -pl scheduler-plugin && "
            + "cp scheduler-plugin/target/configuration.md docs/");
    assertEquals(ReferenceDocs.metrics(), Files.readString(DOC.resolveSibling("metrics.md"), StandardCharsets.UTF_8),
        "docs/metrics.md is stale: mvn -B -ntp -q -DskipTests package -pl scheduler-plugin && "
            + "cp scheduler-plugin/target/metrics.md docs/");
  }

  /** Read from the registered bean itself (metrics2 names its attributes), not from the generator. */
  @Test
  void everyAttributeOfTheBeanIsListedAndNothingElse() throws Exception {
    DefaultMetricsSystem.initialize("ResourceManager");
    DatalocMetrics.register();
    try {
      MBeanServer server = ManagementFactory.getPlatformMBeanServer();
      Set<String> attributes = new TreeSet<>();
      for (MBeanAttributeInfo a : server.getMBeanInfo(
          new ObjectName("Hadoop:service=ResourceManager,name=" + DatalocMetrics.NAME)).getAttributes()) {
        if (!a.getName().startsWith("tag.")) {
          attributes.add(a.getName());
        }
      }
      // A row names an attribute, or (kind "quantiles") the prefix of a quantiles' attributes.
      Set<String> listed = new TreeSet<>();
      Set<String> quantiles = new TreeSet<>();
      Matcher m = Pattern.compile("(?m)^\\| `([A-Za-z]+)` \\| ([a-z]+)")
          .matcher(Files.readString(DOC.resolveSibling("metrics.md"), StandardCharsets.UTF_8));
      while (m.find()) {
        (m.group(2).equals("quantiles") ? quantiles : listed).add(m.group(1));
      }
      assertTrue(attributes.size() >= 20, "attributes: " + attributes);
      for (String a : attributes) {
        assertTrue(listed.contains(a) || quantiles.stream().anyMatch(q -> a.matches(q + "(Num[A-Za-z]+|[0-9]+thPercentile[A-Za-z]+)")),
            "not listed: " + a);
      }
      for (String n : listed) {
        assertTrue(attributes.contains(n), "no such attribute: " + n);
      }
      for (String q : quantiles) {
        assertTrue(attributes.stream().anyMatch(a -> a.startsWith(q + "Num")), "no such quantiles: " + q);
        assertTrue(attributes.stream().anyMatch(a -> a.startsWith(q + "99thPercentile")), "no 99th percentile: " + q);
      }
    } finally {
      DatalocMetrics.unregister();
      DefaultMetricsSystem.shutdown();
    }
  }

  @Test
  void everyKeyIsListedOnceUnderItsTierInTierOrder() {
    String doc = ReferenceDocs.configuration();
    Set<String> names = new HashSet<>();
    int lastTier = -1;
    int lastAt = -1;
    for (Key k : DatalocKeys.KEYS) {
      assertTrue(names.add(k.name()), "defined twice: " + k.name());
      String row = "| `" + k.fullName() + "` |";
      int at = doc.indexOf(row);
      assertTrue(at > 0, "missing: " + k.fullName());
      assertEquals(-1, doc.indexOf(row, at + 1), "listed twice: " + k.fullName());
      int section = doc.indexOf("## " + k.tier().title());
      int next = k.tier().ordinal() + 1 < Tier.values().length
          ? doc.indexOf("## " + Tier.values()[k.tier().ordinal() + 1].title()) : doc.length();
      assertTrue(section < at && at < next, k.fullName() + " under " + k.tier().title());
      if (k.tier().ordinal() == lastTier) {
        assertTrue(at > lastAt);
      }
      lastTier = k.tier().ordinal();
      lastAt = at;
    }
    assertTrue(DatalocKeys.KEYS.containsAll(DatalocKeys.STANDALONE_ONLY));
    assertTrue(DatalocKeys.KEYS.containsAll(DatalocConfiguration.START_ONLY.keySet()));
  }

  /**
   * The lists written by hand name exactly the keys the code refuses: inside the CapacityScheduler
   * (its install section) and on a refresh (the README and the operator guide).
   */
  @Test
  void theHandWrittenListsOfRefusedKeysAreTheCodes() throws Exception {
    Path docs = DOC.getParent();
    Set<String> standalone = new TreeSet<>();
    DatalocKeys.STANDALONE_ONLY.forEach(k -> standalone.add(k.name()));
    Set<String> startOnly = new TreeSet<>();
    DatalocConfiguration.START_ONLY.keySet().forEach(k -> startOnly.add(k.name()));
    assertEquals(standalone, keysBetween(docs.resolve("capacity-scheduler.md"), "The refused keys", "Remove them"));
    assertEquals(startOnly, keysBetween(docs.resolveSibling("README.md"), "except those read at start", "which it refuses"));
    assertEquals(startOnly, keysBetween(docs.resolve("operator-guide.md"), "for every ACL here.", "are read at start"));
  }

  /** The key names in backquotes between the first {@code from} and the {@code to} after it. */
  private static Set<String> keysBetween(Path file, String from, String to) throws IOException {
    String text = Files.readString(file, StandardCharsets.UTF_8);
    int a = text.indexOf(from);
    int b = text.indexOf(to, a);
    assertTrue(a >= 0 && b > a, file + ": no list between '" + from + "' and '" + to + "'");
    Set<String> keys = new TreeSet<>();
    Matcher m = Pattern.compile("`([a-z][a-z.-]*)`").matcher(text.substring(a, b));
    while (m.find()) {
      keys.add(m.group(1));
    }
    return keys;
  }

  @Test
  void theShippedYarnSiteListsEveryKeyAtItsDefault() throws Exception {
    Path file = DOC.getParent().getParent().resolve("conf/yarn-site.xml");
    String text = Files.readString(file, StandardCharsets.UTF_8);
    Configuration shipped = new Configuration(false);
    shipped.addResource(new org.apache.hadoop.fs.Path(file.toUri()));
    for (Key k : DatalocKeys.KEYS) {
      assertTrue(text.contains("<name>" + k.fullName() + "</name>"), "conf/yarn-site.xml lists " + k.fullName());
      String v = shipped.get(k.fullName());
      assertEquals(k.defaultValue(), v == null ? "" : v.trim(), "conf/yarn-site.xml: " + k.fullName());
    }
  }

  @Test
  void theDefaultsListedAreTheOnesTheCodeLoads() {
    Configuration defaults = new Configuration(false);
    Configuration spelled = new Configuration(false);
    for (Key k : DatalocKeys.KEYS) {
      spelled.set(k.fullName(), k.defaultValue());
    }
    assertEquals(DatalocConfiguration.load(defaults), DatalocConfiguration.load(spelled));
  }

  @Test
  void aRefreshRefusesExactlyTheKeysMarkedRestart() throws Exception {
    Settings running = DatalocConfiguration.load(new Configuration(false));
    List<String[]> changes = List.of(new String[] {"resource-calculator", "dominant"},
        new String[] {"placement.threads", "5"}, new String[] {"placement.max-waiting", "7"},
        new String[] {"map-priority", "21"}, new String[] {"assigner", "flow"}, new String[] {"seed", "9"});
    for (String[] c : changes) {
      Configuration conf = new Configuration(false);
      conf.set(DatalocKeys.PREFIX + c[0], c[1]);
      boolean marked = DatalocConfiguration.START_ONLY.keySet().stream().anyMatch(k -> k.name().equals(c[0]));
      boolean refused;
      try {
        DatalocConfiguration.onRefresh(conf, running);
        refused = false;
      } catch (IOException e) {
        refused = true;
        assertTrue(e.getMessage().contains(DatalocKeys.PREFIX + c[0]), e.getMessage());
      }
      assertEquals(marked, refused, c[0]);
    }
  }
}
