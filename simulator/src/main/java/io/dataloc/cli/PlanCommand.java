package io.dataloc.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.dataloc.core.model.LowerBounds;
import io.dataloc.core.model.Problem;
import io.dataloc.core.model.Units;
import io.dataloc.core.offline.Assigner;
import io.dataloc.core.offline.AssignerOptions;
import io.dataloc.core.offline.Assigners;
import io.dataloc.sim.io.InstanceReader;
import io.dataloc.sim.io.PlanResult;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code dataloc plan --instance FILE --algorithm NAME[,NAME…] [--out FILE] [--seed N]}: runs the
 * named assigners on one instance, prints a summary table, and optionally writes the plans as JSON
 * (one object, or an array when several algorithms ran).
 */
final class PlanCommand {
  static final String USAGE =
      "usage: dataloc plan --instance FILE --algorithm NAME[,NAME...] [--out FILE] [--seed N]\n"
          + "  algorithms: " + String.join(", ", Assigners.names())
          + " (also labl:always, labl:first, labl:+K, hungarian:song, all)";

  private PlanCommand() {}

  static int run(List<String> args, PrintStream out) throws UsageException, IOException {
    Path instance = null;
    Path outFile = null;
    String algorithms = null;
    long seed = 1;
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      switch (a) {
        case "--instance" -> instance = Path.of(value(args, ++i, a));
        case "--algorithm", "--algorithms" -> algorithms = value(args, ++i, a);
        case "--out" -> outFile = Path.of(value(args, ++i, a));
        case "--seed" -> {
          String v = value(args, ++i, a);
          try {
            seed = Long.parseLong(v);
          } catch (NumberFormatException e) {
            throw new UsageException("--seed must be a whole number, got '" + v + "'");
          }
        }
        case "-h", "--help" -> {
          out.println(USAGE);
          return 0;
        }
        default -> throw new UsageException("unknown option '" + a + "'\n" + USAGE);
      }
    }
    if (instance == null) {
      throw new UsageException("--instance is required\n" + USAGE);
    }
    if (algorithms == null) {
      throw new UsageException("--algorithm is required\n" + USAGE);
    }
    AssignerOptions options = AssignerOptions.defaults().withSeed(seed);
    List<Assigner> assigners = new ArrayList<>();
    List<String> names = algorithms.equals("all") ? Assigners.names() : List.of(algorithms.split(","));
    for (String name : names) {
      if (name.isBlank()) {
        throw new UsageException("empty algorithm name in '" + algorithms + "'");
      }
      try {
        assigners.add(Assigners.create(name, options));
      } catch (IllegalArgumentException e) {
        throw new UsageException(e.getMessage());
      }
    }
    Problem p;
    try {
      p = InstanceReader.read(instance);
    } catch (InstanceReader.InvalidInstanceException e) {
      throw new UsageException(e.getMessage());
    }
    if (algorithms.equals("all") && p.tasks() > options.exactMaxTasks()) {
      assigners.removeIf(a -> a.name().equals("exact"));
      out.println("(skipping exact: it solves jobs of at most " + options.exactMaxTasks() + " tasks)");
    }
    long lowerBound = LowerBounds.of(p).best();
    List<PlanResult> results = new ArrayList<>();
    for (Assigner a : assigners) {
      try {
        results.add(PlanResult.run(a, p, lowerBound));
      } catch (IllegalArgumentException e) {
        throw new UsageException(a.name() + ": " + e.getMessage());
      }
    }
    out.printf("%d tasks on %d servers (%d hosts), lower bound %s%n", p.tasks(), p.servers(),
        p.cluster().hostCount(), Units.format(lowerBound));
    out.println(table(results));
    if (outFile != null) {
      ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
      Object doc = results.size() == 1 ? results.get(0).toJson() : results.stream().map(PlanResult::toJson).toList();
      Path parent = outFile.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      json.writeValue(outFile.toFile(), doc);
      out.println("wrote " + outFile);
    }
    return 0;
  }

  static String table(List<PlanResult> results) {
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "%-16s %10s %10s %10s %7s %6s %7s %9s %11s%n", "algorithm",
        "makespan", "active", "resource", "local", "rack", "remote", "locality", "planMillis"));
    for (PlanResult r : results) {
      var e = r.evaluation();
      sb.append(String.format(Locale.ROOT, "%-16s %10s %10s %10s %7d %6d %7d %8.1f%% %11.3f%n", r.algorithm(),
          Units.format(e.makespan()), Units.format(e.activeMakespan()), Units.format(e.resource()), e.local(),
          e.rackLocal(), e.remote(), 100 * e.locality(), r.planMillis()));
    }
    return sb.toString().stripTrailing();
  }

  private static String value(List<String> args, int i, String option) throws UsageException {
    if (i >= args.size() || args.get(i).startsWith("--")) {
      throw new UsageException(option + " needs a value");
    }
    return args.get(i);
  }
}
