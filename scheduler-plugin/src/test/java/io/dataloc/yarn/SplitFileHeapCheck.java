package io.dataloc.yarn;

import io.dataloc.core.am.AmReplay;
import io.dataloc.core.model.TaskHosts;
import java.io.BufferedInputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.ToIntFunction;

/**
 * Run in a JVM of its own with a small heap by {@code SplitFileMemoryTest}: {@code args[0]}
 * submissions of {@link LargestSplitFile} at once, read on {@code args[1]} threads as the placement
 * readers do, every result kept (as if all waited for the plan thread); then one planned job's
 * placement and AM replay. Prints what all the reads and then the one job retain, the heap's peak,
 * and the most hosts {@link AmReplay#localElsewhere} looked at in a call.
 */
public final class SplitFileHeapCheck {
  private SplitFileHeapCheck() {}

  public static void main(String[] args) throws Exception {
    int submissions = Integer.parseInt(args[0]);
    int threads = Integer.parseInt(args[1]);
    Map<String, Integer> nodes = new HashMap<>();
    for (int n = 0; n < LargestSplitFile.NODES; n++) {
      nodes.put(LargestSplitFile.node(n), n);
    }
    ToIntFunction<String> hostId = name -> nodes.getOrDefault(name, -1);
    long before = usedAfterGc();
    // The submissions all at once, on the placement threads; every result is kept, as if all
    // waited for the plan thread.
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<TaskHosts>> reads = new ArrayList<>();
    for (int i = 0; i < submissions; i++) {
      reads.add(pool.submit(() -> SplitMetaInfoReader.read(new BufferedInputStream(new LargestSplitFile()),
          LargestSplitFile.length(), PlacementBounds.defaults(), hostId)));
    }
    List<TaskHosts> kept = new ArrayList<>();
    for (Future<TaskHosts> f : reads) {
      TaskHosts t = f.get();
      check(t.tasks() == LargestSplitFile.SPLITS, "tasks " + t.tasks());
      for (int task = 0; task < t.tasks(); task++) {
        check(t.count(task) == LargestSplitFile.KNOWN && t.namesUnknownHost(task), "task " + task);
        check(t.host(task, 0) == task % LargestSplitFile.NODES, "task " + task + "'s first node");
      }
      kept.add(t);
    }
    pool.shutdown();
    long allRead = usedAfterGc() - before;
    // One planned job keeps its placement and its AM replay.
    AmReplay replay = new AmReplay(kept.get(0), h -> h % 4, -1);
    kept.subList(1, kept.size()).clear();
    long retained = usedAfterGc() - before;
    int[] checks = new int[1];
    int most = 0;
    for (int i = 0; i < 10_000; i++) {
      checks[0] = 0;
      int host = i % LargestSplitFile.NODES;
      check(replay.localElsewhere(host, h -> ++checks[0] > 0), "local work elsewhere");
      most = Math.max(most, checks[0]);
      replay.take(host, host % 4);
    }
    System.out.println("retained=" + retained + " allRead=" + allRead + " estimated=" + replay.bytes() + " peak="
        + peakHeap() + " maxLocalElsewhereChecks=" + most + " tasks=" + replay.tasks());
  }

  private static void check(boolean ok, String what) {
    if (!ok) {
      throw new AssertionError(what);
    }
  }

  private static long usedAfterGc() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    Runtime r = Runtime.getRuntime();
    return r.totalMemory() - r.freeMemory();
  }

  private static long peakHeap() {
    long peak = 0;
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
      if (p.getType() == MemoryType.HEAP) {
        peak += p.getPeakUsage().getUsed();
      }
    }
    return peak;
  }
}
