package io.dataloc.it;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.map.TokenCounterMapper;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.IntSumReducer;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;

/**
 * An embedded cluster of four distinct hosts (node1..node4 on two racks; DataNode and NodeManager
 * names agree through the JVM hosts file the build generates) running a real MapReduce wordcount
 * over HDFS under a given scheduler. Used by the end-to-end test and by the demo.
 */
final class EmbeddedCluster {
  private static final String[] HOSTS = {"node1", "node2", "node3", "node4"};
  private static final String[] RACKS = {"/r1", "/r1", "/r2", "/r2"};

  private EmbeddedCluster() {}

  record Result(String scheduler, long dataLocal, long rackLocal, long other, Map<String, Integer> mapsPerHost,
      double seconds) {}

  /** Runs the wordcount on a fresh cluster under {@code scheduler}; everything is stopped after. */
  static Result run(String label, Class<? extends ResourceScheduler> scheduler, Path dir, int files,
      java.util.function.Consumer<String> progress) throws Exception {
    return run(label, scheduler, Map.of(), false, dir, files, progress);
  }

  /**
   * As above, with scheduler settings, and with every block on node1 and node2 when
   * {@code skewed}, the others holding none.
   */
  static Result run(String label, Class<? extends ResourceScheduler> scheduler, Map<String, String> settings,
      boolean skewed, Path dir, int files, java.util.function.Consumer<String> progress) throws Exception {
    String hostsFile = System.getProperty("dataloc.hosts.file");
    Configuration conf = new Configuration();
    conf.setLong("dfs.blocksize", 1 << 20);
    conf.setInt("dfs.replication", 2);
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, dir.resolve(label + "-dfs").toString());
    MiniDFSCluster dfs = new MiniDFSCluster.Builder(conf).numDataNodes(4).hosts(HOSTS).racks(RACKS).build();
    MiniMRYarnCluster yarn = null;
    try {
      dfs.waitActive();
      FileSystem fs = dfs.getFileSystem();
      progress.accept(label + ": HDFS up on node1..node4 (two racks); writing " + files + " one-block files"
          + (skewed ? " on node1 and node2 only" : ""));
      // Skewed: node3 and node4's DataNodes are down while the input is written (favored nodes are
      // only a hint HDFS may ignore), so every block lands on node1 and node2; then they rejoin.
      List<MiniDFSCluster.DataNodeProperties> stopped = new java.util.ArrayList<>();
      if (skewed) {
        stopped.add(dfs.stopDataNode(3)); // node4 (DataNodes are in HOSTS order)
        stopped.add(dfs.stopDataNode(2)); // node3
      }
      long words = writeInput(fs, files);
      for (MiniDFSCluster.DataNodeProperties dn : stopped) {
        dfs.restartDataNode(dn, true);
      }
      dfs.waitActive();
      Path table = dir.resolve(label + "-topology");
      Files.writeString(table, "node1 /r1\nnode2 /r1\nnode3 /r2\nnode4 /r2\n");
      Configuration yconf = new Configuration(dfs.getConfiguration(0));
      yconf.setClass(YarnConfiguration.RM_SCHEDULER, scheduler, ResourceScheduler.class);
      settings.forEach(yconf::set);
      yconf.set("net.topology.node.switch.mapping.impl", "org.apache.hadoop.net.TableMapping");
      yconf.set("net.topology.table.file.name", table.toString());
      yconf.setInt(YarnConfiguration.NM_PMEM_MB, 4096);
      yconf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 512);
      String childOpts = "-Xmx200m -Djdk.net.hosts.file=" + hostsFile + " -Djava.net.preferIPv4Stack=true "
          + System.getProperty("dataloc.test.opens", "");
      yconf.set("yarn.app.mapreduce.am.command-opts", "-Xmx400m " + childOpts.replace("-Xmx200m ", ""));
      yconf.setInt("yarn.app.mapreduce.am.resource.mb", 768);
      yconf.set("mapreduce.map.java.opts", childOpts);
      yconf.set("mapreduce.reduce.java.opts", childOpts);
      yconf.setInt("mapreduce.map.memory.mb", 512);
      yconf.setInt("mapreduce.reduce.memory.mb", 512);
      yarn = new MiniMRYarnCluster(label, 4);
      yarn.init(yconf);
      for (int i = 0; i < 4; i++) {
        Configuration nm = yarn.getNodeManager(i).getConfig();
        nm.set("yarn.nodemanager.bind-host", "0.0.0.0");
        nm.set("yarn.nodemanager.address", HOSTS[i] + ":0");
      }
      yarn.start();
      progress.accept(label + ": YARN up (" + scheduler.getSimpleName() + "); running wordcount");
      return wordcount(label, new Configuration(yarn.getConfig()), fs, words, progress);
    } finally {
      if (yarn != null) {
        yarn.stop();
      }
      dfs.shutdown();
    }
  }

  /**
   * Runs a wordcount over {@code /in} on a running cluster, checks its output against the
   * {@code words} written, and reads locality from the job's counters and maps per host from its
   * task events.
   */
  static Result wordcount(String label, Configuration clusterConf, FileSystem fs, long words,
      java.util.function.Consumer<String> progress) throws Exception {
    Job job = Job.getInstance(clusterConf, "wordcount-" + label);
    // No speculative attempts: the locality counters then count each map exactly once.
    job.getConfiguration().setBoolean("mapreduce.map.speculative", false);
    job.getConfiguration().setBoolean("mapreduce.reduce.speculative", false);
    job.setJarByClass(EmbeddedCluster.class);
    job.setMapperClass(TokenCounterMapper.class);
    job.setCombinerClass(IntSumReducer.class);
    job.setReducerClass(IntSumReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(IntWritable.class);
    job.setNumReduceTasks(1);
    FileInputFormat.addInputPath(job, new org.apache.hadoop.fs.Path("/in"));
    org.apache.hadoop.fs.Path out = new org.apache.hadoop.fs.Path("/out-" + label);
    FileOutputFormat.setOutputPath(job, out);
    long t0 = System.nanoTime();
    if (!job.waitForCompletion(false)) {
      throw new IllegalStateException(label + ": the wordcount job failed");
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    long counted = countOutput(fs, out);
    if (counted != words) {
      throw new IllegalStateException(label + ": counted " + counted + " words, wrote " + words);
    }
    progress.accept(String.format(java.util.Locale.ROOT, "%s: done in %.1f s, output verified", label, seconds));
    var c = job.getCounters();
    Map<String, Integer> perHost = new TreeMap<>();
    for (TaskCompletionEvent e : job.getTaskCompletionEvents(0, 1000)) {
      if (e.isMapTask() && e.getStatus() == TaskCompletionEvent.Status.SUCCEEDED) {
        String host = java.net.URI.create(e.getTaskTrackerHttp()).getHost();
        perHost.merge(host, 1, Integer::sum);
      }
    }
    return new Result(label, c.findCounter(JobCounter.DATA_LOCAL_MAPS).getValue(),
        c.findCounter(JobCounter.RACK_LOCAL_MAPS).getValue(), c.findCounter(JobCounter.OTHER_LOCAL_MAPS).getValue(),
        perHost, seconds);
  }

  /** One-block files of words; returns how many words there are. */
  static long writeInput(FileSystem fs, int files) throws Exception {
    long words = 0;
    for (int f = 0; f < files; f++) {
      org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path("/in/part-" + f);
      try (FSDataOutputStream out = fs.create(path)) {
        StringBuilder sb = new StringBuilder();
        int n = 0;
        while (sb.length() < 900_000) {
          sb.append("word").append(n % 97).append(' ');
          if (++n % 20 == 0) {
            sb.append('\n');
          }
        }
        out.write(sb.toString().getBytes(StandardCharsets.UTF_8));
        words += n;
      }
    }
    return words;
  }

  private static long countOutput(FileSystem fs, org.apache.hadoop.fs.Path out) throws Exception {
    long total = 0;
    for (FileStatus st : fs.listStatus(out)) {
      if (st.getPath().getName().startsWith("part-")) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(fs.open(st.getPath()), StandardCharsets.UTF_8))) {
          String line;
          while ((line = r.readLine()) != null) {
            total += Long.parseLong(line.substring(line.indexOf('\t') + 1));
          }
        }
      }
    }
    return total;
  }
}
