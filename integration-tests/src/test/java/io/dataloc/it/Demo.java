package io.dataloc.it;

import io.dataloc.yarn.LocalityScheduler;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;

/**
 * The README's main command: an embedded four-host cluster (HDFS + YARN + MapReduce, two racks)
 * runs the same wordcount over 24 one-block files under Dataloc and under the stock
 * CapacityScheduler, and prints the comparison. A few minutes on two cores.
 */
public final class Demo {
  private Demo() {}

  public static void main(String[] args) throws Exception {
    // Hadoop's daemons log plenty, and Guice warns through java.util.logging: keep the demo's
    // output to its progress and the comparison.
    org.apache.log4j.LogManager.getRootLogger().setLevel(org.apache.log4j.Level.OFF);
    java.util.logging.LogManager.getLogManager().reset();
    int files = args.length > 0 ? Integer.parseInt(args[0]) : 24;
    Path dir = Files.createTempDirectory("dataloc-demo");
    long t0 = System.nanoTime();
    List<EmbeddedCluster.Result> results = new ArrayList<>();
    System.out.println("Dataloc demo: wordcount over " + files + " one-block files (replication 2) on node1..node4");
    results.add(EmbeddedCluster.run("dataloc", LocalityScheduler.class, dir, files, Demo::progress));
    results.add(EmbeddedCluster.run("capacity", CapacityScheduler.class, dir, files, Demo::progress));
    System.out.println();
    System.out.println(table(results));
    System.out.printf(Locale.ROOT, "(%.0f s in all; job times on loopback, where a remote read costs almost nothing)%n",
        (System.nanoTime() - t0) / 1e9);
    MiniMr.deleteQuietly(dir);
    System.exit(0);
  }

  private static void progress(String line) {
    System.out.println("  " + line);
  }

  static String table(List<EmbeddedCluster.Result> results) {
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "%-10s %10s %10s %6s %12s %9s  %s%n", "scheduler", "data-local", "rack-local",
        "other", "busiest host", "job time", "maps per host"));
    for (EmbeddedCluster.Result r : results) {
      int max = r.mapsPerHost().values().stream().mapToInt(Integer::intValue).max().orElse(0);
      sb.append(String.format(Locale.ROOT, "%-10s %10d %10d %6d %12d %8.1fs  %s%n", r.scheduler(), r.dataLocal(),
          r.rackLocal(), r.other(), max, r.seconds(), r.mapsPerHost()));
    }
    return sb.toString();
  }
}
