package io.dataloc.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the project's scripts from tests: output to a log, a time limit, the cluster stopped if it is hit. */
final class Scripts {
  private Scripts() {}

  /** What a script did: whether it ended in time, its exit code, its output. */
  record Run(boolean ended, int exit, String output) {}

  static Path root() {
    return Path.of(System.getProperty("user.dir")).getParent();
  }

  /**
   * Runs {@code bin/SCRIPT ARGS...}, its output in {@code log} (and printed); past {@code minutes}
   * it is stopped and {@code bin/dataloc-cluster stop CLUSTER} stops what it started.
   */
  static Run run(Path log, int minutes, Path cluster, String script, String... args) throws Exception {
    return run(log, minutes, List.of("dataloc-cluster", "stop", cluster.toString()), script, args);
  }

  /**
   * Runs {@code bin/SCRIPT ARGS...}, its output in {@code log} (and printed); past {@code minutes}
   * it is stopped and {@code bin/CLEANUP...} (a script and its arguments) removes what it started.
   */
  static Run run(Path log, int minutes, List<String> cleanup, String script, String... args) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(root().resolve("bin/" + script).toString());
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    boolean ended = p.waitFor(minutes, TimeUnit.MINUTES);
    if (!ended) {
      p.destroy();
      p.waitFor(2, TimeUnit.MINUTES); // the script's own traps clean up first
      List<String> clean = new ArrayList<>(cleanup);
      clean.set(0, root().resolve("bin/" + cleanup.get(0)).toString());
      new ProcessBuilder(clean).inheritIO().start().waitFor(2, TimeUnit.MINUTES);
    }
    String out = Files.readString(log, StandardCharsets.UTF_8);
    System.out.println(out);
    return new Run(ended, ended ? p.exitValue() : -1, out);
  }

  /** The network namespaces bin/dataloc-net made that still exist (empty when all are gone). */
  static String namespacesLeft() throws IOException, InterruptedException {
    Process ns = new ProcessBuilder("ip", "netns", "list").redirectErrorStream(true).start();
    String left = new String(ns.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    ns.waitFor();
    return left.lines().filter(l -> l.startsWith("dl-")).reduce("", (x, y) -> x + y + "\n");
  }
}
