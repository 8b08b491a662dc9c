package io.dataloc.core.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Hosts, their racks, their concurrent slots, the work already queued on them and the reads
 * their links already carry (maps running elsewhere that may read their blocks from them).
 *
 * <p>A host with {@code k} slots is modelled as {@code k} identical servers (one per concurrent
 * container), each starting with the host's per-slot initial load. Hosts and racks are numbered
 * in insertion order; names map to indices only here, at the boundary.
 */
public final class Cluster {
  /** Rack index of a host when the cluster has no rack information. */
  public static final int NO_RACK = -1;

  private final String[] hostNames;
  private final int[] hostRack;
  private final int[] hostSlots;
  private final long[] hostInitialLoad;
  private final int[] hostReadsOut;
  private final String[] rackNames;
  private final Map<String, Integer> hostIndex;

  private Cluster(Builder b) {
    this.hostNames = b.names.toArray(new String[0]);
    this.hostRack = b.racks.stream().mapToInt(Integer::intValue).toArray();
    this.hostSlots = b.slots.stream().mapToInt(Integer::intValue).toArray();
    this.hostInitialLoad = b.loads.stream().mapToLong(Long::longValue).toArray();
    this.hostReadsOut = b.readsOut.stream().mapToInt(Integer::intValue).toArray();
    this.rackNames = b.rackNames.toArray(new String[0]);
    this.hostIndex = Map.copyOf(b.index);
  }

  public static Builder builder() {
    return new Builder();
  }

  public int hostCount() {
    return hostNames.length;
  }

  public String hostName(int host) {
    return hostNames[host];
  }

  /** The host's index, or -1 if unknown. */
  public int hostIndex(String name) {
    Integer i = hostIndex.get(name);
    return i == null ? -1 : i;
  }

  public int rackOf(int host) {
    return hostRack[host];
  }

  public int slots(int host) {
    return hostSlots[host];
  }

  /** Work already queued on each slot of the host, in scaled units. */
  public long initialLoad(int host) {
    return hostInitialLoad[host];
  }

  /**
   * Maps already running away from their data that may read a block from this host (each counts
   * at every host holding a replica of its block): how shared the host's link is before this plan.
   */
  public int readsOut(int host) {
    return hostReadsOut[host];
  }

  public int rackCount() {
    return rackNames.length;
  }

  public String rackName(int rack) {
    return rackNames[rack];
  }

  /** True when at least one host has a rack; then every host has one. */
  public boolean hasRacks() {
    return rackNames.length > 0;
  }

  public int serverCount() {
    return Arrays.stream(hostSlots).sum();
  }

  /** Builds a cluster; rejects duplicate hosts, mixed rack/no-rack hosts, bad slots and loads. */
  public static final class Builder {
    private final List<String> names = new ArrayList<>();
    private final List<Integer> racks = new ArrayList<>();
    private final List<Integer> slots = new ArrayList<>();
    private final List<Long> loads = new ArrayList<>();
    private final List<Integer> readsOut = new ArrayList<>();
    private final List<String> rackNames = new ArrayList<>();
    private final Map<String, Integer> index = new HashMap<>();
    private final Map<String, Integer> rackIndex = new HashMap<>();
    private Boolean withRacks;

    public Builder host(String name) {
      return host(name, null, 1, 0);
    }

    /**
     * Adds a host.
     *
     * @param rack its rack, or null if the cluster has no racks
     * @param slotCount concurrent containers, at least 1
     * @param initialLoad scaled work already queued on each slot, at least 0
     */
    public Builder host(String name, String rack, int slotCount, long initialLoad) {
      return host(name, rack, slotCount, initialLoad, 0);
    }

    /**
     * Adds a host whose link already carries reads.
     *
     * @param readsOut maps running elsewhere that may read a block from it ({@link Cluster#readsOut}), at least 0
     */
    public Builder host(String name, String rack, int slotCount, long initialLoad, int readsOut) {
      if (readsOut < 0) {
        throw new IllegalArgumentException("server '" + name + "' has negative reads out: " + readsOut);
      }
      if (name == null || name.isEmpty()) {
        throw new IllegalArgumentException("a server has an empty id");
      }
      if (index.containsKey(name)) {
        throw new IllegalArgumentException("server '" + name + "' is listed twice");
      }
      if (slotCount < 1) {
        throw new IllegalArgumentException("server '" + name + "' has slots " + slotCount + "; slots must be >= 1");
      }
      if (initialLoad < 0) {
        throw new IllegalArgumentException("server '" + name + "' has a negative initialLoad");
      }
      boolean hasRack = rack != null;
      if (withRacks != null && withRacks != hasRack) {
        throw new IllegalArgumentException(
            "server '" + name + "': either every server has a rack or none has");
      }
      withRacks = hasRack;
      int r = NO_RACK;
      if (hasRack) {
        r = rackIndex.computeIfAbsent(rack, k -> {
          rackNames.add(k);
          return rackNames.size() - 1;
        });
      }
      index.put(name, names.size());
      names.add(name);
      racks.add(r);
      slots.add(slotCount);
      loads.add(initialLoad);
      this.readsOut.add(readsOut);
      return this;
    }

    public Cluster build() {
      if (names.isEmpty()) {
        throw new IllegalArgumentException("the cluster has no servers");
      }
      return new Cluster(this);
    }
  }
}
