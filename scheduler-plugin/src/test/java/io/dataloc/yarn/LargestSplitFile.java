package io.dataloc.yarn;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.io.WritableUtils;

/**
 * The costliest {@code job.splitmetainfo} the default bounds admit, made as it is read (nothing of
 * it is held): 200,000 splits ({@code placement.max-splits}) of 64 locations each
 * ({@code placement.max-hosts-per-split}), every location a distinct four-character name — 12.8
 * million of them, 64.6 MB, under {@code placement.max-file-bytes} (64 MiB). The first three
 * locations of split {@code i} are nodes {@code node(i)}, {@code node(i + 1)}, {@code node(i + 2)} of
 * {@value #NODES} (names with a dash, which no other location has); the other 61 are names no node
 * has.
 */
final class LargestSplitFile extends InputStream {
  static final int SPLITS = 200_000;
  static final int LOCATIONS = 64;
  static final int KNOWN = 3;
  static final int NODES = 100;
  private static final String ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

  private int split = -1;
  private byte[] chunk;
  private int pos;

  /** The name of node {@code n} (of {@value #NODES}). */
  static String node(int n) {
    int m = n % NODES;
    return "n-" + ALPHABET.charAt(m / 62) + ALPHABET.charAt(m % 62);
  }

  /** The {@code i}-th name no node has: four base-62 digits. */
  static String stranger(int i) {
    char[] c = new char[4];
    for (int k = 3; k >= 0; k--) {
      c[k] = ALPHABET.charAt(i % 62);
      i /= 62;
    }
    return new String(c);
  }

  /** The file's length in bytes. */
  static long length() {
    long perSplit = 1 + (long) LOCATIONS * 5 + 2; // the count, 64 names of 1 + 4 bytes, two one-byte offsets
    return 8 + 1 + 3 + SPLITS * perSplit; // header, version, vint of 200,000 (3 bytes)
  }

  private void next() {
    ByteArrayOutputStream b = new ByteArrayOutputStream(512);
    DataOutputStream out = new DataOutputStream(b);
    try {
      if (split < 0) {
        out.write("META-SPL".getBytes(StandardCharsets.UTF_8));
        WritableUtils.writeVInt(out, 1);
        WritableUtils.writeVInt(out, SPLITS);
      } else {
        WritableUtils.writeVInt(out, LOCATIONS);
        for (int k = 0; k < LOCATIONS; k++) {
          String name = k < KNOWN ? node(split + k) : stranger(split * (LOCATIONS - KNOWN) + k - KNOWN);
          byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
          WritableUtils.writeVInt(out, bytes.length);
          out.write(bytes);
        }
        WritableUtils.writeVLong(out, 0);
        WritableUtils.writeVLong(out, 0);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    chunk = b.toByteArray();
    pos = 0;
    split++;
  }

  @Override
  public int read() {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] buf, int off, int len) {
    while (chunk == null || pos == chunk.length) {
      if (split >= SPLITS) {
        return -1;
      }
      next();
    }
    int n = Math.min(len, chunk.length - pos);
    System.arraycopy(chunk, pos, buf, off, n);
    pos += n;
    return n;
  }
}
