package io.dataloc.it;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.FileSplit;
import org.apache.hadoop.util.LineReader;

/**
 * Text input, one split per file, where bytes of a block with no replica on the task's host are
 * read no faster than {@value #RATE_KEY} MB/s. On one machine every DataNode is a loopback address
 * and a remote read costs what a local one does; this stands in for the network a remote read
 * crosses on a real cluster, so that job times say something about locality. A task's host is its
 * NodeManager's name ({@code NM_HOST}); a block's hosts are what the NameNode reports for it. The
 * map's counters record the bytes read each way and the time the pacing added.
 */
public class RemotePacedTextInputFormat extends FileInputFormat<LongWritable, Text> {
  /** Megabytes per second for remote bytes, per reading task; 0 or less: no pacing. */
  public static final String RATE_KEY = "dataloc.it.remote.read.mb.per.sec";

  /** Per-map counters. */
  public enum Bytes { LOCAL, REMOTE, PACED_MILLIS }

  @Override
  protected boolean isSplitable(JobContext context, Path file) {
    return false;
  }

  @Override
  public RecordReader<LongWritable, Text> createRecordReader(InputSplit split, TaskAttemptContext context) {
    return new Reader();
  }

  static final class Reader extends RecordReader<LongWritable, Text> {
    private LineReader lines;
    private PacedStream stream;
    private TaskAttemptContext context;
    private long offset;
    private long length;
    private final LongWritable key = new LongWritable();
    private final Text value = new Text();

    @Override
    public void initialize(InputSplit genericSplit, TaskAttemptContext context) throws IOException {
      this.context = context;
      FileSplit split = (FileSplit) genericSplit;
      Configuration conf = context.getConfiguration();
      FileSystem fs = split.getPath().getFileSystem(conf);
      length = split.getLength();
      BlockLocation[] blocks = fs.getFileBlockLocations(split.getPath(), 0, length);
      stream = new PacedStream(fs.open(split.getPath()), blocks, System.getenv("NM_HOST"),
          conf.getDouble(RATE_KEY, 0));
      lines = new LineReader(stream, conf);
    }

    @Override
    public boolean nextKeyValue() throws IOException {
      key.set(offset);
      int n = lines.readLine(value);
      offset += n;
      return n > 0;
    }

    @Override
    public LongWritable getCurrentKey() {
      return key;
    }

    @Override
    public Text getCurrentValue() {
      return value;
    }

    @Override
    public float getProgress() {
      return length == 0 ? 1 : Math.min(1f, offset / (float) length);
    }

    @Override
    public void close() throws IOException {
      if (stream == null) {
        return;
      }
      lines.close();
      context.getCounter(Bytes.LOCAL).increment(stream.local);
      context.getCounter(Bytes.REMOTE).increment(stream.remote);
      context.getCounter(Bytes.PACED_MILLIS).increment(stream.pacedNanos / 1_000_000);
      stream = null;
    }
  }

  /**
   * Counts bytes by whether the block they belong to has a replica on {@code host}, and holds the
   * remote ones to {@code mbPerSec} by sleeping.
   */
  static final class PacedStream extends FilterInputStream {
    private final BlockLocation[] blocks;
    private final String host;
    private final double bytesPerNano;
    private long pos;
    long local;
    long remote;
    long pacedNanos;
    private long remoteStart = -1;

    PacedStream(InputStream in, BlockLocation[] blocks, String host, double mbPerSec) {
      super(in);
      this.blocks = blocks;
      this.host = host;
      this.bytesPerNano = mbPerSec * 1e6 / 1e9;
    }

    @Override
    public int read() throws IOException {
      int b = in.read();
      if (b >= 0) {
        account(1);
      }
      return b;
    }

    @Override
    public int read(byte[] buf, int off, int len) throws IOException {
      int n = in.read(buf, off, len);
      if (n > 0) {
        account(n);
      }
      return n;
    }

    @Override
    public long skip(long n) throws IOException {
      throw new UnsupportedOperationException("the scan reads every byte");
    }

    private void account(int n) throws IOException {
      boolean isLocal = isLocal(pos);
      pos += n;
      if (isLocal) {
        local += n;
        return;
      }
      long now = System.nanoTime();
      if (remoteStart < 0) {
        remoteStart = now;
      }
      remote += n;
      if (bytesPerNano <= 0) {
        return;
      }
      long due = remoteStart + (long) (remote / bytesPerNano);
      if (due > now) {
        try {
          Thread.sleep((due - now) / 1_000_000, (int) ((due - now) % 1_000_000));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new java.io.InterruptedIOException("interrupted while pacing a remote read");
        }
        pacedNanos += due - now;
      }
    }

    private boolean isLocal(long at) throws IOException {
      for (BlockLocation b : blocks) {
        if (at >= b.getOffset() && at < b.getOffset() + b.getLength()) {
          for (String h : b.getHosts()) {
            if (h.equals(host)) {
              return true;
            }
          }
          return false;
        }
      }
      return false;
    }
  }
}
