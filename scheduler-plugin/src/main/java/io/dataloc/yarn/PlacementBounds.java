package io.dataloc.yarn;

import java.util.Objects;
import org.apache.hadoop.conf.Configuration;

/** What a job's files may cost the ResourceManager before a byte of them is believed. */
public final class PlacementBounds {
  private final long maxFileBytes;
  private final int maxSplits;
  private final int maxHostsPerSplit;
  private final int maxHostLength;
  private final int maxListing;
  private final long maxJobConfBytes;
  private final String stagingRoot;
  private final int placementThreads;
  private final int maxWaiting;
  private final long maxBytesInFlight;
  private final int onlineMaxPending;

  public PlacementBounds(long maxFileBytes, int maxSplits, int maxHostsPerSplit, int maxHostLength, int maxListing,
      long maxJobConfBytes, String stagingRoot, int placementThreads, int maxWaiting, long maxBytesInFlight,
      int onlineMaxPending) {
    this.maxFileBytes = maxFileBytes;
    this.maxSplits = maxSplits;
    this.maxHostsPerSplit = maxHostsPerSplit;
    this.maxHostLength = maxHostLength;
    this.maxListing = maxListing;
    this.maxJobConfBytes = maxJobConfBytes;
    this.stagingRoot = stagingRoot;
    this.placementThreads = placementThreads;
    this.maxWaiting = maxWaiting;
    this.maxBytesInFlight = maxBytesInFlight;
    this.onlineMaxPending = onlineMaxPending;
  }

  public long maxFileBytes() {
    return maxFileBytes;
  }

  public int maxSplits() {
    return maxSplits;
  }

  public int maxHostsPerSplit() {
    return maxHostsPerSplit;
  }

  public int maxHostLength() {
    return maxHostLength;
  }

  public int maxListing() {
    return maxListing;
  }

  public long maxJobConfBytes() {
    return maxJobConfBytes;
  }

  public String stagingRoot() {
    return stagingRoot;
  }

  public int placementThreads() {
    return placementThreads;
  }

  public int maxWaiting() {
    return maxWaiting;
  }

  public long maxBytesInFlight() {
    return maxBytesInFlight;
  }

  public int onlineMaxPending() {
    return onlineMaxPending;
  }

  /** The defaults, for tests and tools. */
  public static PlacementBounds defaults() {
    return DatalocConfiguration.load(new Configuration(false)).bounds();
  }

  @Override
  public boolean equals(Object o) {
    if (o == this) {
      return true;
    }
    if (!(o instanceof PlacementBounds)) {
      return false;
    }
    PlacementBounds that = (PlacementBounds) o;
    return maxFileBytes == that.maxFileBytes
        && maxSplits == that.maxSplits
        && maxHostsPerSplit == that.maxHostsPerSplit
        && maxHostLength == that.maxHostLength
        && maxListing == that.maxListing
        && maxJobConfBytes == that.maxJobConfBytes
        && Objects.equals(stagingRoot, that.stagingRoot)
        && placementThreads == that.placementThreads
        && maxWaiting == that.maxWaiting
        && maxBytesInFlight == that.maxBytesInFlight
        && onlineMaxPending == that.onlineMaxPending;
  }

  @Override
  public int hashCode() {
    return Objects.hash(maxFileBytes, maxSplits, maxHostsPerSplit, maxHostLength, maxListing, maxJobConfBytes, stagingRoot, placementThreads, maxWaiting, maxBytesInFlight, onlineMaxPending);
  }

  @Override
  public String toString() {
    return "PlacementBounds[maxFileBytes=" + maxFileBytes
        + ", maxSplits=" + maxSplits
        + ", maxHostsPerSplit=" + maxHostsPerSplit
        + ", maxHostLength=" + maxHostLength
        + ", maxListing=" + maxListing
        + ", maxJobConfBytes=" + maxJobConfBytes
        + ", stagingRoot=" + stagingRoot
        + ", placementThreads=" + placementThreads
        + ", maxWaiting=" + maxWaiting
        + ", maxBytesInFlight=" + maxBytesInFlight
        + ", onlineMaxPending=" + onlineMaxPending + "]";
  }
}
