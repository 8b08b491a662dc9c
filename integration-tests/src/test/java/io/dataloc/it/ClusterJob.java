package io.dataloc.it;

import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * The client of the multi-process cluster ({@code bin/dataloc-cluster run}): waits until HDFS has
 * its DataNodes and YARN its NodeManagers, writes one-block input files, runs a real wordcount,
 * verifies its output and prints one {@code DATALOC-REPORT} line with locality and maps per host.
 * Its configuration comes from the client conf directory the script puts on the class path.
 *
 * <p>Arguments: number of hosts to wait for, number of input files.
 */
public final class ClusterJob {
  private ClusterJob() {}

  public static void main(String[] args) throws Exception {
    int hosts = Integer.parseInt(args[0]);
    int files = Integer.parseInt(args[1]);
    Configuration conf = new YarnConfiguration();
    FileSystem fs = FileSystem.get(conf);
    for (int i = 0; i < 600; i++) {
      try {
        int live = ((DistributedFileSystem) fs).getDataNodeStats(HdfsConstants.DatanodeReportType.LIVE).length;
        if (live >= hosts && !((DistributedFileSystem) fs).isInSafeMode()) {
          break;
        }
      } catch (java.io.IOException notYetUp) {
        // the NameNode is still starting
      }
      Thread.sleep(200);
    }
    try (YarnClient yarn = YarnClient.createYarnClient()) {
      yarn.init(conf);
      yarn.start();
      for (int i = 0; i < 600 && yarn.getNodeReports(NodeState.RUNNING).size() < hosts; i++) {
        Thread.sleep(200);
      }
      System.out.println("cluster: " + yarn.getNodeReports(NodeState.RUNNING).size() + " NodeManagers, "
          + ((DistributedFileSystem) fs).getDataNodeStats(HdfsConstants.DatanodeReportType.LIVE).length
          + " DataNodes");
    }
    System.out.println("cluster: writing " + files + " one-block files (replication 2)");
    long words = EmbeddedCluster.writeInput(fs, files);
    EmbeddedCluster.Result r = EmbeddedCluster.wordcount("multiprocess", conf, fs, words, 1, System.out::println);
    System.out.println(String.format(Locale.ROOT,
        "DATALOC-REPORT data-local=%d rack-local=%d other=%d busiest-host=%d seconds=%.1f maps-per-host=%s",
        r.dataLocal(), r.rackLocal(), r.other(),
        r.mapsPerHost().values().stream().mapToInt(Integer::intValue).max().orElse(0), r.seconds(), r.mapsPerHost()));
  }
}
