package io.dataloc.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.core.workload.Scenarios;
import io.dataloc.yarn.LocalityScheduler;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.server.resourcemanager.MockAM;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRM;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A job past its maps that holds more than an equal share of the cluster does not take a freed
 * slot ahead of a job that arrives meanwhile ({@code EqualShare}): four 4-GB nodes, a job whose
 * reduces fill them and ask for more, then a one-map job. Under {@code job-ordering=fair} (the
 * default) and {@code bid} the newcomer's AM gets the next slot that frees, and its map the one
 * after; under {@code fifo} the earlier job's reduces take both, as the FIFO scheduler's would.
 */
class ReduceShareTest {
  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"fair", "bid"})
  void aJobOverItsShareLetsANewcomersAmAndMapGoFirst(String ordering) throws Exception {
    try (MiniMr c = cluster(ordering)) {
      MockAM big = fill(c);
      List<List<String>> splits = List.of(List.of("h3"));
      RMApp small = c.submit("bob", splits);
      List<Container> got = freeOneOn(c, big, "h3");
      assertEquals(0, got.size(), "the big job's reduce waited");
      assertEquals("h3", small.getCurrentAppAttempt().getMasterContainer().getNodeId().getHost(),
          "the newcomer's AM took the freed slot");
      // Its AM container is already allocated: launch and register it without another heartbeat.
      MockAM smallAm = c.rm.sendAMLaunched(small.getCurrentAppAttempt().getAppAttemptId());
      smallAm.registerAppAttempt();
      MrJob job = new MrJob(smallAm, splits, c.rackOf);
      job.heartbeat();
      LocalityComparisonTest.awaitPlan(c);
      got = freeOneOn(c, big, "h3");
      job.heartbeat();
      assertEquals(0, got.size(), "the big job's reduce waited again");
      assertEquals("h3", job.ranOn[0], "the newcomer's map ran on its data");
    }
  }

  @Test
  void underFifoTheEarlierJobsReducesTakeTheSlot() throws Exception {
    try (MiniMr c = cluster("fifo")) {
      MockAM big = fill(c);
      RMApp small = c.submit("bob", List.of(List.of("h3")));
      List<Container> got = freeOneOn(c, big, "h3");
      assertEquals(1, got.size(), "the earlier job's reduce took the freed slot");
      assertNull(small.getCurrentAppAttempt().getMasterContainer(), "the newcomer's AM waits");
    }
  }

  private MiniMr cluster(String ordering) throws Exception {
    return MiniMr.start(LocalityScheduler.class, Map.of("yarn.scheduler.dataloc.job-ordering", ordering,
        "yarn.scheduler.dataloc.maximum-am-resource-percent", "0.5"), Scenarios.twoRacks(4), 4096,
        dir.resolve(ordering));
  }

  private final List<Container> reduces = new ArrayList<>();

  /** A job with no maps asks for 30 reduces; the cluster's 16 GB hold its AM and 15 of them. */
  private MockAM fill(MiniMr c) throws Exception {
    RMApp app = c.submit("alice", null);
    MockAM am = MockRM.launchAndRegisterAM(app, c.rm, c.nodes.get("h1"));
    am.allocate(List.of(ResourceRequest.newInstance(Priority.newInstance(MrJob.REDUCE_PRIORITY), ResourceRequest.ANY,
        Resource.newInstance(1024, 1), 30)), List.of());
    for (int round = 0; round < 10 && reduces.size() < 15; round++) {
      for (MockNM nm : c.nodeList()) {
        nm.nodeHeartbeat(true);
        c.rm.drainEvents();
      }
      reduces.addAll(am.allocate(new ArrayList<>(), new ArrayList<>()).getAllocatedContainers());
    }
    assertEquals(15, reduces.size(), "the reduces fill the cluster");
    return am;
  }

  /** One of the big job's reduces on {@code host} ends; returns the containers the big job got after. */
  private List<Container> freeOneOn(MiniMr c, MockAM big, String host) throws Exception {
    Container r = reduces.stream().filter(x -> x.getNodeId().getHost().equals(host)).findFirst().orElseThrow();
    reduces.remove(r);
    c.nodes.get(host).nodeHeartbeat(List.of(ContainerStatus.newInstance(r.getId(), ContainerState.COMPLETE, "done", 0)),
        true);
    c.rm.drainEvents();
    c.nodes.get(host).nodeHeartbeat(true);
    c.rm.drainEvents();
    List<Container> got = big.allocate(new ArrayList<>(), new ArrayList<>()).getAllocatedContainers();
    reduces.addAll(got);
    assertTrue(got.size() <= 1);
    return got;
  }
}
