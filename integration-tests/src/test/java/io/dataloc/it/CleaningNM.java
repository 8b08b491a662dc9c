package io.dataloc.it;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerExitStatus;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.server.api.protocolrecords.NodeHeartbeatResponse;
import org.apache.hadoop.yarn.server.api.records.OpportunisticContainersStatus;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceTrackerService;

/**
 * A mock NodeManager that, as a real one does, kills the containers the RM tells it to clean up and
 * reports them COMPLETE with its next heartbeat: a container the node reported RUNNING keeps its
 * room on the node until then (YARN's rule), so without this a killed job's room never came back.
 */
final class CleaningNM extends MockNM {
  private final List<ContainerId> toReport = new ArrayList<>();

  CleaningNM(String nodeIdStr, int memoryMb, int vcores, ResourceTrackerService tracker) {
    super(nodeIdStr, memoryMb, vcores, tracker);
  }

  @Override
  public NodeHeartbeatResponse nodeHeartbeat(List<ContainerStatus> updatedStats, List<Container> increasedConts,
      boolean isHealthy, int resId, OpportunisticContainersStatus opportunistic) throws Exception {
    List<ContainerStatus> stats = new ArrayList<>(updatedStats == null ? List.of() : updatedStats);
    for (ContainerId id : toReport) {
      stats.removeIf(s -> s.getContainerId().equals(id));
      stats.add(ContainerStatus.newInstance(id, ContainerState.COMPLETE, "killed by the RM",
          ContainerExitStatus.KILLED_BY_RESOURCEMANAGER));
    }
    toReport.clear();
    NodeHeartbeatResponse response = super.nodeHeartbeat(stats, increasedConts, isHealthy, resId, opportunistic);
    if (response.getContainersToCleanup() != null) {
      toReport.addAll(response.getContainersToCleanup());
    }
    return response;
  }
}
