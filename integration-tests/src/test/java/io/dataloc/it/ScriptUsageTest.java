package io.dataloc.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every script in {@code bin/} answers {@code --help} with its options (exit 0) wherever the flag
 * stands, and refuses an option it does not know with a message that names it (exit 2), also
 * after its command.
 */
class ScriptUsageTest {
  private record Out(int rc, String text) {}

  private static Out run(String script, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(Scripts.root().resolve("bin/" + script).toString()));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(1, TimeUnit.MINUTES), String.join(" ", cmd));
    return new Out(p.exitValue(), text);
  }

  private static List<String> scripts() throws Exception {
    try (Stream<Path> s = Files.list(Scripts.root().resolve("bin"))) {
      return s.filter(Files::isRegularFile).filter(Files::isExecutable).map(f -> f.getFileName().toString()).sorted()
          .toList();
    }
  }

  @Test
  void everyScriptAnswersHelpAndNamesAnOptionItDoesNotKnow() throws Exception {
    List<String> scripts = scripts();
    assertTrue(scripts.containsAll(List.of("dataloc", "dataloc-cluster", "dataloc-docker", "dataloc-net",
        "dataloc-replay", "dataloc-workload")), scripts.toString());
    for (String s : scripts) {
      Out help = run(s, "--help");
      assertEquals(0, help.rc(), s + " --help: " + help.text());
      assertTrue(help.text().toLowerCase(Locale.ROOT).contains("usage"), s + " --help says how to call it: "
          + help.text());
      assertTrue(help.text().contains("--help"), s + " --help lists its options: " + help.text());
      Out bad = run(s, "--no-such-option");
      assertEquals(2, bad.rc(), s + " --no-such-option: " + bad.text());
      assertTrue(bad.text().contains("--no-such-option"), s + " names the option: " + bad.text());
    }
  }

  @Test
  void optionsStandAnywhere() throws Exception {
    for (String[] args : List.of(new String[] {"dataloc-cluster", "stop", "--help"},
        new String[] {"dataloc-docker", "down", "-h"}, new String[] {"dataloc-net", "status", "--help"},
        new String[] {"dataloc-workload", "--runs", "2", "--help"})) {
      Out help = runLine(args);
      assertEquals(0, help.rc(), String.join(" ", args) + ": " + help.text());
      assertFalse(help.text().contains("error"), help.text());
    }
    for (String[] args : List.of(new String[] {"dataloc-cluster", "stop", "--no-such-option"},
        new String[] {"dataloc-docker", "down", "--no-such-option"}, new String[] {"dataloc-net", "status", "--no-such-option"},
        new String[] {"dataloc-replay", "--nodes", "10", "--no-such-option"})) {
      Out bad = runLine(args);
      assertEquals(2, bad.rc(), String.join(" ", args) + ": " + bad.text());
      assertTrue(bad.text().contains("--no-such-option"), bad.text());
    }
  }

  /** {@code bin/ARGS[0] ARGS[1..]}. */
  private static Out runLine(String[] args) throws Exception {
    return run(args[0], Arrays.copyOfRange(args, 1, args.length));
  }
}
