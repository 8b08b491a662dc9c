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

  private static String read(Path f) {
    try {
      return Files.readString(f);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
