package io.dataloc.yarn;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads at most {@code limit} bytes of a stream whatever its advertised length: one byte more is a
 * {@link PlacementBoundException} naming the bound, so a file that grows or lies about its size
 * costs no more than the bound.
 */
final class BoundedInputStream extends FilterInputStream {
  private final DatalocKeys.Key key;
  private final long limit;
  private long read;

  BoundedInputStream(InputStream in, DatalocKeys.Key key, long limit) {
    super(in);
    this.key = key;
    this.limit = limit;
  }

  @Override
  public int read() throws IOException {
    int b = super.read();
    if (b >= 0) {
      count(1);
    }
    return b;
  }

  @Override
  public int read(byte[] buf, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    int n = super.read(buf, off, (int) Math.min(len, room()));
    if (n > 0) {
      count(n);
    }
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    long s = super.skip(Math.min(n, room()));
    count(s);
    return s;
  }

  /** Bytes that may still be read, plus the one that proves the bound exceeded. */
  private long room() throws IOException {
    if (read > limit) {
      throw new PlacementBoundException(key, limit, "the file (more than " + limit + " bytes)");
    }
    long left = limit - read;
    return left == Long.MAX_VALUE ? left : left + 1;
  }

  private void count(long n) throws IOException {
    read += n;
    if (read > limit) {
      throw new PlacementBoundException(key, limit, "the file (more than " + limit + " bytes)");
    }
  }
}
