package io.dataloc.cli;

import io.dataloc.sim.Experiment;
import io.dataloc.sim.Experiments;
import io.dataloc.sim.RunOptions;
import io.dataloc.sim.report.Progress;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code dataloc simulate EXPERIMENT[,EXPERIMENT…]|all [--quick] [--seeds N] [--seed S] [--out DIR]}:
 * runs experiments in virtual time, shows progress on stderr, prints a summary table per
 * experiment, and writes {@code DIR/EXPERIMENT.csv} and PNG charts (default DIR: {@code results}).
 */
final class SimulateCommand {
  static final String USAGE =
      "usage: dataloc simulate EXPERIMENT[,EXPERIMENT...]|all [--quick] [--seeds N] [--seed S] [--out DIR]\n"
          + "  experiments: " + String.join(", ", Experiments.names());

  private SimulateCommand() {}

  static int run(List<String> args, PrintStream out, PrintStream err) throws UsageException, IOException {
    String which = null;
    boolean quick = false;
    int seeds = 0;
    long seed = 20261122L;
    Path dir = Path.of("results");
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      switch (a) {
        case "--quick" -> quick = true;
        case "--seeds" -> seeds = positive(value(args, ++i, a), a);
        case "--seed" -> seed = parseLong(value(args, ++i, a), a);
        case "--out" -> dir = Path.of(value(args, ++i, a));
        case "-h", "--help" -> {
          out.println(USAGE);
          return 0;
        }
        default -> {
          if (a.startsWith("-") || which != null) {
            throw new UsageException("unexpected argument '" + a + "'\n" + USAGE);
          }
          which = a;
        }
      }
    }
    if (which == null) {
      throw new UsageException("name an experiment\n" + USAGE);
    }
    List<Experiment> experiments = new ArrayList<>();
    for (String name : which.equals("all") ? Experiments.names() : List.of(which.split(","))) {
      try {
        experiments.add(Experiments.create(name));
      } catch (IllegalArgumentException e) {
        throw new UsageException(e.getMessage());
      }
    }
    RunOptions options = new RunOptions(quick, seeds, dir, seed, new Progress(err, 3000));
    for (Experiment e : experiments) {
      err.println("== " + e.name() + ": " + e.description() + (quick ? " (quick)" : ""));
      long t0 = System.nanoTime();
      io.dataloc.sim.report.Report report = e.run(options);
      report.writeTo(dir);
      out.println(report.summary());
      out.printf("wrote %s/%s.csv and charts in %.1f s%n%n", dir, e.name(), (System.nanoTime() - t0) / 1e9);
    }
    return 0;
  }

  private static int positive(String v, String option) throws UsageException {
    long n = parseLong(v, option);
    if (n < 1 || n > 1_000_000) {
      throw new UsageException(option + " must be in 1..1000000, got " + v);
    }
    return (int) n;
  }

  private static long parseLong(String v, String option) throws UsageException {
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new UsageException(option + " must be a whole number, got '" + v + "'");
    }
  }

  private static String value(List<String> args, int i, String option) throws UsageException {
    if (i >= args.size()) {
      throw new UsageException(option + " needs a value");
    }
    return args.get(i);
  }
}
