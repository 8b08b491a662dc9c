package io.dataloc.core.model;

import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * Each map task's replica hosts as host ids, in task order — a job's input placement as the
 * scheduler keeps it, read from a split file or a listing.
 *
 * <p><b>Representation.</b> Compressed rows: task {@code t}'s distinct known hosts are
 * {@code hosts[start[t] .. start[t+1])}, in the order the split names them; a host name that no
 * node has is not kept, only the fact that task {@code t} named one ({@link #namesUnknownHost}).
 * So the memory is {@code O(tasks + known replicas)} ints whatever the names were: a split file of
 * twelve million distinct names no node has costs a bit per task, not the names. Ids are the
 * caller's (the engine's host indexes, which never change); they are non-negative.
 *
 * <p>Immutable once built; safe to hand from a reader thread to the planner and to the
 * scheduler's lock.
 */
public final class TaskHosts {
  private final int[] start;
  private final int[] hosts;
  private final BitSet unknown;

  private TaskHosts(int[] start, int[] hosts, BitSet unknown) {
    this.start = start;
    this.hosts = hosts;
    this.unknown = unknown;
  }

  /** From host names, through {@code idOf} (a negative answer: a host no node has). {@code O(replicas)}. */
  public static TaskHosts of(List<List<String>> names, ToIntFunction<String> idOf) {
    Builder b = new Builder(names.size());
    for (List<String> split : names) {
      b.startTask();
      for (String name : split) {
        b.add(idOf.applyAsInt(name));
      }
    }
    return b.build();
  }

  public int tasks() {
    return start.length - 1;
  }

  /** How many distinct known hosts task {@code t}'s split names. */
  public int count(int t) {
    return start[t + 1] - start[t];
  }

  /** The {@code k}-th distinct known host of task {@code t}. */
  public int host(int t, int k) {
    return hosts[start[t] + k];
  }

  /** Whether task {@code t}'s split also names a host that no node has. */
  public boolean namesUnknownHost(int t) {
    return unknown.get(t);
  }

  /** Whether some task's split names a host that no node had when it was read. */
  public boolean namesAnyUnknownHost() {
    return !unknown.isEmpty();
  }

  /** One more than the largest host id named, or 0. {@code O(replicas)}. */
  public int hostBound() {
    int max = -1;
    for (int h : hosts) {
      max = Math.max(max, h);
    }
    return max + 1;
  }

  /** The heap this holds, in bytes (arrays and their headers; an estimate within a few dozen bytes). */
  public long bytes() {
    return 16L + 16 + 4L * start.length + 16 + 4L * hosts.length + 16 + unknown.size() / 8;
  }

  /**
   * Builds a {@link TaskHosts} a task at a time: {@link #startTask}, then {@link #add} each host the
   * split names. Repeated ids within a task are kept once, in {@code O(1)} each.
   */
  public static final class Builder {
    private int[] start;
    private int[] hosts = new int[16];
    private int size;
    private int tasks;
    private final BitSet unknown = new BitSet();
    /** {@code seen[h] == tasks} while host {@code h} is already listed for the current task. */
    private int[] seen = new int[16];

    public Builder(int expectedTasks) {
      start = new int[Math.max(2, Math.min(expectedTasks, 1 << 20) + 1)];
    }

    /** The next task begins. */
    public void startTask() {
      tasks++;
      if (tasks + 1 > start.length) {
        start = Arrays.copyOf(start, Math.max(tasks + 1, start.length * 2));
      }
      start[tasks] = size;
    }

    /** The current task's split names host {@code id}; negative: a host no node has. */
    public void add(int id) {
      if (tasks == 0) {
        throw new IllegalStateException("add before startTask");
      }
      if (id < 0) {
        unknown.set(tasks - 1);
        return;
      }
      if (id >= seen.length) {
        seen = Arrays.copyOf(seen, Math.max(id + 1, seen.length * 2));
      }
      if (seen[id] == tasks) {
        return;
      }
      seen[id] = tasks;
      if (size == hosts.length) {
        hosts = Arrays.copyOf(hosts, size * 2);
      }
      hosts[size++] = id;
      start[tasks] = size;
    }

    public int tasks() {
      return tasks;
    }

    public TaskHosts build() {
      return new TaskHosts(Arrays.copyOf(start, tasks + 1), Arrays.copyOf(hosts, size), (BitSet) unknown.clone());
    }
  }
}
