package io.dataloc.yarn;

import java.io.DataInput;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.io.WritableUtils;

/**
 * Parses a MapReduce job's {@code job.splitmetainfo}: the bytes {@code META-SPL}, a vint version
 * (1), a vint split count, then per split a vint location count, that many {@code Text} host
 * names, a vlong start offset into {@code job.split} and a vlong input length. Entry {@code i} is
 * map task {@code i}; its locations are the hosts the MapReduce AM asks for. Our own reader, so the
 * RM needs no MapReduce jar.
 *
 * <p>The file is the user's: every count and length in it is checked against a bound <em>before</em>
 * anything is allocated by it. The split count must be at most {@code placement.max-splits} and
 * at most a third of the file's length (a split takes three bytes at least); a split's location
 * count at most {@code placement.max-hosts-per-split}; a host name's length at most
 * {@code placement.max-host-length} and must be valid UTF-8. So a file of {@code n} bytes costs
 * {@code O(n)} memory whatever it claims.
 */
public final class SplitMetaInfoReader {
  private static final byte[] HEADER = "META-SPL".getBytes(StandardCharsets.UTF_8);
  /** The fewest bytes a split takes: a location count and two offsets, one byte each. */
  private static final int MIN_SPLIT_BYTES = 3;

  private SplitMetaInfoReader() {}

  /** With the default bounds, for a file of unknown length (tools and tests). */
  public static List<List<String>> read(InputStream in) throws IOException {
    return read(in, Long.MAX_VALUE, DatalocConfiguration.Bounds.defaults());
  }

  /**
   * The host list of every map task, in task order.
   *
   * @param length the file's length in bytes as the file system reports it (the stream must also
   *     be bounded: a length can lie)
   * @throws PlacementBoundException naming the bound a count or length exceeds
   */
  static List<List<String>> read(InputStream in, long length, DatalocConfiguration.Bounds bounds)
      throws IOException {
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
    if (splits < 0) {
      throw new IOException("corrupt split meta info: " + splits + " splits");
    }
    if (splits > bounds.maxSplits()) {
      throw new PlacementBoundException(DatalocConfiguration.MAX_SPLITS, bounds.maxSplits(),
          "the split count " + splits);
    }
    if (splits > (length - HEADER.length) / MIN_SPLIT_BYTES) {
      throw new IOException("corrupt split meta info: " + splits + " splits in a file of " + length + " bytes");
    }
    List<List<String>> hosts = new ArrayList<>(Math.min(splits, 4096));
    // Host names repeat across splits: one string each (a cluster has at most thousands).
    java.util.Map<String, String> names = new java.util.HashMap<>();
    for (int i = 0; i < splits; i++) {
      int n = WritableUtils.readVInt(data);
      if (n < 0) {
        throw new IOException("corrupt split meta info: split " + i + " has " + n + " locations");
      }
      if (n > bounds.maxHostsPerSplit()) {
        throw new PlacementBoundException(DatalocConfiguration.MAX_HOSTS_PER_SPLIT, bounds.maxHostsPerSplit(),
            "split " + i + "'s " + n + " locations");
      }
      String[] locations = new String[n];
      for (int k = 0; k < n; k++) {
        String name = hostName(data, i, bounds.maxHostLength());
        locations[k] = names.size() < 1_000_000 ? names.computeIfAbsent(name, x -> x) : name;
      }
      WritableUtils.readVLong(data);
      WritableUtils.readVLong(data);
      hosts.add(List.of(locations));
    }
    return hosts;
  }

  /** A {@code Text} string, its length checked before its bytes are read. */
  private static String hostName(DataInput data, int split, int maxLength) throws IOException {
    int len = WritableUtils.readVInt(data);
    if (len < 0) {
      throw new IOException("corrupt split meta info: split " + split + " has a host name of length " + len);
    }
    if (len > maxLength) {
      throw new PlacementBoundException(DatalocConfiguration.MAX_HOST_LENGTH, maxLength,
          "a host name of split " + split + " (" + len + " bytes)");
    }
    byte[] bytes = new byte[len];
    try {
      data.readFully(bytes);
    } catch (EOFException e) {
      throw new IOException("corrupt split meta info: truncated in split " + split, e);
    }
    try {
      return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(java.nio.ByteBuffer.wrap(bytes)).toString();
    } catch (CharacterCodingException e) {
      throw new IOException("corrupt split meta info: a host name of split " + split + " is not UTF-8", e);
    }
  }
}
