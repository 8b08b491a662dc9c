package io.dataloc.yarn;

import java.io.DataInput;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableUtils;

/**
 * Parses a MapReduce job's {@code job.splitmetainfo}: the bytes {@code META-SPL}, a vint version
 * (1), a vint split count, then per split a vint location count, that many {@code Text} host
 * names, a vlong start offset into {@code job.split} and a vlong input length. Entry {@code i} is
 * map task {@code i}; its locations are the hosts the MapReduce AM asks for. Our own reader, so the
 * RM needs no MapReduce jar.
 */
public final class SplitMetaInfoReader {
  private static final byte[] HEADER = "META-SPL".getBytes(StandardCharsets.UTF_8);
  /** A sanity limit: more splits than this is a corrupt file. */
  static final int MAX_SPLITS = 50_000_000;

  private SplitMetaInfoReader() {}

  /** The host list of every map task, in task order. */
  public static List<List<String>> read(InputStream in) throws IOException {
    DataInput data = new DataInputStream(in);
    byte[] header = new byte[HEADER.length];
    data.readFully(header);
    if (!Arrays.equals(header, HEADER)) {
      throw new IOException("not a split meta info file (bad header)");
    }
    int version = WritableUtils.readVInt(data);
    if (version != 1) {
      throw new IOException("unsupported split meta info version " + version);
    }
    int splits = WritableUtils.readVInt(data);
    if (splits < 0 || splits > MAX_SPLITS) {
      throw new IOException("corrupt split meta info: " + splits + " splits");
    }
    List<List<String>> hosts = new ArrayList<>(splits);
    for (int i = 0; i < splits; i++) {
      int n = WritableUtils.readVInt(data);
      if (n < 0 || n > 10_000) {
        throw new IOException("corrupt split meta info: split " + i + " has " + n + " locations");
      }
      List<String> locations = new ArrayList<>(n);
      for (int k = 0; k < n; k++) {
        locations.add(Text.readString(data));
      }
      WritableUtils.readVLong(data);
      WritableUtils.readVLong(data);
      hosts.add(List.copyOf(locations));
    }
    return hosts;
  }
}
