package io.dataloc.it.replay;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Flows over links of fixed capacity, sharing them max-min fairly.
 *
 * <p><b>Model.</b> A link has a capacity in bytes per second; a flow has bytes left, a path of
 * links and, optionally, a rate it cannot exceed (a remote read is never faster than the disk it
 * reads). At every instant the rates are the max-min fair allocation: no flow's rate can grow
 * without a flow of equal or smaller rate shrinking. It is found by progressive filling (Bertsekas
 * and Gallager, <i>Data Networks</i>, 6.5.2): every unfrozen flow's rate rises together; the first
 * link to fill freezes the flows through it at its fair share (capacity left over their number),
 * or the first flow to reach its own cap freezes there; repeat. A heap of links keyed by share, entries made stale by a version, makes one filling
 * O((F·p + L) log L) for F flows of at most p links over L links.
 *
 * <p><b>Time.</b> {@link #advance(double)} moves every flow at its rate until the first one ends,
 * recomputes the rates, and so on to the end of the interval: the finish times are exact for the
 * model, not rounded to the interval. With a quantum q &gt; 0 the rates are held for at least q
 * seconds (flows that end inside it end at their exact time under those rates, and their capacity
 * is shared out at the end of it): one filling per q instead of one per ended flow, for clusters
 * where thousands of flows end every second. Deterministic: ties are broken by link and flow order.
 */
public final class FlowNetwork {
  /** A transfer: its links, bytes left, its rate now, and when it ended (seconds, NaN while it runs). */
  public static final class Flow {
    final int[] links;
    double left;
    double rate;
    double endedAt = Double.NaN;
    final long id;
    final double cap;

    Flow(long id, int[] links, double bytes, double cap) {
      this.id = id;
      this.cap = cap;
      this.links = links;
      this.left = bytes;
    }

    public double rate() {
      return rate;
    }

    public double endedAt() {
      return endedAt;
    }
  }

  private final double[] capacity;
  private final double quantum;
  private final List<Flow> flows = new ArrayList<>();
  private final double[] carried;
  private double now;
  private long nextId;
  private boolean stale = true;

  /** Exact: the rates are recomputed whenever a flow ends. */
  public FlowNetwork(double[] capacity) {
    this(capacity, 0);
  }

  /**
   * @param capacity bytes per second of each link, by index
   * @param quantum the least time (s) the rates are held (0: exact)
   */
  public FlowNetwork(double[] capacity, double quantum) {
    if (!(quantum >= 0)) {
      throw new IllegalArgumentException("quantum must be >= 0, not " + quantum);
    }
    this.quantum = quantum;
    for (int i = 0; i < capacity.length; i++) {
      if (!(capacity[i] > 0)) {
        throw new IllegalArgumentException("link " + i + ": capacity must be positive, not " + capacity[i]);
      }
    }
    this.capacity = capacity.clone();
    this.carried = new double[capacity.length];
  }

  /** Starts a flow of {@code bytes} over {@code links} (at least one) now. */
  public Flow start(int[] links, double bytes) {
    return start(links, bytes, Double.POSITIVE_INFINITY);
  }

  /** As {@link #start(int[], double)}, never faster than {@code cap} bytes per second. */
  public Flow start(int[] links, double bytes, double cap) {
    if (links.length == 0) {
      throw new IllegalArgumentException("a flow needs at least one link");
    }
    if (!(cap > 0)) {
      throw new IllegalArgumentException("a flow's cap must be positive, not " + cap);
    }
    Flow f = new Flow(nextId++, links.clone(), Math.max(0, bytes), cap);
    flows.add(f);
    stale = true;
    return f;
  }

  /** Seconds since the network was made. */
  public double now() {
    return now;
  }

  public int active() {
    return flows.size();
  }

  /** Bytes each link has carried so far. */
  public double carried(int link) {
    return carried[link];
  }

  /**
   * Counts {@code bytes} as carried by {@code links} without a flow: bytes a transfer moved within
   * the last step, after the flow before it in its chain ended (see {@code TaskRunner}).
   */
  public void credit(int[] links, double bytes) {
    for (int l : links) {
      carried[l] += bytes;
    }
  }

  /**
   * Moves time on by {@code seconds}; returns the flows that ended in it, in the order they ended
   * (each with {@link Flow#endedAt()} set).
   */
  public List<Flow> advance(double seconds) {
    double end = now + seconds;
    List<Flow> ended = new ArrayList<>();
    while (now < end - 1e-12) {
      ended.addAll(step(end));
    }
    now = Math.max(now, end);
    return ended;
  }

  /**
   * Moves time on to {@code until} or to the first instant a flow ends, whichever is sooner;
   * returns the flows that ended then (empty if none did by {@code until}).
   */
  public List<Flow> step(double until) {
    if (stale) {
      fill();
    }
    double first = Double.POSITIVE_INFINITY;
    for (Flow f : flows) {
      if (f.rate > 0) {
        first = Math.min(first, f.left / f.rate);
      } else if (f.left <= 0) {
        first = 0;
      }
    }
    double step = Math.min(Math.max(0, until - now), Math.max(first, quantum));
    double from = now;
    for (Flow f : flows) {
      double moved = Math.min(f.left, f.rate * step);
      if (moved >= f.left - 1e-6) {
        f.endedAt = from + (f.rate > 0 ? f.left / f.rate : 0);
      }
      f.left -= moved;
      for (int l : f.links) {
        carried[l] += moved;
      }
    }
    now += step;
    List<Flow> ended = new ArrayList<>();
    for (int i = 0; i < flows.size(); ) {
      Flow f = flows.get(i);
      if (f.left <= 1e-6) {
        f.left = 0;
        ended.add(f);
        flows.remove(i);
      } else {
        i++;
      }
    }
    stale |= !ended.isEmpty();
    if (ended.isEmpty() && until - now <= 1e-12) {
      now = Math.max(now, until);
    }
    return ended;
  }

  /** Progressive filling: sets every flow's max-min fair rate. */
  private void fill() {
    int links = capacity.length;
    double[] room = capacity.clone();
    int[] count = new int[links];
    int[] version = new int[links];
    List<List<Flow>> through = new ArrayList<>(links);
    for (int l = 0; l < links; l++) {
      through.add(null);
    }
    for (Flow f : flows) {
      f.rate = -1;
      for (int l : f.links) {
        count[l]++;
        if (through.get(l) == null) {
          through.set(l, new ArrayList<>());
        }
        through.get(l).add(f);
      }
    }
    PriorityQueue<double[]> heap = new PriorityQueue<>((a, b) -> a[0] != b[0] ? Double.compare(a[0], b[0])
        : Double.compare(a[1], b[1]));
    for (int l = 0; l < links; l++) {
      if (count[l] > 0) {
        heap.add(new double[] {room[l] / count[l], l, 0});
      }
    }
    PriorityQueue<Flow> capped = new PriorityQueue<>((a, b) -> a.cap != b.cap ? Double.compare(a.cap, b.cap)
        : Long.compare(a.id, b.id));
    for (Flow f : flows) {
      if (f.cap < Double.POSITIVE_INFINITY) {
        capped.add(f);
      }
    }
    while (true) {
      while (!heap.isEmpty() && ((int) heap.peek()[2] != version[(int) heap.peek()[1]]
          || count[(int) heap.peek()[1]] == 0)) {
        heap.poll();
      }
      while (!capped.isEmpty() && capped.peek().rate >= 0) {
        capped.poll();
      }
      if (heap.isEmpty()) {
        break;
      }
      double[] top = heap.peek();
      int l = (int) top[1];
      double share = Math.max(0, room[l] / count[l]);
      if (!capped.isEmpty() && capped.peek().cap <= share) {
        freeze(capped.poll(), 0, room, count, version, heap, -1);
        continue;
      }
      heap.poll();
      for (Flow f : through.get(l)) {
        if (f.rate < 0) {
          f.rate = share;
          freeze(f, share, room, count, version, heap, l);
        }
      }
    }
    stale = false;
  }

  /** Fixes {@code f}'s rate ({@code rate}, or its cap when {@code except} is -1) and takes it off its links. */
  private static void freeze(Flow f, double rate, double[] room, int[] count, int[] version,
      PriorityQueue<double[]> heap, int except) {
    double r = except < 0 ? f.cap : rate;
    f.rate = r;
    for (int m : f.links) {
      room[m] -= r;
      count[m]--;
      version[m]++;
      if (m != except && count[m] > 0) {
        heap.add(new double[] {Math.max(0, room[m]) / count[m], m, version[m]});
      }
    }
  }
}
