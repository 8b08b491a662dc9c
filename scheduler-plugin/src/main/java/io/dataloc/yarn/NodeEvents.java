package io.dataloc.yarn;

import io.dataloc.core.engine.DecisionEngine;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.NodeState;
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
    ctx.engine().addHost(node.getNodeName(), node.getRackName(), room.mapSlotsAtMost(node));
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
    DecisionEngine engine = ctx.engine();
    int h = node == null ? -1 : engine.state().hostIndex(node.getNodeName());
    if (h >= 0) {
      engine.setSlots(h, room.mapSlotsAtMost(node));
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
    DecisionEngine engine = ctx.engine();
    int h = engine.state().hostIndex(node.getNodeName());
    if (h >= 0) {
      int moved = engine.removeHost(h);
      if (moved > 0) {
        ctx.metrics().replans.incr();
        LOG.info("Node {} lost: {} queued or running map tasks re-routed", node.getNodeName(), moved);
      }
    }
  }

  /**
   * A node being decommissioned gracefully takes no new maps and is planned on no more; the maps
   * queued for it go elsewhere; its running maps finish. (YARN also shrinks it to what it runs.)
   * A node taken back into service is a host again.
   */
  void drainIfDecommissioning(FiCaSchedulerNode node) {
    DecisionEngine engine = ctx.engine();
    int h = engine.state().hostIndex(node.getNodeName());
    if (h < 0) {
      return;
    }
    boolean decommissioning = decommissioning(node);
    if (decommissioning && engine.state().alive(h)) {
      int moved = engine.drainHost(h);
      ctx.metrics().replans.incr();
      LOG.info("Node {} is decommissioning: no new maps there; {} queued maps re-routed", node.getNodeName(), moved);
    } else if (!decommissioning && engine.state().draining(h)) {
      engine.addHost(node.getNodeName(), node.getRackName(), room.mapSlotsAtMost(node));
      LOG.info("Node {} is back in service", node.getNodeName());
    }
  }

  static boolean decommissioning(FiCaSchedulerNode node) {
    return node.getRMNode().getState() == NodeState.DECOMMISSIONING;
  }

  /**
   * How many maps the node could run at once now: its free room plus the engine's maps running
   * there. Containers that are not the engine's maps (AMs, reduces, other applications' work) may
   * hold a node for as long as they like; a node full of them gets no slots, so no plan counts on
   * it and the policies route and steal its queued maps away.
   */
  void mapSlots(FiCaSchedulerNode node) {
    DecisionEngine engine = ctx.engine();
    int h = engine.state().hostIndex(node.getNodeName());
    if (h < 0 || !engine.state().alive(h)) {
      return;
    }
    long free = ClusterRoom.labelled(node) ? 0 : room.minimumContainers(node.getUnallocatedResource());
    int now = (int) Math.min(room.slots(node), free + engine.state().running(h));
    if (now != engine.state().slots(h)) {
      engine.setSlots(h, now);
    }
  }
}
