package io.dataloc.yarn;

import io.dataloc.yarn.DatalocKeys.Key;
import io.dataloc.yarn.DatalocKeys.Tier;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The operators' configuration reference ({@code docs/configuration.md}), written from {@link
 * DatalocKeys} alone: one table per {@link Tier}, every key with its default, unit, what is
 * allowed, whether {@code yarn rmadmin -refreshQueues} applies it ({@link
 * DatalocConfiguration#START_ONLY}) and in which mode it is read ({@link DatalocKeys#STANDALONE_ONLY}).
 * The build writes it to {@code scheduler-plugin/target/configuration.md}; a test holds the
 * committed copy equal to it.
 */
public final class ConfigReference {
  private ConfigReference() {}

  /** The reference, in Markdown. */
  public static String markdown() {
    StringBuilder b = new StringBuilder();
    b.append("# Configuration reference\n\n")
        .append("<!-- Generated from the code's key list (io.dataloc.yarn.DatalocKeys) by the build; do not edit.\n")
        .append("     After changing a key: mvn -B -ntp -q -DskipTests package -pl scheduler-plugin &&\n")
        .append("     cp scheduler-plugin/target/configuration.md docs/configuration.md -->\n\n")
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

  /** Writes the reference to the file named by the one argument. */
  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      throw new IllegalArgumentException("usage: ConfigReference OUTPUT.md");
    }
    Path out = Path.of(args[0]);
    if (out.getParent() != null) {
      Files.createDirectories(out.getParent());
    }
    Files.writeString(out, markdown(), StandardCharsets.UTF_8);
  }
}
