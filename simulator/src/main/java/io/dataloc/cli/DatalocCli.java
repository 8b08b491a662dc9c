package io.dataloc.cli;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;

/**
 * The {@code bin/dataloc} entry point. Subcommands: {@code plan}, {@code simulate}. Errors print one line,
 * {@code dataloc: error: …}, and exit with status 2 (usage or input) or 1 (anything unexpected);
 * no stack traces unless {@code DATALOC_DEBUG=1}.
 */
public final class DatalocCli {
  private DatalocCli() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs a command; returns the exit status. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    boolean help = Arrays.asList(args).contains("-h") || Arrays.asList(args).contains("--help");
    if (args.length == 0 || help) {
      out.println("usage: dataloc <command> [options]\n  commands: plan, simulate\n  -h, --help: this text, wherever it"
          + " stands\n\n" + PlanCommand.USAGE + "\n" + SimulateCommand.USAGE);
      return args.length == 0 ? 2 : 0;
    }
    List<String> rest = Arrays.asList(args).subList(1, args.length);
    try {
      return switch (args[0]) {
        case "plan" -> PlanCommand.run(rest, out);
        case "simulate" -> SimulateCommand.run(rest, out, err);
        default -> throw new UsageException("unknown command '" + args[0] + "'; commands: plan, simulate");
      };
    } catch (UsageException e) {
      err.println("dataloc: error: " + e.getMessage());
      return 2;
    } catch (Exception | OutOfMemoryError e) {
      err.println("dataloc: error: " + e);
      if ("1".equals(System.getenv("DATALOC_DEBUG"))) {
        e.printStackTrace(err);
      }
      return 1;
    }
  }
}
