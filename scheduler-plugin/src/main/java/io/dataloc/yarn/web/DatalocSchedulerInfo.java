package io.dataloc.yarn.web;

import java.io.IOException;
import javax.xml.bind.annotation.XmlAccessType;
import javax.xml.bind.annotation.XmlAccessorType;
import javax.xml.bind.annotation.XmlRootElement;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.QueueInfo;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNodeReport;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.YarnScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.webapp.dao.FifoSchedulerInfo;

/**
 * The standalone scheduler at {@code /ws/v1/cluster/scheduler}: its one queue in the shape the
 * ResourceManager gives a single-queue scheduler ({@code fifoScheduler}), which the RM's UI2 and
 * monitoring tools already read; every field means what it means there (capacity and used
 * capacity of the queue in percent, memory in MB summed over the nodes).
 */
@XmlRootElement(name = "fifoScheduler")
@XmlAccessorType(XmlAccessType.FIELD)
public class DatalocSchedulerInfo extends FifoSchedulerInfo {
  /** For JAXB. */
  public DatalocSchedulerInfo() {}

  DatalocSchedulerInfo(YarnScheduler s, Iterable<NodeId> nodes) throws IOException {
    QueueInfo q = s.getQueueInfo("default", false, false);
    qName = q.getQueueName();
    capacity = q.getCapacity();
    usedCapacity = q.getCurrentCapacity();
    qstate = q.getQueueState();
    minQueueMemoryCapacity = s.getMinimumResourceCapability().getMemorySize();
    maxQueueMemoryCapacity = s.getMaximumResourceCapability().getMemorySize();
    for (NodeId id : nodes) {
      SchedulerNodeReport r = s.getNodeReport(id);
      if (r == null) {
        continue;
      }
      numNodes++;
      int used = (int) r.getUsedResource().getMemorySize();
      int available = (int) r.getAvailableResource().getMemorySize();
      usedNodeCapacity += used;
      availNodeCapacity += available;
      totalNodeCapacity += used + available;
      numContainers += r.getNumContainers();
    }
  }
}
