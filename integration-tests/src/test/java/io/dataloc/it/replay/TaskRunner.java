package io.dataloc.it.replay;

import java.util.AbstractMap;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;
import java.util.function.DoubleConsumer;

/**
 * Runs tasks in the cluster model, in virtual seconds.
 *
 * <p>A JVM starts in its start time ({@code taskStartSeconds}, {@code amStartSeconds}), or, where
 * the cluster's hosts share a machine's cores ({@code sharedCores}), once it has had that much
 * CPU (see {@link ClusterModel.Constants}). A map: its JVM starts; it reads its block from disk when a replica
 * is on its host, else over the network from the nearest replica (one on its rack, else the
 * first), as one flow sharing links with every other and never faster than the disk it reads; it processes the bytes
 * ({@code mapCpuRate}); it writes its output locally ({@code writeRate}). A reduce: its JVM starts;
 * it waits until the job's last map is done; it fetches its share of every map's output, from
 * each host that ran maps: its own host's share from disk, the rest as one flow per host, from at
 * most {@code shuffleCopies} hosts at once (the next as one ends, the hosts in name order from a
 * place that moves on by one with each reduce, so the reduces of a job do not all start at one
 * host); it processes ({@code reduceCpuRate}) and writes ({@code writeRate}). Fetching as maps end,
 * as the MapReduce shuffle does, is not modelled: the whole shuffle follows the last map.
 */
public final class TaskRunner {
  /** A task ended at {@code at} on {@code host}. */
  public record Ended(Object key, String host, double at) {}

  private final ClusterModel model;
  private final FlowNetwork net;
  private final PriorityQueue<Event> timed = new PriorityQueue<>();
  /** What follows the end of each flow under way (a read, a fetch, a JVM start on shared cores), given when it ended. */
  private final Map<FlowNetwork.Flow, DoubleConsumer> whenDone = new HashMap<>();
  private final Map<Object, List<Task>> waitingReduces = new HashMap<>();
  private final List<Ended> ended = new ArrayList<>();
  private long seq;

  private record Event(double at, long seq, Task task, Runnable then) implements Comparable<Event> {
    @Override
    public int compareTo(Event o) {
      return at != o.at ? Double.compare(at, o.at) : Long.compare(seq, o.seq);
    }
  }

  private static final class Task {
    final Object key;
    final String host;
    int flowsLeft;
    /** A reduce's fetches not yet begun: each a source host and its bytes. */
    final ArrayDeque<Map.Entry<String, Double>> fetches = new ArrayDeque<>();
    /** When its last fetch credited whole ({@link TaskRunner#fetchNext}) ended; 0 if none was. */
    double creditedUntil;
    boolean shuffling;
    boolean cancelled;

    Task(Object key, String host) {
      this.key = key;
      this.host = host;
    }
  }

  public TaskRunner(ClusterModel model, FlowNetwork net) {
    this.model = model;
    this.net = net;
  }

  /**
   * Starts a map of {@code bytes} from a block on {@code replicas}, writing {@code outputBytes}, at
   * {@code now}, its processing {@code cpuFactor} times as long as {@code mapCpuRate} says ({@link
   * ClusterModel#cpuFactor}).
   */
  public void startMap(Object key, String host, List<String> replicas, long bytes, long outputBytes, double cpuFactor,
      double now) {
    ClusterModel.Constants k = model.k;
    Task t = new Task(key, host);
    startJvm(t, k.taskStartSeconds(), now, () -> {
      double after = bytes / k.mapCpuRate() * cpuFactor + outputBytes / k.writeRate();
      if (replicas.contains(host) || bytes == 0) {
        at(net.now() + bytes / k.diskRate() + after, t, () -> end(t));
      } else {
        pending.put(t, after);
        read(t, net.start(model.path(source(replicas, host), host), bytes, k.diskRate()));
      }
    });
  }

  /**
   * Starts an ApplicationMaster's JVM in its container on {@code host} at {@code now}; it is
   * reported {@link Ended} (key {@code key}) when it is ready to ask for containers.
   */
  public void startAm(Object key, String host, double now) {
    Task t = new Task(key, host);
    startJvm(t, model.k.amStartSeconds(), now, () -> end(t));
  }

  /**
   * A JVM of task {@code t} starts at {@code now}; {@code then} runs once it has: after {@code
   * seconds}, or, on shared cores, once it has had that many core-seconds (at most one core at a
   * time, the cores shared max-min fairly with every other start under way; a start later than
   * the network's clock waits for it).
   */
  private void startJvm(Task t, double seconds, double now, Runnable then) {
    if (model.k.sharedCores() <= 0 || seconds <= 0) {
      at(now + seconds, t, then);
    } else if (now > net.now() + 1e-12) {
      at(now, t, () -> startJvm(t, seconds, now, then));
    } else {
      whenDone.put(net.start(new int[] {model.cpuLink()}, seconds, 1.0), endedAt -> at(endedAt, t, then));
    }
  }

  /** Task {@code t} reads or fetches over flow {@code f}: its CPU and writes follow its last flow. */
  private void read(Task t, FlowNetwork.Flow f) {
    read(t, f, () -> {});
  }

  /** As {@link #read(Task, FlowNetwork.Flow)}; {@code next} runs first when the flow ends (it may begin another). */
  private void read(Task t, FlowNetwork.Flow f, Runnable next) {
    t.flowsLeft++;
    whenDone.put(f, endedAt -> {
      next.run();
      if (--t.flowsLeft == 0) {
        at(Math.max(endedAt, t.creditedUntil) + pending.remove(t), t, () -> end(t));
      }
    });
  }

  /** CPU and write seconds a task has left once its flows end. */
  private final Map<Task, Double> pending = new HashMap<>();

  private String source(List<String> replicas, String host) {
    String rack = model.rackOf(host);
    for (String r : replicas) {
      if (model.rackOf(r).equals(rack)) {
        return r;
      }
    }
    return replicas.get(0);
  }

  /**
   * Starts a reduce of job {@code job} fetching {@code shuffleBytes} and writing {@code outputBytes};
   * its shuffle begins at {@link #mapsDone} of its job.
   */
  public void startReduce(Object key, Object job, String host, long shuffleBytes, long outputBytes, double now) {
    Task t = new Task(key, host);
    reduces.put(key, t);
    double after = shuffleBytes / model.k.reduceCpuRate() + outputBytes / model.k.writeRate();
    pending.put(t, after);
    shuffles.put(t, shuffleBytes);
    startJvm(t, model.k.taskStartSeconds(), now, () -> {
      Map<String, Integer> maps = mapHosts.get(job);
      if (maps == null) {
        waitingReduces.computeIfAbsent(job, j -> new ArrayList<>()).add(t);
      } else {
        shuffle(t, maps);
      }
    });
  }

  private final Map<Task, Long> shuffles = new HashMap<>();
  private final Map<Object, Task> reduces = new HashMap<>();

  /** Whether the reduce {@code key} has begun its shuffle. */
  public boolean shuffling(Object key) {
    Task t = reduces.get(key);
    return t != null && t.shuffling;
  }

  /** Stops the reduce {@code key} before its shuffle (its AM took it back): it never ends. */
  public void cancel(Object key) {
    Task t = reduces.remove(key);
    if (t != null) {
      t.cancelled = true;
      shuffles.remove(t);
      pending.remove(t);
      waitingReduces.values().forEach(l -> l.remove(t));
    }
  }
  private final Map<Object, Map<String, Integer>> mapHosts = new HashMap<>();

  /** Every map of {@code job} is done; {@code mapsByHost} says where they ran (for the reduces' fetches). */
  public void mapsDone(Object job, Map<String, Integer> mapsByHost) {
    mapHosts.put(job, mapsByHost);
    List<Task> waiting = waitingReduces.remove(job);
    if (waiting != null) {
      for (Task t : waiting) {
        shuffle(t, mapsByHost);
      }
    }
  }

  /** Forgets a finished job. */
  public void forget(Object job) {
    mapHosts.remove(job);
    waitingReduces.remove(job);
  }

  private void shuffle(Task t, Map<String, Integer> maps) {
    if (t.cancelled) {
      return;
    }
    t.shuffling = true;
    long bytes = shuffles.remove(t);
    int total = maps.values().stream().mapToInt(Integer::intValue).sum();
    double local = 0;
    List<Map.Entry<String, Double>> remote = new ArrayList<>();
    for (Map.Entry<String, Integer> e : new TreeMap<>(maps).entrySet()) {
      double share = (double) bytes * e.getValue() / total;
      if (e.getKey().equals(t.host)) {
        local += share;
      } else if (share > 0) {
        remote.add(new AbstractMap.SimpleImmutableEntry<>(e.getKey(), share));
      }
    }
    if (!remote.isEmpty()) {
      int from = (int) (reducesShuffled++ % remote.size());
      t.fetches.addAll(remote.subList(from, remote.size()));
      t.fetches.addAll(remote.subList(0, from));
    }
    for (int i = 0; i < model.k.shuffleCopies() && !t.fetches.isEmpty(); i++) {
      fetchNext(t, net.now(), 0);
    }
    if (t.flowsLeft == 0) {
      at(net.now() + local / model.k.diskRate() + pending.remove(t), t, () -> end(t));
    } else {
      pending.merge(t, local / model.k.diskRate(), Double::sum);
    }
  }

  /** Reduces whose shuffle has begun, to move each one's first source host on. */
  private long reducesShuffled;

  /**
   * Begins reduce {@code t}'s next fetch, if it has one left; the one after follows its end. The
   * fetch before it ended at {@code from}, moving {@code rate} bytes per second; the network's clock
   * may be up to a quantum past that ({@code --quantum}), so the fetch is credited with what it
   * would have moved since at that rate, and one that would have ended in that time gives way to the
   * next at once: a chain of short fetches is not held a quantum at each link.
   */
  private void fetchNext(Task t, double from, double rate) {
    for (Map.Entry<String, Double> next = t.fetches.poll(); next != null; next = t.fetches.poll()) {
      int[] path = model.path(next.getKey(), t.host);
      double bytes = next.getValue();
      double lag = Math.max(0, net.now() - from);
      if (rate > 0 && lag * rate >= bytes) {
        net.credit(path, bytes);
        from += bytes / rate;
        t.creditedUntil = Math.max(t.creditedUntil, from);
        continue;
      }
      double credit = rate > 0 ? lag * rate : 0;
      net.credit(path, credit);
      FlowNetwork.Flow f = net.start(path, bytes - credit, model.k.diskRate());
      read(t, f, () -> fetchNext(t, f.endedAt(), f.rate()));
      return;
    }
  }

  private void at(double when, Task t, Runnable then) {
    timed.add(new Event(when, seq++, t, then));
  }

  private void end(Task t) {
    if (t.cancelled) {
      return;
    }
    reduces.remove(t.key);
    ended.add(new Ended(t.key, t.host, net.now()));
  }

  /** Runs every task up to virtual time {@code t}; returns the tasks that ended, in order. */
  public List<Ended> advanceTo(double t) {
    while (true) {
      double next = timed.isEmpty() ? Double.POSITIVE_INFINITY : timed.peek().at();
      if (next <= net.now() + 1e-12) {
        Event e = timed.poll();
        if (!e.task().cancelled) {
          e.then().run();
        }
        continue;
      }
      double until = Math.min(next, t);
      for (FlowNetwork.Flow f : net.step(until)) {
        whenDone.remove(f).accept(f.endedAt());
      }
      if (net.now() >= t - 1e-12 && (timed.isEmpty() || timed.peek().at() > t)) {
        List<Ended> out = new ArrayList<>(ended);
        ended.clear();
        return out;
      }
    }
  }
}
