package io.dataloc.it;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.TypeConverter;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser;
import org.apache.hadoop.mapreduce.v2.jobhistory.JobHistoryUtils;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.lib.output.NullOutputFormat;

/**
 * The multi-job workload over the cluster of {@code bin/dataloc-cluster --network RATE workload}:
 * many real MapReduce jobs arriving over time, each reading whole blocks and computing little, so
 * the network decides how long a map takes.
 *
 * <ul>
 *   <li>{@code write DIR FILES BLOCK_MB spread|hot SEED HOSTS}: FILES one-block files, two replicas
 *       each, placed through HDFS's favored nodes: {@code spread} on two hosts of two racks drawn
 *       at random; {@code hot} on node1 and node3 (popular data; one per rack), one file in six
 *       spread. A file is written again (up to five tries) until its replicas are where the seed
 *       says, so runs of one seed read the same input.
 *   <li>{@code run DIR JOBS SEED MEAN_GAP_S CSV LABEL}: JOBS jobs with exponential gaps of mean
 *       MEAN_GAP_S seconds; sizes heavy-tailed as in the Facebook trace of the delay-scheduling
 *       paper, scaled down (half of the jobs 1–2 maps, most of the rest 4–8, one in ten 16); each
 *       job reads that many consecutive files from a seeded offset, one map per file, no reduce
 *       (identity maps into {@code NullOutputFormat}: Hadoop's own classes, nothing to ship).
 *       Writes one CSV row per job and prints a {@code WORKLOAD} summary line.
 * </ul>
 * The same seed gives every scheduler the same files, placement, arrivals and sizes.
 */
public final class Workload {
  private Workload() {}

  public static void main(String[] args) throws Exception {
    Configuration conf = new Configuration();
    FileSystem fs = FileSystem.get(conf);
    switch (args[0]) {
      case "write" -> write((DistributedFileSystem) fs, new Path(args[1]), Integer.parseInt(args[2]),
          Long.parseLong(args[3]) << 20, args[4], Long.parseLong(args[5]), Integer.parseInt(args[6]));
      case "run" -> run(conf, fs, new Path(args[1]), Integer.parseInt(args[2]), Long.parseLong(args[3]),
          Double.parseDouble(args[4]), java.nio.file.Path.of(args[5]), args[6]);
      default -> throw new IllegalArgumentException("usage: write DIR FILES BLOCK_MB spread|hot SEED HOSTS | "
          + "run DIR JOBS SEED MEAN_GAP_S CSV LABEL");
    }
  }

  static void write(DistributedFileSystem fs, Path dir, int files, long blockBytes, String placement, long seed,
      int hosts) throws Exception {
    Map<String, InetSocketAddress> dataNodes = awaitDataNodes(fs, hosts);
    Map<String, String> racks = new HashMap<>();
    for (DatanodeInfo d : fs.getDataNodeStats(HdfsConstants.DatanodeReportType.LIVE)) {
      racks.put(d.getHostName(), d.getNetworkLocation());
    }
    List<String> names = new ArrayList<>(new TreeMap<>(dataNodes).keySet());
    List<List<String>> where = replicaHosts(files, placement, seed, names, racks);
    byte[] line = "0123456789abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefghijklmnopqrstuvwxyz012\n"
        .getBytes(StandardCharsets.US_ASCII);
    byte[] page = new byte[line.length * 8192];
    for (int i = 0; i < 8192; i++) {
      System.arraycopy(line, 0, page, i * line.length, line.length);
    }
    fs.delete(dir, true);
    Map<String, Integer> perHost = new TreeMap<>();
    for (int f = 0; f < files; f++) {
      List<String> pick = where.get(f);
      InetSocketAddress[] favored = pick.stream().map(dataNodes::get).toArray(InetSocketAddress[]::new);
      Path p = new Path(dir, String.format(Locale.ROOT, "part-%03d", f));
      // Favored nodes are hints: HDFS may put a replica elsewhere (a node busy at that moment), and
      // then two runs of one seed would not read the same input. The file is written again until
      // its replicas are where the seed says (a few tries), else a warning names it.
      Set<String> placed = Set.of();
      for (int attempt = 0; attempt < 5 && !placed.equals(Set.copyOf(pick)); attempt++) {
        try (FSDataOutputStream out = fs.create(p, FsPermission.getFileDefault(), true, 1 << 16, (short) 2, blockBytes,
            null, favored)) {
          for (long left = blockBytes; left > 0; left -= page.length) {
            out.write(page, 0, (int) Math.min(page.length, left));
          }
        }
        placed = hostsOf(fs, p);
      }
      if (!placed.equals(Set.copyOf(pick))) {
        System.out.println("WORKLOAD-INPUT-WARNING " + p.getName() + " is on " + placed + ", not on " + pick);
      }
      for (String h : placed) {
        perHost.merge(h, 1, Integer::sum); // one block per file
      }
    }
    System.out.println("WORKLOAD-INPUT files=" + files + " block-mb=" + (blockBytes >> 20) + " placement=" + placement
        + " replicas-per-host=" + perHost);
  }

  /**
   * Where each file's two replicas go, for {@code names} (sorted) on {@code racks}: {@code hot}
   * puts five files in six on the first and third host (one per rack, as HDFS's rack rule wants);
   * every other file goes to a host drawn at random and one of another rack (HDFS puts the second
   * replica on another rack than the first whatever the favored nodes say). The trace replay's
   * calibration places its model's blocks with this too.
   */
  static List<List<String>> replicaHosts(int files, String placement, long seed, List<String> names,
      Map<String, String> racks) {
    SplittableRandom rnd = new SplittableRandom(seed);
    List<List<String>> out = new ArrayList<>();
    for (int f = 0; f < files; f++) {
      if (placement.equals("hot") && f % 6 != 5) {
        out.add(List.of(names.get(0), names.get(2)));
        continue;
      }
      String a = names.get(rnd.nextInt(names.size()));
      List<String> others = names.stream().filter(n -> !racks.get(n).equals(racks.get(a))).toList();
      if (others.isEmpty()) {
        others = names.stream().filter(n -> !n.equals(a)).toList();
      }
      out.add(List.of(a, others.get(rnd.nextInt(others.size()))));
    }
    return out;
  }

  /**
   * The hosts holding a replica of any block of the file, once the NameNode knows of both replicas
   * of every block (a DataNode reports a new replica a moment after the file is closed), or what it
   * knows after ten seconds.
   */
  private static Set<String> hostsOf(DistributedFileSystem fs, Path p) throws Exception {
    Set<String> hosts = new java.util.TreeSet<>();
    for (int i = 0; i < 100; i++) {
      hosts.clear();
      boolean complete = true;
      for (BlockLocation b : fs.getFileBlockLocations(p, 0, Long.MAX_VALUE)) {
        hosts.addAll(List.of(b.getHosts()));
        complete &= b.getHosts().length >= 2;
      }
      if (complete) {
        break;
      }
      Thread.sleep(100);
    }
    return hosts;
  }

  private static Map<String, InetSocketAddress> awaitDataNodes(DistributedFileSystem fs, int hosts) throws Exception {
    for (int i = 0; i < 600; i++) {
      try {
        DatanodeInfo[] live = fs.getDataNodeStats(HdfsConstants.DatanodeReportType.LIVE);
        if (live.length >= hosts && !fs.isInSafeMode()) {
          Map<String, InetSocketAddress> out = new HashMap<>();
          for (DatanodeInfo d : live) {
            out.put(d.getHostName(), new InetSocketAddress(d.getHostName(), d.getXferPort()));
          }
          return out;
        }
      } catch (IOException notYetUp) {
        // the NameNode is still starting
      }
      Thread.sleep(200);
    }
    throw new IllegalStateException("fewer than " + hosts + " DataNodes after 120 s");
  }

  /** One job of the workload: when it arrives and which files it reads. */
  record Spec(int index, double arrival, int first, int maps) {}

  static List<Spec> specs(int jobs, long seed, double meanGap, int files) {
    SplittableRandom rnd = new SplittableRandom(seed ^ 0x5DEECE66DL);
    List<Spec> out = new ArrayList<>();
    double t = 0;
    for (int j = 0; j < jobs; j++) {
      double u = rnd.nextDouble();
      int maps = u < 0.5 ? 1 + rnd.nextInt(2) : u < 0.9 ? 4 + 4 * rnd.nextInt(2) : 16;
      out.add(new Spec(j, t, rnd.nextInt(files), Math.min(maps, files)));
      t += -meanGap * Math.log(1 - rnd.nextDouble());
    }
    return out;
  }

  /** Submits one job. */
  interface Submission {
    void submit(Spec s) throws Exception;
  }

  /**
   * Calls {@code submit} for each spec at {@code t0} plus its arrival, each on a thread of its own,
   * as independent users submit: a submission slowed by a busy cluster (its files go to HDFS over
   * the shaped links) delays only its own job, which is timed from the start of its submission.
   * (Submitted one after another, a slow submission pushed every later arrival back, and a job
   * that arrived late met a cluster that had had longer to drain, which favoured the scheduler that
   * loaded the links most.) Returns when every submission has returned; the first failure is
   * thrown, naming its job.
   */
  static void atArrivals(List<Spec> specs, long t0, Submission submit) throws IOException, InterruptedException {
    java.util.concurrent.ExecutorService submitters = java.util.concurrent.Executors.newFixedThreadPool(
        Math.max(1, Math.min(specs.size(), MAX_SUBMITTERS)));
    try {
      List<java.util.concurrent.Future<?>> done = new ArrayList<>();
      for (Spec s : specs) {
        done.add(submitters.submit(() -> {
          long wait = t0 + Math.round(s.arrival() * 1000) - System.currentTimeMillis();
          if (wait > 0) {
            Thread.sleep(wait);
          }
          submit.submit(s);
          return null;
        }));
      }
      for (int i = 0; i < done.size(); i++) {
        try {
          done.get(i).get();
        } catch (java.util.concurrent.ExecutionException e) {
          throw new IOException("job " + specs.get(i).index() + " could not be submitted: " + e.getCause(), e.getCause());
        }
      }
    } finally {
      submitters.shutdownNow();
    }
  }

  /**
   * The columns of {@code jobs.csv}, one row per job: times in seconds from its submission
   * ({@code am_wait_s} until its AM started, {@code job_start_s} until the AM, registered with the
   * ResourceManager, started the job (the history's launch time), {@code first_map_s} until its
   * first map attempt started, {@code map_phase_s} until its last map ended, {@code jct_s} until it
   * finished). A history without the AM's start gives {@code am_wait_s} 0, one without the job's
   * launch gives {@code job_start_s} equal to {@code am_wait_s}, and a job without a started map
   * (none here: each has maps) gives {@code first_map_s} equal to {@code map_phase_s}.
   */
  static final String JOBS_HEADER = "label,job,maps,arrival_s,jct_s,map_phase_s,data_local,rack_local,maps_per_host,"
      + "am_host,am_wait_s,first_map_s,job_start_s";

  /**
   * The columns of {@code jobs.csv} that time a job from its submission, in the order the moments
   * come: its AM starts, the AM starts the job, its first map starts, its last map ends, it ends.
   */
  static final List<String> JOB_TIMES = List.of("am_wait_s", "job_start_s", "first_map_s", "map_phase_s", "jct_s");

  /** At most this many jobs are being submitted at once (one thread each; a run has a few dozen jobs). */
  static final int MAX_SUBMITTERS = 64;

  /** The MapReduce job of {@code s}: identity maps over its files into {@code NullOutputFormat}, no reduce. */
  private static Job job(Configuration conf, Path dir, int files, Spec s, String label) throws IOException {
    Job job = Job.getInstance(conf, label + "-job" + s.index());
    Configuration c = job.getConfiguration();
    c.setBoolean("mapreduce.map.speculative", false);
    c.setInt("mapreduce.map.maxattempts", 4);
    c.setInt("mapreduce.map.memory.mb", 1024); // few maps per host: four on a 4-GB NodeManager
    job.setInputFormatClass(TextInputFormat.class);
    job.setMapperClass(Mapper.class);
    job.setNumReduceTasks(0);
    job.setOutputFormatClass(NullOutputFormat.class);
    for (int k = 0; k < s.maps(); k++) {
      FileInputFormat.addInputPath(job, new Path(dir, String.format(Locale.ROOT, "part-%03d", (s.first() + k) % files)));
    }
    return job;
  }

  static void run(Configuration conf, FileSystem fs, Path dir, int jobs, long seed, double meanGap,
      java.nio.file.Path csv, String label) throws Exception {
    // Rows are appended: refuse, before any job runs, a file whose columns are not these.
    if (Files.exists(csv) && Files.size(csv) > 0) {
      try (var lines = Files.lines(csv, StandardCharsets.UTF_8)) {
        String head = lines.findFirst().orElse("");
        if (!head.equals(JOBS_HEADER)) {
          throw new IllegalArgumentException(csv + " has other columns (" + head + "), written by another version;"
              + " move it away or name another file for the per-job rows");
        }
      }
    }
    int files = fs.listStatus(dir).length;
    List<Spec> specs = specs(jobs, seed, meanGap, files);
    Job[] submitted = new Job[jobs];
    long[] submitMs = new long[jobs];
    long t0 = System.currentTimeMillis();
    atArrivals(specs, t0, s -> {
      Job job = job(conf, dir, files, s, label);
      submitMs[s.index()] = System.currentTimeMillis();
      job.submit();
      submitted[s.index()] = job;
      System.out.println(String.format(Locale.ROOT, "workload: t=%.1fs submitted job %d (%d maps)",
          (submitMs[s.index()] - t0) / 1000.0, s.index(), s.maps()));
    });
    // Finished jobs are watched through the ResourceManager (an MR client asks the AM, which is
    // gone once its job ends; no history server runs here), and measured from their history files.
    long[] finishMs = new long[jobs];
    try (YarnClient yarn = YarnClient.createYarnClient()) {
      yarn.init(conf);
      yarn.start();
      for (int left = jobs; left > 0; ) {
        Thread.sleep(1000);
        left = 0;
        for (int j = 0; j < jobs; j++) {
          if (finishMs[j] != 0) {
            continue;
          }
          ApplicationReport r = yarn.getApplicationReport(TypeConverter.toYarn(submitted[j].getJobID()).getAppId());
          if (r.getYarnApplicationState() == YarnApplicationState.FINISHED
              || r.getYarnApplicationState() == YarnApplicationState.FAILED
              || r.getYarnApplicationState() == YarnApplicationState.KILLED) {
            if (r.getFinalApplicationStatus() != FinalApplicationStatus.SUCCEEDED) {
              throw new IllegalStateException(submitted[j].getJobName() + " ended " + r.getFinalApplicationStatus()
                  + ": " + r.getDiagnostics());
            }
            finishMs[j] = r.getFinishTime();
            System.out.println(String.format(Locale.ROOT, "workload: t=%.1fs job %d done in %.1f s",
                (finishMs[j] - t0) / 1000.0, j, (finishMs[j] - submitMs[j]) / 1000.0));
          } else {
            left++;
          }
        }
      }
    }
    double[] jct = new double[jobs];
    double[] mapPhase = new double[jobs];
    long local = 0;
    long rack = 0;
    long maps = 0;
    long lastFinish = 0;
    List<Double> localMapSeconds = new ArrayList<>();
    List<Double> remoteMapSeconds = new ArrayList<>();
    Map<String, Integer> mapsPerHost = new TreeMap<>();
    Map<String, Integer> amHosts = new TreeMap<>();
    double amWaits = 0;
    // AMs from their start to the job's end (the first attempt's), and every map attempt (no reduces here)
    long containerMs = 0;
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(csv, StandardCharsets.UTF_8,
        java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND))) {
      if (Files.size(csv) == 0) {
        w.println(JOBS_HEADER);
      }
      for (int j = 0; j < jobs; j++) {
        JobHistoryParser.JobInfo info = history(conf, fs, submitted[j]);
        lastFinish = Math.max(lastFinish, finishMs[j]);
        jct[j] = (finishMs[j] - submitMs[j]) / 1000.0;
        long lastEnd = 0;
        long firstStart = Long.MAX_VALUE;
        Map<String, Integer> hosts = new TreeMap<>();
        for (JobHistoryParser.TaskInfo t : info.getAllTasks().values()) {
          if (t.getTaskType() != TaskType.MAP) {
            continue;
          }
          lastEnd = Math.max(lastEnd, t.getFinishTime());
          for (JobHistoryParser.TaskAttemptInfo any : t.getAllTaskAttempts().values()) {
            if (any.getStartTime() > 0) {
              firstStart = Math.min(firstStart, any.getStartTime()); // failed or killed attempts too
              if (any.getFinishTime() > any.getStartTime()) {
                containerMs += any.getFinishTime() - any.getStartTime();
              }
            }
          }
          JobHistoryParser.TaskAttemptInfo a = t.getAllTaskAttempts().get(t.getSuccessfulAttemptId());
          if (a == null) {
            continue;
          }
          String host = a.getHostname();
          hosts.merge(host, 1, Integer::sum);
          mapsPerHost.merge(host, 1, Integer::sum);
          double secs = (a.getFinishTime() - a.getStartTime()) / 1000.0;
          boolean onData = Arrays.asList(t.getSplitLocations().split(",")).contains(host);
          (onData ? localMapSeconds : remoteMapSeconds).add(secs);
        }
        // The map phase: from the job's submission to its last map's end (waiting included).
        mapPhase[j] = (lastEnd - submitMs[j]) / 1000.0;
        long l = info.getTotalCounters().findCounter(JobCounter.DATA_LOCAL_MAPS).getValue();
        long r = info.getTotalCounters().findCounter(JobCounter.RACK_LOCAL_MAPS).getValue();
        local += l;
        rack += r;
        maps += specs.get(j).maps();
        // Where its ApplicationMaster ran, and how long from submission until it started.
        var am = info.getAMInfos() == null || info.getAMInfos().isEmpty() ? null : info.getAMInfos().get(0);
        String amHost = am == null ? "" : am.getNodeManagerHost();
        double amWait = am == null ? 0 : (am.getStartTime() - submitMs[j]) / 1000.0;
        amHosts.merge(amHost, 1, Integer::sum);
        amWaits += amWait;
        if (am != null && finishMs[j] > am.getStartTime()) {
          containerMs += finishMs[j] - am.getStartTime();
        }
        // Until the AM had registered and started the job (its start-up), when the history has it.
        double jobStart = info.getLaunchTime() > 0 ? (info.getLaunchTime() - submitMs[j]) / 1000.0 : amWait;
        // From submission to its first map's start: the AM's wait, its start-up and that map's scheduling.
        // (A job that succeeded ran a map; without one the whole map phase counts before the first map.)
        double firstMap = firstStart == Long.MAX_VALUE ? mapPhase[j] : (firstStart - submitMs[j]) / 1000.0;
        w.println(String.format(Locale.ROOT, "%s,%d,%d,%.1f,%.1f,%.1f,%d,%d,%s,%s,%.1f,%.1f,%.1f", label, j,
            specs.get(j).maps(), (submitMs[j] - t0) / 1000.0, jct[j], mapPhase[j], l, r,
            hosts.toString().replace(", ", " "), amHost, amWait, firstMap, jobStart));
      }
    }
    double[] sorted = jct.clone();
    Arrays.sort(sorted);
    System.out.println(String.format(Locale.ROOT,
        "WORKLOAD label=%s jobs=%d maps=%d mean=%.1f p50=%.1f p95=%.1f makespan=%.1f map-phase-mean=%.1f "
            + "data-local=%d rack-local=%d map-seconds-on-data=%.1f(n=%d) map-seconds-remote=%.1f(n=%d) "
            + "maps-per-host=%s am-hosts=%s am-wait-mean=%.1f containers-mean=%.1f",
        label, jobs, maps, Arrays.stream(jct).average().orElse(0), percentile(sorted, 0.5), percentile(sorted, 0.95),
        (lastFinish - t0) / 1000.0, Arrays.stream(mapPhase).average().orElse(0), local, rack,
        localMapSeconds.stream().mapToDouble(Double::doubleValue).average().orElse(0), localMapSeconds.size(),
        remoteMapSeconds.stream().mapToDouble(Double::doubleValue).average().orElse(0), remoteMapSeconds.size(),
        mapsPerHost.toString().replace(", ", " "), amHosts.toString().replace(", ", " "), amWaits / jobs,
        lastFinish > t0 ? containerMs / (double) (lastFinish - t0) : 0));
  }

  /** The job's history file, which its AM leaves in the intermediate done directory as it ends. */
  private static JobHistoryParser.JobInfo history(Configuration conf, FileSystem fs, Job job) throws Exception {
    Path dir = new Path(JobHistoryUtils.getConfiguredHistoryIntermediateDoneDirPrefix(conf),
        job.getConfiguration().get("mapreduce.job.user.name", System.getProperty("user.name")));
    String prefix = job.getJobID().toString() + "-";
    for (int i = 0; i < 300; i++) {
      if (fs.exists(dir)) {
        for (var st : fs.listStatus(dir)) {
          String name = st.getPath().getName();
          if (name.startsWith(prefix) && name.endsWith(".jhist")) {
            return new JobHistoryParser(fs, st.getPath()).parse();
          }
        }
      }
      Thread.sleep(200);
    }
    throw new IllegalStateException("no history file for " + job.getJobID() + " in " + dir);
  }

  /** The nearest-rank percentile of sorted values. */
  static double percentile(double[] sorted, double q) {
    int rank = (int) Math.ceil(q * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }
}
