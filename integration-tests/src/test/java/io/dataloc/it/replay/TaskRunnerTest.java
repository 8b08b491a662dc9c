package io.dataloc.it.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Task times in the cluster model, worked by hand from {@link ClusterModel.Constants}. */
class TaskRunnerTest {
  // 1 s JVM start, disk 100 MB/s, map CPU 50 MB/s, write 100 MB/s, NIC 125 MB/s.
  private final ClusterModel m = new ClusterModel(4, 2, 1, ClusterModel.Constants.defaults());

  @Test
  void aLocalMapReadsFromDiskAndTwoRemoteOnesShareTheSourceNic() {
    FlowNetwork net = new FlowNetwork(m.linkCapacities());
    TaskRunner r = new TaskRunner(m, net);
    r.startMap("local", "h1", List.of("h1"), 100_000_000, 0, 1, 0);
    // Two reads of 125 MB from h3 (another rack) share h3's rack uplink (2 hosts x 125 MB/s / 4 =
    // 62.5 MB/s, below h3's NIC): 31.25 MB/s each, 4 s, then 2.5 s of CPU.
    r.startMap("a", "h1", List.of("h3"), 125_000_000, 0, 1, 0);
    r.startMap("b", "h2", List.of("h3"), 125_000_000, 0, 1, 0);
    List<TaskRunner.Ended> ended = r.advanceTo(10);
    Map<Object, Double> at = new java.util.HashMap<>();
    ended.forEach(e -> at.put(e.key(), e.at()));
    assertEquals(1 + 1 + 2, at.get("local"), 1e-9, "start 1 s, read 1 s, CPU 2 s");
    assertEquals(1 + 4 + 2.5, at.get("a"), 1e-9);
    assertEquals(1 + 4 + 2.5, at.get("b"), 1e-9);
  }

  @Test
  void aMapsCpuFactorScalesItsProcessingAlone() {
    FlowNetwork net = new FlowNetwork(m.linkCapacities());
    TaskRunner r = new TaskRunner(m, net);
    // 100 MB local: start 1 s, read 1 s, CPU 2 s x 1.5, 50 MB of output written at 100 MB/s.
    r.startMap("slow", "h1", List.of("h1"), 100_000_000, 50_000_000, 1.5, 0);
    r.startMap("fast", "h2", List.of("h2"), 100_000_000, 50_000_000, 0.75, 0);
    Map<Object, Double> at = new java.util.HashMap<>();
    r.advanceTo(10).forEach(e -> at.put(e.key(), e.at()));
    assertEquals(1 + 1 + 3 + 0.5, at.get("slow"), 1e-9);
    assertEquals(1 + 1 + 1.5 + 0.5, at.get("fast"), 1e-9);
  }

  @Test
  void aReduceWaitsForTheLastMapThenFetchesEachHostsShare() {
    FlowNetwork net = new FlowNetwork(m.linkCapacities());
    TaskRunner r = new TaskRunner(m, net);
    r.startReduce("r", "job", "h1", 250_000_000, 0, 0);
    assertEquals(List.of(), r.advanceTo(5), "no shuffle before the maps are done");
    // Half the output on h1 (disk, 1.25 s), half on h2 (same rack: the NICs carry 125 MB/s, but
    // h2's disk gives 100 MB/s: 1.25 s), then 5 s of CPU after the fetch that ends last.
    r.mapsDone("job", Map.of("h1", 1, "h2", 1));
    List<TaskRunner.Ended> ended = r.advanceTo(20);
    assertEquals(1, ended.size());
    assertEquals(5 + 1.25 + 1.25 + 5, ended.get(0).at(), 1e-9);
  }

  @Test
  void aReduceFetchesFromAtMostShuffleCopiesHostsAtOnce() {
    // One rack: a reduce on h1 fetches 100 MB from each of h2, h3, h4 into h1's NIC (125 MB/s),
    // each flow at most a disk's 100 MB/s; then 6 s of CPU for the 300 MB.
    Map<Integer, Double> end = new java.util.TreeMap<>();
    for (int copies : new int[] {1, 2, 3, 5}) {
      ClusterModel one = new ClusterModel(4, 1, 1, ClusterModel.Constants.defaults().withShuffleCopies(copies));
      TaskRunner r = new TaskRunner(one, new FlowNetwork(one.linkCapacities()));
      r.startReduce("r", "job", "h1", 300_000_000, 0, 0);
      r.advanceTo(5);
      r.mapsDone("job", Map.of("h2", 1, "h3", 1, "h4", 1));
      end.put(copies, r.advanceTo(30).get(0).at());
    }
    assertEquals(5 + 3 * 1.0 + 6, end.get(1), 1e-9, "one host at a time, each at the disk's rate");
    assertEquals(5 + 1.6 + 1.0 + 6, end.get(2), 1e-9, "two sharing the NIC (62.5 MB/s each), then the third alone");
    assertEquals(5 + 2.4 + 6, end.get(3), 1e-9, "three sharing the NIC, 41.7 MB/s each");
    assertEquals(end.get(3), end.get(5), 1e-9, "more copies than hosts: one flow per host");
    // Rates held 2 s at a time (a quantum longer than each 1-s fetch): one copy still fetches the
    // three in 3 s, each credited with what it moved after the one before ended.
    ClusterModel one = new ClusterModel(4, 1, 1, ClusterModel.Constants.defaults().withShuffleCopies(1));
    TaskRunner r = new TaskRunner(one, new FlowNetwork(one.linkCapacities(), 2.0));
    r.startReduce("r", "job", "h1", 300_000_000, 0, 0);
    r.advanceTo(5);
    r.mapsDone("job", Map.of("h2", 1, "h3", 1, "h4", 1));
    assertEquals(end.get(1), r.advanceTo(30).get(0).at(), 1e-9, "no fetch waits out a quantum");
  }

  @Test
  void eachReduceBeginsItsFetchesAtTheNextHost() {
    // One copy each, two reduces (h1, h4) fetching 100 MB from each of h2 and h3. The second
    // begins at h3, the first at h2: each fetch alone on its source, at the disk's 100 MB/s, 2 s in
    // all. Were both to begin at h2, they would share its NIC out (62.5 MB/s each) twice: 3.2 s.
    ClusterModel one = new ClusterModel(4, 1, 1, ClusterModel.Constants.defaults().withShuffleCopies(1));
    TaskRunner r = new TaskRunner(one, new FlowNetwork(one.linkCapacities()));
    r.startReduce("a", "job", "h1", 200_000_000, 0, 0);
    r.startReduce("b", "job", "h4", 200_000_000, 0, 0);
    r.advanceTo(5);
    r.mapsDone("job", Map.of("h2", 1, "h3", 1));
    List<TaskRunner.Ended> ended = r.advanceTo(30);
    assertEquals(2, ended.size());
    for (TaskRunner.Ended e : ended) {
      assertEquals(5 + 2 + 4, e.at(), 1e-9, e.key() + ": 2 s of fetches, then 4 s of CPU for 200 MB");
    }
  }

  @Test
  void onSharedCoresJvmStartsShareThemAtMostOneCoreEach() {
    ClusterModel.Constants d = ClusterModel.Constants.defaults();
    // Two cores for the whole cluster; an AM start is 6 core-seconds, a task start 3.
    ClusterModel shared = new ClusterModel(4, 2, 1, d.toBuilder()
        .amStartSeconds(6).taskStartSeconds(3).sharedCores(2).cpuSpread(0).build());
    FlowNetwork net = new FlowNetwork(shared.linkCapacities());
    TaskRunner r = new TaskRunner(shared, net);
    r.startAm("am", "h1", 0);
    Map<Object, Double> at = new java.util.HashMap<>();
    r.advanceTo(1).forEach(e -> at.put(e.key(), e.at()));
    // From 1 s, four starts share two cores: half a core each.
    for (String t : List.of("m1", "m2", "m3")) {
      r.startMap(t, "h2", List.of("h2"), 0, 0, 1, 1);
    }
    r.advanceTo(30).forEach(e -> at.put(e.key(), e.at()));
    // The maps' 3 core-seconds at half a core: done at 7 s (an empty map ends as it starts); the
    // AM had 1 at one core, then 3 by 7 s, then the last 2 alone at one core (the cap): 9 s.
    assertEquals(7, at.get("m1"), 1e-9);
    assertEquals(7, at.get("m3"), 1e-9);
    assertEquals(9, at.get("am"), 1e-9);
    // Without shared cores each start takes its time, whatever else starts.
    TaskRunner alone = new TaskRunner(m, new FlowNetwork(m.linkCapacities()));
    alone.startAm("am", "h1", 0);
    alone.startMap("m", "h1", List.of("h1"), 0, 0, 1, 0);
    Map<Object, Double> t = new java.util.HashMap<>();
    alone.advanceTo(10).forEach(e -> t.put(e.key(), e.at()));
    assertEquals(d.amStartSeconds(), t.get("am"), 1e-9);
    assertEquals(d.taskStartSeconds(), t.get("m"), 1e-9);
  }
}
