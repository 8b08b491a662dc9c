package io.dataloc.it;

import io.dataloc.yarn.LocalityScheduler;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;

/**
 * The README's main command: an embedded four-host cluster (HDFS + YARN + MapReduce, two racks)
 * runs the same two jobs, a wordcount and a map-heavy scan, under Dataloc and under the stock
 * CapacityScheduler, over the same blocks, and prints the comparison. A few minutes on two cores.
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
    System.out.printf(Locale.ROOT, "Dataloc demo on node1..node4 (two racks), replication 2: a wordcount over %d one-MB"
        + " files and a scan over %d %d-MB files%n", files, files, EmbeddedCluster.SCAN_BLOCK_MB);
    try (EmbeddedCluster.Hdfs hdfs = EmbeddedCluster.startHdfs(dir, false, files, Demo::progress)) {
      results.addAll(EmbeddedCluster.run("dataloc", LocalityScheduler.class, Map.of(), hdfs, dir, Demo::progress));
      results.addAll(EmbeddedCluster.run("capacity", CapacityScheduler.class, Map.of(), hdfs, dir, Demo::progress));
      results.addAll(EmbeddedCluster.run("capacity+dataloc", io.dataloc.yarn.cs.DatalocCapacityScheduler.class,
          Map.of("yarn.scheduler.app-placement-allocator.class",
              io.dataloc.yarn.cs.DatalocPlacementAllocator.class.getName()), hdfs, dir, Demo::progress));
    }
    System.out.println();
    System.out.println(table(results));
    System.out.printf(Locale.ROOT, "%s%n(%.0f s in all)%n", legend(), (System.nanoTime() - t0) / 1e9);
    MiniMr.deleteQuietly(dir);
    System.exit(0);
  }

  private static void progress(String line) {
    System.out.println("  " + line);
  }

  /** What the job times in {@link #table} do and do not show. */
  static String legend() {
    return String.format(Locale.ROOT, "wordcount: one-MB blocks on loopback, where a remote read costs almost nothing;"
        + " its time says nothing about locality.%n"
        + "scan: %d-MB blocks; a block with no replica on the map's host is read at %.0f MB/s (a modeled network:"
        + " loopback has none), a local one at disk speed; %d-MB maps, two at a time on each host. Its time shows"
        + " balance and locality under that model on a two-core machine, not a real network.",
        EmbeddedCluster.SCAN_BLOCK_MB, EmbeddedCluster.REMOTE_MB_PER_SEC, ScanJob.MAP_MB);
  }

  /** One row per scheduler and job, grouped by job. */
  static String table(List<EmbeddedCluster.Result> results) {
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "%-9s %-18s %10s %10s %6s %8s %9s %9s %10s  %s%n", "job", "scheduler",
        "data-local", "rack-local", "other", "busiest", "map phase", "job time", "remote MB", "maps per host"));
    List<EmbeddedCluster.Result> sorted = new ArrayList<>(results);
    sorted.sort(Comparator.comparing(r -> !r.job().equals("wordcount")));
    for (EmbeddedCluster.Result r : sorted) {
      String remote = r.job().equals("scan") ? String.format(Locale.ROOT, "%.0f", r.remoteBytes() / 1048576.0) : "-";
      sb.append(String.format(Locale.ROOT, "%-9s %-18s %10d %10d %6d %8d %8.1fs %8.1fs %10s  %s%n", r.job(),
          r.scheduler(), r.dataLocal(), r.rackLocal(), r.other(), r.busiest(), r.mapSeconds(), r.seconds(), remote,
          r.mapsPerHost()));
    }
    return sb.toString();
  }
}
