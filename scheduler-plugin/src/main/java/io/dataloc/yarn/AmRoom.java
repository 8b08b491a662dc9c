package io.dataloc.yarn;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ClusterNodeTracker;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;

/**
 * Which nodes have room for an ApplicationMaster of a size now: the running, schedulable nodes of
 * the default partition with the AM's resource unallocated. A view is kept for at most
 * {@value #VIEW_MILLIS} ms per AM size, so a node is offered to an AM many times between two scans
 * of the node tracker. Reads only YARN's node tracker (thread-safe): callers in the
 * CapacityScheduler take it before the plan lock. Thread-safe.
 */
final class AmRoom {
  static final long VIEW_MILLIS = 250;

  /** The nodes with room for an AM of {@code am} at {@code at} (the front end's clock, ms). */
  static final class View {
    final long at;
    final Resource am;
    final List<String> hosts;

    View(long at, Resource am, List<String> hosts) {
      this.at = at;
      this.am = am;
      this.hosts = hosts;
    }
  }

  private final ClusterNodeTracker<? extends SchedulerNode> nodes;
  private final NodeSizes sizes;
  private volatile View last;

  AmRoom(ClusterNodeTracker<? extends SchedulerNode> nodes, NodeSizes sizes) {
    this.nodes = nodes;
    this.sizes = sizes;
  }

  /** A view no older than {@value #VIEW_MILLIS} ms for this AM size; {@code O(nodes)} when it is rebuilt. */
  View view(Resource am, long now) {
    View v = last;
    if (v != null && v.am.equals(am) && now - v.at < VIEW_MILLIS && now >= v.at) {
      return v;
    }
    List<String> hosts = new ArrayList<>();
    for (SchedulerNode n : nodes.getAllNodes()) {
      if (!EngineNodes.decommissioning(n) && !NodeSizes.labelled(n) && sizes.fits(n, am)) {
        hosts.add(n.getNodeName());
      }
    }
    v = new View(now, am, List.copyOf(hosts));
    last = v;
    return v;
  }
}
