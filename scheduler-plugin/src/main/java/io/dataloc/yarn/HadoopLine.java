package io.dataloc.yarn;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import org.apache.hadoop.util.VersionInfo;
import org.apache.hadoop.yarn.exceptions.YarnRuntimeException;

/**
 * The Hadoop line this jar is built for (3.3, 3.4 or 3.5; written into the jar by the build), and
 * the check that the ResourceManager runs that line: a jar built for another line would fail in
 * ways no message explains (a missing method deep in a heartbeat), so it refuses to start instead,
 * naming the jar to use.
 */
public final class HadoopLine {
  private static final String RESOURCE = "/io/dataloc/dataloc-build.properties";
  private static final Properties BUILD = load();

  private HadoopLine() {}

  /** The line this jar is built for, e.g. "3.4". */
  public static String line() {
    return BUILD.getProperty("hadoop.line", "unknown");
  }

  /** The Hadoop release it was compiled and tested against, e.g. "3.4.3". */
  public static String builtAgainst() {
    return BUILD.getProperty("hadoop.version", "unknown");
  }

  /** Dataloc's version. */
  public static String version() {
    return BUILD.getProperty("version", "unknown");
  }

  /** This jar's file name as the build names it. */
  public static String jar() {
    return BUILD.getProperty("jar", "dataloc-scheduler-plugin.jar");
  }

  /** The line of a Hadoop version string ("3.4.3" → "3.4"), or the string itself if it has no minor part. */
  static String lineOf(String version) {
    if (version == null) {
      return "unknown";
    }
    String[] parts = version.split("[.-]");
    return parts.length >= 2 ? parts[0] + "." + parts[1] : version;
  }

  /** Refuses to start on a ResourceManager of another line; what it logs at start otherwise. */
  public static String requireRunning() {
    return require(VersionInfo.getVersion());
  }

  /**
   * {@link #requireRunning} for a given running version. A version that names no line (a build
   * without its version information says "Unknown") cannot be checked: it starts, and says so.
   */
  static String require(String running) {
    String runningLine = lineOf(running);
    if (!runningLine.matches("\\d+\\.\\d+")) {
      return "Dataloc " + version() + " for Hadoop " + line() + " (built against " + builtAgainst()
          + ") on a Hadoop whose version is not known ('" + running + "'): the line is not checked";
    }
    if (!runningLine.equals(line())) {
      throw new YarnRuntimeException("Dataloc cannot start: " + jar() + " is built for Hadoop " + line()
          + " but this ResourceManager runs Hadoop " + running + "; install dataloc-scheduler-plugin-" + version()
          + "-hadoop-" + runningLine + ".jar (built with -Phadoop-" + runningLine + ") instead");
    }
    return "Dataloc " + version() + " for Hadoop " + line() + " (built against " + builtAgainst()
        + ") on Hadoop " + running;
  }

  private static Properties load() {
    Properties p = new Properties();
    try (InputStream in = HadoopLine.class.getResourceAsStream(RESOURCE)) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + RESOURCE + " from the Dataloc jar", e);
    }
    return p;
  }
}
