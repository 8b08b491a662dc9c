package io.dataloc.it;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.apache.hadoop.mapreduce.TaskReport;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.map.TokenCounterMapper;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.IntSumReducer;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;

/**
 * An embedded cluster of four distinct hosts (node1..node4 on two racks; DataNode and NodeManager
 * names agree through the JVM hosts file the build generates). One HDFS holds the input of two real
 * MapReduce jobs: a wordcount over one-MB blocks and a map-heavy scan ({@link ScanJob}) over large
 * blocks whose remote reads are paced. YARN is started over it once per scheduler, so every
 * scheduler sees the same block placement. Used by the end-to-end test and by the demo.
 */
final class EmbeddedCluster {
  private static final String[] HOSTS = {"node1", "node2", "node3", "node4"};
  private static final String[] RACKS = {"/r1", "/r1", "/r2", "/r2"};
  /** The scan's block size: large enough that a paced remote read costs seconds. */
  static final int SCAN_BLOCK_MB = 32;
  /** The modeled network: a remote block is read at this many MB/s by each task. */
  static final double REMOTE_MB_PER_SEC = 4;
  /** How long one job may run before the run fails. */
  static final int JOB_LIMIT_MINUTES = 15;

  private EmbeddedCluster() {}

  /**
   * What one job did: locality from its counters, maps per host from its task events, its time,
   * and (for the scan) the bytes its maps read from blocks with no replica on their host and the
   * time pacing added to those reads. {@code mapSeconds} runs from the first map's start to the last
   * one's end: the part of the job that map placement decides.
   */
  record Result(String scheduler, String job, long dataLocal, long rackLocal, long other,
      Map<String, Integer> mapsPerHost, double seconds, double mapSeconds, long remoteBytes, long pacedMillis) {
    int busiest() {
      return mapsPerHost.values().stream().mapToInt(Integer::intValue).max().orElse(0);
    }

    long maps() {
      return dataLocal + rackLocal + other;
    }
  }

  /** An HDFS on node1..node4 holding both jobs' inputs; closing it stops it and deletes its files. */
  static final class Hdfs implements AutoCloseable {
    final MiniDFSCluster dfs;
    final int files;
    final long words;
    final ScanJob.Input scan;
    private final Path dir;

    private Hdfs(MiniDFSCluster dfs, int files, long words, ScanJob.Input scan, Path dir) {
      this.dfs = dfs;
      this.files = files;
      this.words = words;
      this.scan = scan;
      this.dir = dir;
    }

    /** The length of one scan input file (each is one block). */
    long scanFileBytes() throws java.io.IOException {
      return dfs.getFileSystem().getFileStatus(new org.apache.hadoop.fs.Path("/scan/part-0")).getLen();
    }

    @Override
    public void close() {
      dfs.shutdown();
      MiniMr.deleteQuietly(dir);
    }
  }

  /**
   * Starts HDFS under {@code dir} and writes {@code files} one-MB wordcount files to {@code /in}
   * and {@code files} {@value #SCAN_BLOCK_MB}-MB scan files to {@code /scan}, replication 2.
   * When {@code skewed}, node2's and node4's DataNodes are down while the input is written (favored
   * nodes are only a hint HDFS may ignore), so every block lands on node1 and node3, one per rack,
   * which the rack placement policy accepts as it is once they rejoin.
   */
  static Hdfs startHdfs(Path dir, boolean skewed, int files, Consumer<String> progress) throws Exception {
    Configuration conf = new Configuration();
    conf.setLong("dfs.blocksize", 1 << 20);
    conf.setInt("dfs.replication", 2);
    Path base = dir.resolve(skewed ? "skewed-dfs" : "dfs");
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, base.toString());
    MiniDFSCluster dfs = new MiniDFSCluster.Builder(conf).numDataNodes(4).hosts(HOSTS).racks(RACKS).build();
    try {
      dfs.waitActive();
      FileSystem fs = dfs.getFileSystem();
      progress.accept(String.format(Locale.ROOT, "HDFS up on node1..node4 (two racks); writing %d one-MB files and"
          + " %d %d-MB files%s", files, files, SCAN_BLOCK_MB, skewed ? " on node1 and node3 only" : ""));
      List<MiniDFSCluster.DataNodeProperties> stopped = new ArrayList<>();
      if (skewed) {
        stopped.add(dfs.stopDataNode(3)); // node4 (DataNodes are in HOSTS order)
        stopped.add(dfs.stopDataNode(1)); // node2
      }
      long words = writeInput(fs, files);
      ScanJob.Input scan = ScanJob.writeInput(fs, new org.apache.hadoop.fs.Path("/scan"), files,
          (long) SCAN_BLOCK_MB << 20);
      for (MiniDFSCluster.DataNodeProperties dn : stopped) {
        dfs.restartDataNode(dn, true);
      }
      dfs.waitActive();
      return new Hdfs(dfs, files, words, scan, base);
    } catch (Exception | Error e) {
      dfs.shutdown();
      MiniMr.deleteQuietly(base);
      throw e;
    }
  }

  /**
   * Starts YARN over {@code hdfs} under {@code scheduler} with {@code settings}, runs the
   * wordcount and then the scan, checks both outputs, and stops YARN.
   */
  static List<Result> run(String label, Class<? extends ResourceScheduler> scheduler, Map<String, String> settings,
      Hdfs hdfs, Path dir, Consumer<String> progress) throws Exception {
    MiniMRYarnCluster yarn = startYarn(label, scheduler, settings, hdfs, dir);
    try {
      Configuration clusterConf = new Configuration(yarn.getConfig());
      FileSystem fs = hdfs.dfs.getFileSystem();
      progress.accept(label + ": YARN up (" + scheduler.getSimpleName() + "); running the wordcount");
      Result words = wordcount(label, clusterConf, fs, hdfs.words, 1, progress);
      long declined = reportDeclines(yarn, label, "wordcount", 0, progress);
      progress.accept(label + ": running the scan");
      Result scan = scan(label, clusterConf, fs, hdfs.scan, progress);
      reportDeclines(yarn, label, "scan", declined, progress);
      return List.of(words, scan);
    } finally {
      yarn.stop();
    }
  }

  /**
   * Starts YARN over {@code hdfs}, under {@code scheduler} with {@code settings}: a
   * NodeManager of 4 GB on each host, containers of 512 MB (768 MB for an ApplicationMaster). The
   * caller stops it.
   */
  static MiniMRYarnCluster startYarn(String label, Class<? extends ResourceScheduler> scheduler,
      Map<String, String> settings, Hdfs hdfs, Path dir) throws Exception {
    Path table = dir.resolve(label + "-topology");
    Files.writeString(table, "node1 /r1\nnode2 /r1\nnode3 /r2\nnode4 /r2\n");
    Configuration yconf = new Configuration(hdfs.dfs.getConfiguration(0));
    yconf.setClass(YarnConfiguration.RM_SCHEDULER, scheduler, ResourceScheduler.class);
    settings.forEach(yconf::set);
    yconf.set("net.topology.node.switch.mapping.impl", "org.apache.hadoop.net.TableMapping");
    yconf.set("net.topology.table.file.name", table.toString());
    yconf.setInt(YarnConfiguration.NM_PMEM_MB, 4096);
    yconf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 512);
    String childOpts = "-Xmx200m -Djdk.net.hosts.file=" + System.getProperty("dataloc.hosts.file")
        + " -Djava.net.preferIPv4Stack=true " + System.getProperty("dataloc.test.opens", "");
    yconf.set("yarn.app.mapreduce.am.command-opts", "-Xmx400m " + childOpts.replace("-Xmx200m ", ""));
    yconf.setInt("yarn.app.mapreduce.am.resource.mb", 768);
    yconf.set("mapreduce.map.java.opts", childOpts);
    yconf.set("mapreduce.reduce.java.opts", childOpts);
    yconf.setInt("mapreduce.map.memory.mb", 512);
    yconf.setInt("mapreduce.reduce.memory.mb", 512);
    MiniMRYarnCluster yarn = new MiniMRYarnCluster(label, 4);
    try {
      yarn.init(yconf);
      for (int i = 0; i < 4; i++) {
        Configuration nm = yarn.getNodeManager(i).getConfig();
        nm.set("yarn.nodemanager.bind-host", "0.0.0.0");
        nm.set("yarn.nodemanager.address", HOSTS[i] + ":0");
      }
      yarn.start();
      return yarn;
    } catch (Exception | Error e) {
      yarn.stop();
      throw e;
    }
  }

  /**
   * Under Dataloc, says how many map containers the scheduler declined during the job so far (each
   * waits for that node's next heartbeat) and returns the running total.
   */
  private static long reportDeclines(MiniMRYarnCluster yarn, String label, String job, long before,
      Consumer<String> progress) {
    if (!(yarn.getResourceManager().getResourceScheduler() instanceof io.dataloc.yarn.LocalityScheduler dataloc)) {
      return 0;
    }
    long total = dataloc.datalocMetrics().declines();
    long declined = total - before;
    progress.accept(String.format(Locale.ROOT, "%s: %d map container%s declined during the %s to keep its plan",
        label, declined, declined == 1 ? "" : "s", job));
    return total;
  }

  /**
   * Runs a wordcount over {@code /in} on a running cluster, checks its output against the
   * {@code words} written, and reads locality from the job's counters and maps per host from its
   * task events.
   */
  static Result wordcount(String label, Configuration clusterConf, FileSystem fs, long words, int reduces,
      Consumer<String> progress) throws Exception {
    Job job = wordcountJob(label, clusterConf, reduces);
    double seconds = complete(job, label);
    verifyWordcount(label, fs, job, words);
    progress.accept(String.format(Locale.ROOT, "%s: wordcount done in %.1f s, output verified", label, seconds));
    return observe(label, "wordcount", job, seconds);
  }

  /** A wordcount over {@code /in} into {@code /out-LABEL} with {@code reduces} reduces, not submitted. */
  static Job wordcountJob(String label, Configuration clusterConf, int reduces) throws java.io.IOException {
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
    job.setNumReduceTasks(reduces);
    FileInputFormat.addInputPath(job, new org.apache.hadoop.fs.Path("/in"));
    FileOutputFormat.setOutputPath(job, new org.apache.hadoop.fs.Path("/out-" + label));
    return job;
  }

  /** Fails unless the wordcount's output counts the {@code words} written. */
  static void verifyWordcount(String label, FileSystem fs, Job job, long words) throws Exception {
    long counted = countOutput(fs, FileOutputFormat.getOutputPath(job));
    if (counted != words) {
      throw new IllegalStateException(label + ": counted " + counted + " words, wrote " + words);
    }
  }

  /** Runs the scan over {@code /scan} on a running cluster and checks its output. */
  static Result scan(String label, Configuration clusterConf, FileSystem fs, ScanJob.Input input,
      Consumer<String> progress) throws Exception {
    org.apache.hadoop.fs.Path out = new org.apache.hadoop.fs.Path("/scan-out-" + label);
    Job job = ScanJob.create(clusterConf, "scan-" + label, new org.apache.hadoop.fs.Path("/scan"), out,
        REMOTE_MB_PER_SEC);
    double seconds = complete(job, label);
    ScanJob.verify(fs, out, input);
    progress.accept(String.format(Locale.ROOT, "%s: scan done in %.1f s, output verified", label, seconds));
    return observe(label, "scan", job, seconds);
  }

  /**
   * Runs the job to its end, at most {@link #JOB_LIMIT_MINUTES} (a job takes about two): a job
   * that hangs is killed and fails the run instead of holding CI until its own limit.
   */
  private static double complete(Job job, String label) throws Exception {
    long t0 = System.nanoTime();
    job.submit();
    awaitEnd(job, label, t0);
    return (System.nanoTime() - t0) / 1e9;
  }

  /**
   * Waits for a submitted job's end, at most {@link #JOB_LIMIT_MINUTES} after {@code t0}
   * ({@link System#nanoTime}); fails, and kills the job, if it does not end or does not succeed.
   */
  static void awaitEnd(Job job, String label, long t0) throws Exception {
    long deadline = t0 + TimeUnit.MINUTES.toNanos(JOB_LIMIT_MINUTES);
    while (!job.isComplete()) {
      if (System.nanoTime() > deadline) {
        job.killJob();
        throw new IllegalStateException(String.format(Locale.ROOT, "%s: job %s (%s) not done after %d minutes; killed",
            label, job.getJobName(), job.getJobID(), JOB_LIMIT_MINUTES));
      }
      Thread.sleep(500);
    }
    if (!job.isSuccessful()) {
      throw new IllegalStateException(label + ": job " + job.getJobName() + " (" + job.getJobID() + ") failed: "
          + job.getStatus().getFailureInfo());
    }
  }

  private static Result observe(String label, String name, Job job, double seconds) throws Exception {
    Counters c = job.getCounters();
    Map<String, Integer> perHost = new TreeMap<>();
    for (TaskCompletionEvent e : job.getTaskCompletionEvents(0, 1000)) {
      if (e.isMapTask() && e.getStatus() == TaskCompletionEvent.Status.SUCCEEDED) {
        String host = java.net.URI.create(e.getTaskTrackerHttp()).getHost();
        perHost.merge(host, 1, Integer::sum);
      }
    }
    long first = Long.MAX_VALUE;
    long last = 0;
    for (TaskReport t : job.getTaskReports(TaskType.MAP)) {
      first = Math.min(first, t.getStartTime());
      last = Math.max(last, t.getFinishTime());
      if (Boolean.getBoolean("dataloc.e2e.timeline")) {
        System.out.printf(Locale.ROOT, "  %s %s %s start %d finish %d%n", label, name, t.getTaskId(),
            t.getStartTime() % 1_000_000, t.getFinishTime() % 1_000_000);
      }
    }
    if (Boolean.getBoolean("dataloc.e2e.timeline")) {
      for (TaskCompletionEvent e : job.getTaskCompletionEvents(0, 1000)) {
        System.out.printf(Locale.ROOT, "  %s %s %s on %s after %d ms%n", label, name, e.getTaskAttemptId(),
            e.getTaskTrackerHttp(), e.getTaskRunTime());
      }
    }
    return new Result(label, name, c.findCounter(JobCounter.DATA_LOCAL_MAPS).getValue(),
        c.findCounter(JobCounter.RACK_LOCAL_MAPS).getValue(), c.findCounter(JobCounter.OTHER_LOCAL_MAPS).getValue(),
        perHost, seconds, (last - first) / 1000.0, c.findCounter(RemotePacedTextInputFormat.Bytes.REMOTE).getValue(),
        c.findCounter(RemotePacedTextInputFormat.Bytes.PACED_MILLIS).getValue());
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
