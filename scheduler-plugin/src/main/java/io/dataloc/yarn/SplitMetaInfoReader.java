package io.dataloc.yarn;

import java.io.DataInput;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import io.dataloc.core.model.TaskHosts;
import java.util.Arrays;
import java.util.function.ToIntFunction;
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
 * {@code placement.max-host-length} and must be valid UTF-8.
 *
 * <p>Each host name is mapped to a node's id as it is read, and a name no node has is kept only as
 * a bit of its task ({@link TaskHosts}): the result costs {@code O(splits + known replicas)} ints
 * however many distinct names the file holds, and the reading itself holds one name at a time.
 */
public final class SplitMetaInfoReader {
  private static final byte[] HEADER = "META-SPL".getBytes(StandardCharsets.UTF_8);
  /** The fewest bytes a split takes: a location count and two offsets, one byte each. */
  private static final int MIN_SPLIT_BYTES = 3;

  private SplitMetaInfoReader() {}

  /**
   * The hosts of every map task, in task order, as ids.
   *
   * @param length the file's length in bytes as the file system reports it (the stream must also
   *     be bounded: a length can lie)
   * @param hostId a node's id by its name, or a negative number for a name no node has
   * @throws PlacementBoundException naming the bound a count or length exceeds
   */
  static TaskHosts read(InputStream in, long length, PlacementBounds bounds, ToIntFunction<String> hostId)
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
      throw new PlacementBoundException(DatalocKeys.MAX_SPLITS, bounds.maxSplits(),
          "the split count " + splits);
    }
    if (splits > (length - HEADER.length) / MIN_SPLIT_BYTES) {
      throw new IOException("corrupt split meta info: " + splits + " splits in a file of " + length + " bytes");
    }
    TaskHosts.Builder hosts = new TaskHosts.Builder(splits);
    byte[] buffer = new byte[Math.min(bounds.maxHostLength(), 1 << 16)];
    CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    for (int i = 0; i < splits; i++) {
      int n = WritableUtils.readVInt(data);
      if (n < 0) {
        throw new IOException("corrupt split meta info: split " + i + " has " + n + " locations");
      }
      if (n > bounds.maxHostsPerSplit()) {
        throw new PlacementBoundException(DatalocKeys.MAX_HOSTS_PER_SPLIT, bounds.maxHostsPerSplit(),
            "split " + i + "'s " + n + " locations");
      }
      hosts.startTask();
      for (int k = 0; k < n; k++) {
        hosts.add(hostId.applyAsInt(hostName(data, i, bounds.maxHostLength(), buffer, utf8)));
      }
      WritableUtils.readVLong(data);
      WritableUtils.readVLong(data);
    }
    return hosts.build();
  }

  /** A {@code Text} string, its length checked before its bytes are read. */
  private static String hostName(DataInput data, int split, int maxLength, byte[] bytes, CharsetDecoder utf8)
      throws IOException {
    int len = WritableUtils.readVInt(data);
    if (len < 0) {
      throw new IOException("corrupt split meta info: split " + split + " has a host name of length " + len);
    }
    if (len > maxLength) {
      throw new PlacementBoundException(DatalocKeys.MAX_HOST_LENGTH, maxLength,
          "a host name of split " + split + " (" + len + " bytes)");
    }
    try {
      data.readFully(bytes, 0, len);
    } catch (EOFException e) {
      throw new IOException("corrupt split meta info: truncated in split " + split, e);
    }
    try {
      return utf8.decode(java.nio.ByteBuffer.wrap(bytes, 0, len)).toString();
    } catch (CharacterCodingException e) {
      throw new IOException("corrupt split meta info: a host name of split " + split + " is not UTF-8", e);
    }
  }
}
