package io.dataloc.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On a secure cluster (a KDC and a Kerberos HDFS, in a JVM of their own: {@link SecureReadCheck}),
 * a job's split file is read with its user's delegation token only: with it the job is read,
 * without it not, and a user cannot make the ResourceManager read a file the user may not read,
 * though the ResourceManager's own credentials could.
 */
class SecureReadTest {
  @TempDir Path dir;

  @Test
  void aJobIsReadWithItsUsersTokenOnly() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process p = new ProcessBuilder(java.toString(), "-Xmx512m", "-Djava.net.preferIPv4Stack=true",
        "-cp", System.getProperty("java.class.path"), SecureReadCheck.class.getName(), dir.toString())
        .redirectErrorStream(true).start();
    String out;
    try {
      out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(p.waitFor(5, TimeUnit.MINUTES), "the check ended");
    } finally {
      p.destroyForcibly();
    }
    String checks = String.join("\n", out.lines().filter(l -> l.startsWith("CHECK") || l.startsWith("  (refused")
        || l.startsWith("SECURE")).toList());
    System.out.println("SecureReadTest:\n" + checks);
    assertEquals(0, p.exitValue(), out.length() > 20_000 ? out.substring(out.length() - 20_000) : out);
    assertTrue(out.contains("SECURE-READ OK"), checks);
  }
}
