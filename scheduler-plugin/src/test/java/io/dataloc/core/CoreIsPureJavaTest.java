package io.dataloc.core;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The core must run in the simulator and in the RM alike: no Hadoop class may leak into it. */
class CoreIsPureJavaTest {
  @Test
  void noCoreSourceMentionsHadoop() throws IOException {
    Path core = Path.of("src/main/java/io/dataloc/core");
    assertTrue(Files.isDirectory(core), "run from the scheduler-plugin module: " + core.toAbsolutePath());
    List<Path> offenders;
    try (Stream<Path> files = Files.walk(core)) {
      offenders = files.filter(f -> f.toString().endsWith(".java"))
          .filter(f -> read(f).contains("org.apache.hadoop"))
          .collect(Collectors.toList());
    }
    assertTrue(offenders.isEmpty(), "core sources referring to Hadoop: " + offenders);
    try (Stream<Path> files = Files.walk(core)) {
      assertTrue(files.filter(f -> f.toString().endsWith(".java")).count() > 10, "core sources found");
    }
  }

  /**
   * The core's layers: model and flow below offline and jobs, those below online, online below
   * the engine, the engine below am. A package imports only the layers below it (a mention in a
   * comment does not count), so no two packages import each other.
   */
  @Test
  void corePackagesImportOnlyTheLayersBelowThem() throws IOException {
    List<String> order = List.of("model", "flow", "offline", "jobs", "workload", "online", "engine", "am");
    Path core = Path.of("src/main/java/io/dataloc/core");
    List<String> offenders = new java.util.ArrayList<>();
    for (int i = 0; i < order.size(); i++) {
      Path dir = core.resolve(order.get(i));
      if (!Files.isDirectory(dir)) {
        continue;
      }
      List<String> above = order.subList(i + 1, order.size());
      try (Stream<Path> files = Files.list(dir)) {
        for (Path f : files.filter(x -> x.toString().endsWith(".java")).toList()) {
          for (String line : read(f).split("\n")) {
            String code = line.strip();
            if (code.startsWith("*") || code.startsWith("/*") || code.startsWith("//")) {
              continue;
            }
            for (String up : above) {
              if (code.contains("io.dataloc.core." + up + ".")) {
                offenders.add(f.getFileName() + " (" + order.get(i) + ") uses " + up + ": " + code);
              }
            }
          }
        }
      }
    }
    assertTrue(offenders.isEmpty(), String.join("\n", offenders));
  }

  private static String read(Path f) {
    try {
      return Files.readString(f);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
