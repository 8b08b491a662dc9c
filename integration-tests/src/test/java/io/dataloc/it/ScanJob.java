package io.dataloc.it;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.LongSumReducer;

/**
 * The map-heavy job: a grep over large one-block files. Every map reads a whole block (through
 * {@link RemotePacedTextInputFormat}, so a block read from another host costs network time) and
 * matches a pattern on every line; the single reduce only adds three numbers. Maps take 1.5 GB
 * containers, two to a four-GB NodeManager, so 24 maps on four hosts run in waves and the busiest
 * host's count shows in the job time.
 */
final class ScanJob {
  /** What the input holds, to check the job's output against. */
  record Input(long lines, long matches, long sum) {}

  static final int MAP_MB = 1536;
  private static final Pattern NEEDLE = Pattern.compile("needle-(\\d+)\\b");

  private ScanJob() {}

  /**
   * Writes {@code files} files of just under {@code blockBytes} bytes each, one block apiece
   * (replication 2), under {@code dir}.
   */
  static Input writeInput(FileSystem fs, Path dir, int files, long blockBytes) throws IOException {
    StringBuilder page = new StringBuilder();
    long lines = 0;
    long matches = 0;
    long sum = 0;
    for (int i = 0; page.length() < (1 << 20) - 200; i++) {
      page.append("record-").append(i).append(" alpha beta gamma delta epsilon zeta eta theta iota kappa lambda");
      if (i % 50 == 0) {
        page.append(" needle-").append(i);
        matches++;
        sum += i;
      }
      page.append('\n');
      lines++;
    }
    byte[] bytes = page.toString().getBytes(StandardCharsets.UTF_8);
    long pages = blockBytes / bytes.length;
    for (int f = 0; f < files; f++) {
      try (FSDataOutputStream out = fs.create(new Path(dir, "part-" + f), true, 1 << 16, (short) 2, blockBytes)) {
        for (long p = 0; p < pages; p++) {
          out.write(bytes);
        }
      }
    }
    long copies = pages * files;
    return new Input(lines * copies, matches * copies, sum * copies);
  }

  /** The job over {@code in}, remote reads paced at {@code remoteMbPerSec}. */
  static Job create(Configuration clusterConf, String name, Path in, Path out, double remoteMbPerSec)
      throws IOException {
    Job job = Job.getInstance(clusterConf, name);
    Configuration conf = job.getConfiguration();
    conf.setBoolean("mapreduce.map.speculative", false);
    conf.setBoolean("mapreduce.reduce.speculative", false);
    conf.setInt("mapreduce.map.memory.mb", MAP_MB);
    conf.setDouble(RemotePacedTextInputFormat.RATE_KEY, remoteMbPerSec);
    job.setJarByClass(ScanJob.class);
    job.setInputFormatClass(RemotePacedTextInputFormat.class);
    job.setMapperClass(GrepMapper.class);
    job.setCombinerClass(LongSumReducer.class);
    job.setReducerClass(LongSumReducer.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(LongWritable.class);
    job.setNumReduceTasks(1);
    FileInputFormat.addInputPath(job, in);
    FileOutputFormat.setOutputPath(job, out);
    return job;
  }

  /** Throws unless the job's output is what {@code expected} says the input holds. */
  static void verify(FileSystem fs, Path out, Input expected) throws IOException {
    Map<String, Long> got = new HashMap<>();
    for (FileStatus st : fs.listStatus(out)) {
      if (st.getPath().getName().startsWith("part-")) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(fs.open(st.getPath()), StandardCharsets.UTF_8))) {
          String line;
          while ((line = r.readLine()) != null) {
            int tab = line.indexOf('\t');
            got.merge(line.substring(0, tab), Long.parseLong(line.substring(tab + 1)), Long::sum);
          }
        }
      }
    }
    Map<String, Long> want = Map.of("lines", expected.lines(), "matches", expected.matches(), "sum", expected.sum());
    if (!got.equals(want)) {
      throw new IllegalStateException("the scan's output " + got + " is not what the input holds: " + want);
    }
  }

  /** Counts lines and pattern matches and sums the matched numbers. */
  public static class GrepMapper extends Mapper<LongWritable, Text, Text, LongWritable> {
    private long lines;
    private long matches;
    private long sum;

    @Override
    protected void map(LongWritable key, Text value, Context context) {
      lines++;
      Matcher m = NEEDLE.matcher(value.toString());
      while (m.find()) {
        matches++;
        sum += Long.parseLong(m.group(1));
      }
    }

    @Override
    protected void cleanup(Context context) throws IOException, InterruptedException {
      context.write(new Text("lines"), new LongWritable(lines));
      context.write(new Text("matches"), new LongWritable(matches));
      context.write(new Text("sum"), new LongWritable(sum));
    }
  }
}
