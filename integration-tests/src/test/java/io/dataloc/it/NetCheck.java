package io.dataloc.it;

import java.util.Arrays;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;

/**
 * Checks that the network costs ({@code bin/dataloc-cluster --network RATE check}): run as one
 * host, {@code write PATH BYTES} writes a one-block file with one replica (HDFS puts it on the
 * writer's own DataNode, now that each host has its own address) and {@code read PATH} times
 * reading it whole. Prints one {@code NETCHECK} line: where the block is, how long the read took.
 */
public final class NetCheck {
  private NetCheck() {}

  public static void main(String[] args) throws Exception {
    Configuration conf = new Configuration();
    FileSystem fs = FileSystem.get(conf);
    Path path = new Path(args[1]);
    if (args[0].equals("write")) {
      awaitDataNodes((DistributedFileSystem) fs, Integer.parseInt(args[3]));
      long bytes = Long.parseLong(args[2]);
      byte[] buf = new byte[1 << 20];
      Arrays.fill(buf, (byte) 'x');
      try (FSDataOutputStream out = fs.create(path, true, 1 << 16, (short) 1, bytes)) {
        for (long left = bytes; left > 0; left -= buf.length) {
          out.write(buf, 0, (int) Math.min(buf.length, left));
        }
      }
    }
    BlockLocation[] where = fs.getFileBlockLocations(path, 0, Long.MAX_VALUE);
    long t0 = System.nanoTime();
    long read = 0;
    byte[] buf = new byte[1 << 20];
    try (FSDataInputStream in = fs.open(path)) {
      for (int n; (n = in.read(buf)) > 0; ) {
        read += n;
      }
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    System.out.println(String.format(Locale.ROOT, "NETCHECK %s bytes=%d block-on=%s seconds=%.2f MBps=%.1f", args[0],
        read, String.join(",", where[0].getHosts()), seconds, read / 1e6 / seconds));
  }

  private static void awaitDataNodes(DistributedFileSystem fs, int hosts) throws Exception {
    for (int i = 0; i < 600; i++) {
      try {
        if (fs.getDataNodeStats(HdfsConstants.DatanodeReportType.LIVE).length >= hosts && !fs.isInSafeMode()) {
          return;
        }
      } catch (java.io.IOException notYetUp) {
        // the NameNode is still starting
      }
      Thread.sleep(200);
    }
    throw new IllegalStateException("fewer than " + hosts + " DataNodes after 120 s");
  }
}
