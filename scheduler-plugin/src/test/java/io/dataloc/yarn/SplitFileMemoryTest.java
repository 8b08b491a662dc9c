package io.dataloc.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The costliest split file the default bounds admit ({@link LargestSplitFile}: 12.8 million
 * distinct host names in 64.6 MB), ten submissions at once read by four placement readers in a JVM
 * of 512 MB, every result kept, as a ResourceManager's heap would hold them. Before, one read held the names (about 0.7 GB) and the AM
 * replay kept them for the job's life: the JVM ran out of memory. Now names become node ids as
 * they are read and names no node has are dropped: the job keeps a few MB, and
 * {@code localElsewhere}, asked for each container whose next task is not local, looks at one or
 * two hosts, not every name.
 */
class SplitFileMemoryTest {
  @Test
  void theLargestAdmittedSplitFileCostsAPlannedJobAFewMegabytes() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process p = new ProcessBuilder(java.toString(), "-Xmx512m", "-XX:+UseSerialGC",
        "-cp", System.getProperty("java.class.path"), SplitFileHeapCheck.class.getName(), "10", "4")
        .redirectErrorStream(true).start();
    String out;
    try {
      assertTrue(p.waitFor(10, TimeUnit.MINUTES), "the check ended");
      out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    } finally {
      p.destroyForcibly();
    }
    System.out.println("SplitFileMemoryTest: " + out.strip());
    assertEquals(0, p.exitValue(), out);
    Matcher m = Pattern.compile("retained=(-?\\d+) allRead=(-?\\d+) estimated=(\\d+) peak=(\\d+) "
        + "maxLocalElsewhereChecks=(\\d+)").matcher(out);
    assertTrue(m.find(), out);
    long retained = Long.parseLong(m.group(1));
    assertTrue(retained < 32L << 20, "the planned job retains " + retained + " bytes");
    assertTrue(Long.parseLong(m.group(2)) < 128L << 20, "ten read placements hold " + m.group(2) + " bytes");
    assertTrue(Long.parseLong(m.group(3)) < 32L << 20, "estimated " + m.group(3));
    assertTrue(Integer.parseInt(m.group(5)) <= 2, "localElsewhere looked at " + m.group(5) + " hosts");
  }
}
