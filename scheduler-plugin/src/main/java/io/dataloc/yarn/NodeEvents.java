package io.dataloc.yarn;

import java.util.Map;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerEventType;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ClusterNodeTracker;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerUtils;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Nodes as the engine sees them: a NodeManager added, resized, relabelled, decommissioned or lost
 * becomes an engine host with its map slots, or leaves it (its queued maps re-routed). Under the
 * scheduler's monitor.
 */
final class NodeEvents {
  private static final Logger LOG = LoggerFactory.getLogger(LocalityScheduler.class);

  private final SchedulerContext ctx;
  private final ClusterRoom room;
  private final ClusterNodeTracker<FiCaSchedulerNode> nodes;
  private final Completer completer;
  private final boolean usePortForNodeName;
  private final EngineNodes engineNodes;

  /** Completes a container as YARN's scheduler does (the RM's {@code completedContainer}). */
  interface Completer {
    void complete(RMContainer c, org.apache.hadoop.yarn.api.records.ContainerStatus status, RMContainerEventType e);
  }

  NodeEvents(SchedulerContext ctx, ClusterRoom room, ClusterNodeTracker<FiCaSchedulerNode> nodes, Completer completer,
      boolean usePortForNodeName) {
    this.ctx = ctx;
    this.room = room;
    this.nodes = nodes;
    this.completer = completer;
    this.usePortForNodeName = usePortForNodeName;
    this.engineNodes = new EngineNodes(ctx);
  }

  void added(RMNode rmNode) {
    FiCaSchedulerNode node = new FiCaSchedulerNode(rmNode, usePortForNodeName, rmNode.getNodeLabels());
    nodes.addNode(node);
    // The scheduler tells the label manager which nodes are live: it sends label changes for live
    // nodes only.
    if (ctx.rmContext().getNodeLabelManager() != null) {
      ctx.rmContext().getNodeLabelManager().activateNode(node.getNodeID(), node.getTotalResource());
    }
    if (room.indexPartition(node)) {
      LOG.warn("Dataloc: node {} is in node-label partition '{}': Dataloc serves the default partition only, so "
          + "this node gets no containers", node.getNodeName(), node.getPartition());
    }
    engineNodes.added(EngineNodes.Facts.of(node, room.sizes()));
    room.refreshFree();
  }

  void labelsChanged(Map<NodeId, Set<String>> updated) {
    for (Map.Entry<NodeId, Set<String>> entry : updated.entrySet()) {
      FiCaSchedulerNode node = nodes.getNode(entry.getKey());
      if (node == null) {
        continue;
      }
      node.updateLabels(entry.getValue());
      LOG.info("Dataloc: node {} is now in partition '{}'{}", node.getNodeName(), node.getPartition(),
          room.indexPartition(node) ? ": it gets no containers (Dataloc serves the default partition only)" : "");
      mapSlots(node);
    }
    room.refreshFree();
  }

  void resized(RMNode rmNode) {
    FiCaSchedulerNode node = nodes.getNode(rmNode.getNodeID());
    if (node != null) {
      engineNodes.resized(EngineNodes.Facts.of(node, room.sizes()));
    }
    room.refreshFree();
  }

  void removed(RMNode rmNode) {
    FiCaSchedulerNode node = nodes.getNode(rmNode.getNodeID());
    if (node == null) {
      return;
    }
    for (RMContainer c : node.getCopiedListOfRunningContainers()) {
      completer.complete(c, SchedulerUtils.createAbnormalContainerStatus(c.getContainerId(),
          SchedulerUtils.LOST_CONTAINER), RMContainerEventType.KILL);
    }
    nodes.removeNode(rmNode.getNodeID());
    room.nodeRemoved(rmNode.getNodeID());
    if (ctx.rmContext().getNodeLabelManager() != null) {
      ctx.rmContext().getNodeLabelManager().deactivateNode(rmNode.getNodeID());
    }
    room.refreshFree();
    engineNodes.removed(node.getNodeName());
  }

  /** See {@link EngineNodes#drainIfDecommissioning}. */
  void drainIfDecommissioning(FiCaSchedulerNode node) {
    engineNodes.drainIfDecommissioning(EngineNodes.Facts.of(node, room.sizes()));
  }

  /** See {@link EngineNodes#mapSlots}. */
  void mapSlots(FiCaSchedulerNode node) {
    engineNodes.mapSlots(EngineNodes.Facts.of(node, room.sizes()));
  }
}
