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
    r.startMap("local", "h1", List.of("h1"), 100_000_000, 0, 0);
    // Two reads of 125 MB from h3 (another rack) share h3's rack uplink (2 hosts x 125 MB/s / 4 =
    // 62.5 MB/s, below h3's NIC): 31.25 MB/s each, 4 s, then 2.5 s of CPU.
    r.startMap("a", "h1", List.of("h3"), 125_000_000, 0, 0);
    r.startMap("b", "h2", List.of("h3"), 125_000_000, 0, 0);
    List<TaskRunner.Ended> ended = r.advanceTo(10);
    Map<Object, Double> at = new java.util.HashMap<>();
    ended.forEach(e -> at.put(e.key(), e.at()));
    assertEquals(1 + 1 + 2, at.get("local"), 1e-9, "start 1 s, read 1 s, CPU 2 s");
    assertEquals(1 + 4 + 2.5, at.get("a"), 1e-9);
    assertEquals(1 + 4 + 2.5, at.get("b"), 1e-9);
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
}
