package io.dataloc.yarn;

import io.dataloc.yarn.DatalocKeys.Key;
import io.dataloc.yarn.DatalocKeys.Tier;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.metrics2.annotation.Metric;
import org.apache.hadoop.metrics2.lib.MutableGaugeLong;
import org.apache.hadoop.metrics2.lib.MutableQuantiles;

/**
 * The operators' references, written from the code's own definitions: {@code docs/configuration.md}
 * from {@link DatalocKeys} (one table per {@link Tier}, every key with its default, unit, what is
 * allowed, whether {@code yarn rmadmin -refreshQueues} applies it ({@link
 * DatalocConfiguration#START_ONLY}) and in which mode it is read ({@link DatalocKeys#STANDALONE_ONLY})),
 * and {@code docs/metrics.md} from the {@link Metric} fields of {@link DatalocMetrics}. The build
 * writes both to {@code scheduler-plugin/target/}; a test holds the committed copies equal to them.
 */
public final class ReferenceDocs {
  private ReferenceDocs() {}

  /** The configuration reference, in Markdown. */
  public static String configuration() {
    StringBuilder b = new StringBuilder();
    b.append("# Configuration reference\n\n")
        .append("<!-- Generated from the code's key list (io.dataloc.yarn.DatalocKeys) by the build; do not edit.\n")
        .append("     After changing a key: mvn -B -ntp -q -DskipTests package -pl scheduler-plugin &&\n")
        .append("     cp scheduler-plugin/target/configuration.md docs/ -->\n\n")
        .append("Every setting is a property of `yarn-site.xml` on the ResourceManager, under `")
        .append(DatalocKeys.PREFIX).append("`. An invalid value stops the ResourceManager at start, naming the key, ")
        .append("the value and what is allowed; `yarn rmadmin -refreshQueues` validates every key first and keeps ")
        .append("the running settings if one is invalid. **Refresh** says whether a refresh applies a change (")
        .append("\"restart\": it is refused, naming the key). **Modes**: *both* — the standalone scheduler and the ")
        .append("CapacityScheduler's placement component read it; *standalone* — inside the CapacityScheduler its own ")
        .append("setting rules, and the key is refused there.\n\n");
    for (Tier t : Tier.values()) {
      b.append("## ").append(t.title()).append("\n\n").append(t.about()).append("\n\n")
          .append("| key | default | unit | allowed | refresh | modes | what it does |\n")
          .append("|---|---|---|---|---|---|---|\n");
      for (Key k : DatalocKeys.KEYS) {
        if (k.tier() == t) {
          b.append("| `").append(k.fullName()).append("` | ")
              .append(k.defaultValue().isEmpty() ? "(empty)" : "`" + k.defaultValue() + "`").append(" | ")
              .append(k.unit()).append(" | ")
              .append(cell(k.allowed())).append(" | ")
              .append(DatalocConfiguration.START_ONLY.containsKey(k) ? "restart" : "yes").append(" | ")
              .append(DatalocKeys.STANDALONE_ONLY.contains(k) ? "standalone" : "both").append(" | ")
              .append(cell(k.description())).append(" |\n");
        }
      }
      b.append('\n');
    }
    b.append("Costs and rates take up to three decimals. Rates are per tick of the engine's clock, one second in ")
        .append("the ResourceManager.\n");
    return b.toString();
  }

  private static String cell(String text) {
    return text.replace("|", "\\|");
  }

  /** The metrics reference, in Markdown: every metric of the JMX bean, in the order of its fields. */
  public static String metrics() {
    StringBuilder b = new StringBuilder();
    b.append("# Metrics reference\n\n")
        .append("<!-- Generated from the code's metrics (io.dataloc.yarn.DatalocMetrics) by the build; do not edit.\n")
        .append("     After changing a metric: mvn -B -ntp -q -DskipTests package -pl scheduler-plugin &&\n")
        .append("     cp scheduler-plugin/target/metrics.md docs/ -->\n\n")
        .append("Dataloc's metrics are one metrics2 source, `").append(DatalocMetrics.NAME)
        .append("`: over JMX the bean `Hadoop:service=ResourceManager,name=").append(DatalocMetrics.NAME)
        .append("` (the ResourceManager's `/jmx` page), and every sink the ResourceManager's metrics2 ")
        .append("configuration names. Counters count from the ResourceManager's start; gauges hold the last value; ")
        .append("quantiles are over a rolling window, as attributes NAME + `Num` + samples (how many in the ")
        .append("window) and NAME + `50thPercentile`, `75thPercentile`, `90thPercentile`, `95thPercentile`, ")
        .append("`99thPercentile` + unit.\n\n")
        .append("| name | kind | what it counts or holds |\n|---|---|---|\n");
    for (Field f : DatalocMetrics.class.getDeclaredFields()) {
      Metric m = f.getAnnotation(Metric.class);
      if (m == null) {
        continue;
      }
      String name = Character.toUpperCase(f.getName().charAt(0)) + f.getName().substring(1);
      if (MutableQuantiles.class.isAssignableFrom(f.getType())) {
        String prefix = name;
        b.append("| `").append(prefix).append("` | quantiles (").append(m.interval()).append(" s) | ").append(cell(m.about())).append(": `").append(prefix)
            .append("Num").append(m.sampleName()).append("`, `").append(prefix).append("50thPercentile")
            .append(m.valueName()).append("` … `").append(prefix).append("99thPercentile").append(m.valueName())
            .append("` |\n");
      } else {
        String kind = MutableGaugeLong.class.isAssignableFrom(f.getType()) ? "gauge" : "counter";
        b.append("| `").append(name).append("` | ").append(kind).append(" | ").append(cell(String.join(" ", m.value())))
            .append(" |\n");
      }
    }
    b.append("\nThe standalone scheduler also keeps YARN's queue metrics as the CapacityScheduler's are read: ")
        .append("the bean `Hadoop:service=ResourceManager,name=QueueMetrics,q0=").append(QueueTree.ROOT)
        .append("` for the cluster and `...,q0=").append(QueueTree.ROOT).append(",q1=").append(DatalocQueue.NAME)
        .append("` for its one queue (applications submitted, running and completed, containers and memory ")
        .append("allocated, pending and available), the queue's counts rolling up into the root's; ")
        .append("`/ws/v1/cluster/metrics` reads the root. Inside the CapacityScheduler its own queue metrics ")
        .append("are unchanged.\n");
    return b.toString();
  }

  /** Writes {@code configuration.md} and {@code metrics.md} into the directory named by the one argument. */
  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      throw new IllegalArgumentException("usage: ReferenceDocs OUTPUT_DIRECTORY");
    }
    Path dir = Files.createDirectories(Path.of(args[0]));
    Files.writeString(dir.resolve("configuration.md"), configuration(), StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("metrics.md"), metrics(), StandardCharsets.UTF_8);
  }
}
