package io.dataloc.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.core.am.WaitLog;
import io.dataloc.yarn.LocalityScheduler;
import io.dataloc.yarn.WaitReport;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.TypeConverter;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.NullOutputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.IntSumReducer;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractYarnScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplicationAttempt;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code reduce.max-share} with real MapReduce ApplicationMasters on real daemons (the embedded
 * four-host cluster, 16 GB of 512-MB containers): a job that holds one map waiting for a signal
 * stays in the scheduler while a wordcount with 24 slow reduces (asked for once its maps are done)
 * runs beside it. At 0.5 the wordcount's containers, its AM aside, never hold more than half the
 * cluster and one container, its wait report says why its reduces wait, and it finishes with every
 * reduce run once and its output right; at 1 (off) they take more than that, so the measure can see
 * the difference; and with MapReduce's default slow-start the job still ends. The real MapReduce
 * AM's asks, its reduce ramp-up and preemption, and its end meet the cap here, which the MockRM
 * tests imitate.
 */
@Tag("e2e")
class ReduceCapEndToEndTest {
  private static final int REDUCES = 24;

  @TempDir Path dir;

  /**
   * Holds its map until a file appears (at most half an hour, reporting progress so the task is not
   * timed out): an application that stays in the scheduler.
   */
  public static final class HoldMapper extends Mapper<LongWritable, Text, NullWritable, NullWritable> {
    static final String RELEASE = "dataloc.test.release";

    @Override
    protected void setup(Context context) throws IOException, InterruptedException {
      org.apache.hadoop.fs.Path release = new org.apache.hadoop.fs.Path(context.getConfiguration().get(RELEASE));
      FileSystem fs = release.getFileSystem(context.getConfiguration());
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(30);
      while (!fs.exists(release) && System.nanoTime() < deadline) {
        context.progress();
        Thread.sleep(200);
      }
    }

    @Override
    protected void map(LongWritable key, Text value, Context context) {}
  }

  /** Sums as the wordcount does, then holds its container four seconds: reduces that overlap. */
  public static final class SlowSumReducer extends IntSumReducer<Text> {
    @Override
    protected void cleanup(Context context) throws InterruptedException {
      Thread.sleep(4000);
    }
  }

  /**
   * With {@code slowStart} 1 the reduces are asked for once every map is done, so what the job
   * holds beyond its AM is its reduces' alone and the bound is checked; with MapReduce's default,
   * 0.05, they are asked for while maps still wait, and the AM's reduce ramp-up and its preemption
   * of reduces for maps meet the cap: the job must still end, every reduce run once.
   */
  @ParameterizedTest
  @CsvSource({"0.5, 1.0", "1, 1.0", "0.5, 0.05"})
  void aJobsReducesHoldAtMostTheShareWhileAnotherApplicationRuns(String maxShare, float slowStart) throws Exception {
    boolean on = maxShare.equals("0.5");
    try (EmbeddedCluster.Hdfs hdfs = EmbeddedCluster.startHdfs(dir, false, 8, System.out::println)) {
      String label = "reduce-cap-" + maxShare + "-slowstart-" + slowStart;
      MiniMRYarnCluster yarn = EmbeddedCluster.startYarn(label, LocalityScheduler.class,
          Map.of("yarn.scheduler.dataloc.reduce.max-share", maxShare,
              "yarn.resourcemanager.nodemanagers.heartbeat-interval-ms", "250"), hdfs, dir);
      try {
        Configuration conf = new Configuration(yarn.getConfig());
        FileSystem fs = hdfs.dfs.getFileSystem();
        LocalityScheduler s = (LocalityScheduler) yarn.getResourceManager().getResourceScheduler();

        org.apache.hadoop.fs.Path release = new org.apache.hadoop.fs.Path("/release-" + label);
        Job hold = Job.getInstance(conf, "hold-" + label);
        hold.setJarByClass(ReduceCapEndToEndTest.class);
        hold.getConfiguration().set(HoldMapper.RELEASE, release.toString());
        hold.setMapperClass(HoldMapper.class);
        hold.setNumReduceTasks(0);
        hold.setOutputFormatClass(NullOutputFormat.class);
        FileInputFormat.addInputPath(hold, new org.apache.hadoop.fs.Path("/in/part-0"));
        hold.submit();
        try {
          run(yarn, conf, s, hdfs, label, on, slowStart, hold);
        } catch (Exception | Error e) {
          try {
            fs.create(release).close(); // the holding job ends, whatever happened
          } catch (Exception | Error again) {
            e.addSuppressed(again);
          }
          throw e;
        }
        fs.create(release).close();
        EmbeddedCluster.awaitEnd(hold, label, System.nanoTime());
      } finally {
        yarn.stop();
      }
    }
  }

  /** The wordcount beside the holding job, watched, and what it held checked. */
  private static void run(MiniMRYarnCluster yarn, Configuration conf, LocalityScheduler s, EmbeddedCluster.Hdfs hdfs,
      String label, boolean on, float slowStart, Job hold) throws Exception {
    FileSystem fs = hdfs.dfs.getFileSystem();
    awaitContainers(yarn, hold, 2, "the holding job's AM and map run");

    Job words = EmbeddedCluster.wordcountJob(label, conf, REDUCES);
    words.setReducerClass(SlowSumReducer.class);
    words.getConfiguration().setFloat("mapreduce.job.reduce.slowstart.completedmaps", slowStart);
    words.submit();
    long cluster = s.getClusterResource().getMemorySize();
    long maxReduceMemory = 0;
    boolean saidCapped = false;
    ApplicationId wordsId = TypeConverter.toYarn(words.getJobID()).getAppId();
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(EmbeddedCluster.JOB_LIMIT_MINUTES);
    while (!words.isComplete()) {
      if (System.nanoTime() > deadline) {
        words.killJob();
        throw new IllegalStateException(label + ": the wordcount is not done after "
            + EmbeddedCluster.JOB_LIMIT_MINUTES + " minutes; killed");
      }
      maxReduceMemory = Math.max(maxReduceMemory, held(yarn, wordsId));
      WaitReport why = s.waitReports().of(wordsId);
      if (why != null && !why.latestRefusals().isEmpty()
          && why.latestRefusals().get(0).cause() == WaitLog.Cause.LAST_PHASE_CAPPED) {
        saidCapped = true;
      }
      Thread.sleep(20);
    }
    assertTrue(words.isSuccessful(), "the wordcount succeeded: " + words.getStatus().getFailureInfo());
    EmbeddedCluster.verifyWordcount(label, fs, words, hdfs.words);
    assertEquals(REDUCES, words.getCounters().findCounter(JobCounter.TOTAL_LAUNCHED_REDUCES).getValue(),
        "every reduce ran once");
    assertFalse(hold.isComplete(), "the holding job ran throughout");
    System.out.printf(Locale.ROOT, "%s: the wordcount's containers, its AM aside, held at most %d of %d MB;"
        + " reduces capped %d times; its wait report said so: %s%n", label, maxReduceMemory, cluster,
        s.datalocMetrics().reducesCapped(), saidCapped);

    long bound = cluster / 2 + 512; // once over half, no new reduce container: the last one taken crossed it
    if (slowStart < 1) {
      return; // maps, never capped, count in what it holds while they run beside its reduces
    }
    if (on) {
      assertTrue(maxReduceMemory <= bound, "at most half the cluster and one container: "
          + maxReduceMemory + " MB of " + cluster);
      assertTrue(s.datalocMetrics().reducesCapped() > 0, "reduces were held back");
      assertTrue(saidCapped, "the wait report said why its reduces waited");
    } else {
      assertTrue(maxReduceMemory > bound, "without the cap they take what is free: "
          + maxReduceMemory + " MB of " + cluster);
      assertEquals(0, s.datalocMetrics().reducesCapped());
      assertFalse(saidCapped);
    }
  }

  /** Waits until the job's application holds {@code n} containers (its AM's included). */
  private static void awaitContainers(MiniMRYarnCluster yarn, Job job, int n, String what) throws Exception {
    ApplicationId id = TypeConverter.toYarn(job.getJobID()).getAppId();
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
    while (attempt(yarn, id) == null || attempt(yarn, id).getLiveContainers().size() < n) {
      assertTrue(System.nanoTime() < deadline, what + ": not after five minutes");
      assertFalse(job.isComplete(), what + ": the job ended");
      Thread.sleep(100);
    }
  }

  /** The scheduler's record of the application's current attempt, or null. */
  private static SchedulerApplicationAttempt attempt(MiniMRYarnCluster yarn, ApplicationId id) {
    RMApp app = yarn.getResourceManager().getRMContext().getRMApps().get(id);
    return app == null || app.getCurrentAppAttempt() == null ? null
        : ((AbstractYarnScheduler<?, ?>) yarn.getResourceManager().getResourceScheduler())
            .getApplicationAttempt(app.getCurrentAppAttempt().getAppAttemptId());
  }

  /** The memory the application's current attempt holds (MB), its AM container aside. */
  private static long held(MiniMRYarnCluster yarn, ApplicationId id) {
    SchedulerApplicationAttempt attempt = attempt(yarn, id);
    var master = attempt == null ? null
        : yarn.getResourceManager().getRMContext().getRMApps().get(id).getCurrentAppAttempt().getMasterContainer();
    return attempt == null ? 0 : attempt.getCurrentConsumption().getMemorySize()
        - (master == null ? 0 : master.getResource().getMemorySize());
  }
}
