package io.dataloc.yarn;

import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ActiveUsersManager;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ClusterNodeTracker;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplication;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerNode;
import org.apache.hadoop.yarn.util.resource.ResourceCalculator;

/**
 * The scheduler's parts, wired once at start: who depends on whom is read here and nowhere else.
 * Each part is described by its own class; all share one {@link DatalocState}.
 */
final class SchedulerParts {
  /** What the parts need of YARN's scheduler base class. */
  static final class Yarn {
    private final ClusterNodeTracker<FiCaSchedulerNode> nodes;
    private final Map<ApplicationId, SchedulerApplication<DatalocAppAttempt>> applications;
    private final QueueTree queues;
    private final ResourceCalculator calculator;
    private final Supplier<Resource> minimumAllocation;
    private final UnaryOperator<Resource> normalize;
    private final NodeEvents.Completer completer;
    private final Supplier<Priority> clusterMaxPriority;
    private final java.util.function.LongSupplier clock;

    Yarn(ClusterNodeTracker<FiCaSchedulerNode> nodes,
        Map<ApplicationId, SchedulerApplication<DatalocAppAttempt>> applications, QueueTree queues,
        ResourceCalculator calculator, Supplier<Resource> minimumAllocation, UnaryOperator<Resource> normalize,
        NodeEvents.Completer completer, Supplier<Priority> clusterMaxPriority,
        java.util.function.LongSupplier clock) {
      this.nodes = nodes;
      this.applications = applications;
      this.queues = queues;
      this.calculator = calculator;
      this.minimumAllocation = minimumAllocation;
      this.normalize = normalize;
      this.completer = completer;
      this.clusterMaxPriority = clusterMaxPriority;
      this.clock = clock;
    }

    public ClusterNodeTracker<FiCaSchedulerNode> nodes() {
      return nodes;
    }

    public Map<ApplicationId, SchedulerApplication<DatalocAppAttempt>> applications() {
      return applications;
    }

    public QueueTree queues() {
      return queues;
    }

    public ResourceCalculator calculator() {
      return calculator;
    }

    public Supplier<Resource> minimumAllocation() {
      return minimumAllocation;
    }

    public UnaryOperator<Resource> normalize() {
      return normalize;
    }

    public NodeEvents.Completer completer() {
      return completer;
    }

    public Supplier<Priority> clusterMaxPriority() {
      return clusterMaxPriority;
    }

    public java.util.function.LongSupplier clock() {
      return clock;
    }

    @Override
    public boolean equals(Object o) {
      if (o == this) {
        return true;
      }
      if (!(o instanceof Yarn)) {
        return false;
      }
      Yarn that = (Yarn) o;
      return Objects.equals(nodes, that.nodes)
          && Objects.equals(applications, that.applications)
          && Objects.equals(queues, that.queues)
          && Objects.equals(calculator, that.calculator)
          && Objects.equals(minimumAllocation, that.minimumAllocation)
          && Objects.equals(normalize, that.normalize)
          && Objects.equals(completer, that.completer)
          && Objects.equals(clusterMaxPriority, that.clusterMaxPriority)
          && Objects.equals(clock, that.clock);
    }

    @Override
    public int hashCode() {
      return Objects.hash(nodes, applications, queues, calculator, minimumAllocation, normalize, completer, clusterMaxPriority, clock);
    }

    @Override
    public String toString() {
      return "Yarn[nodes=" + nodes
          + ", applications=" + applications
          + ", queues=" + queues
          + ", calculator=" + calculator
          + ", minimumAllocation=" + minimumAllocation
          + ", normalize=" + normalize
          + ", completer=" + completer
          + ", clusterMaxPriority=" + clusterMaxPriority
          + ", clock=" + clock + "]";
    }
  }

  final PlanService plans;
  final DatalocState state;
  final ClusterRoom room;
  final DatalocQueue queue;
  final Containment containment;
  final PlacementPipeline placement;
  final Containers containers;
  final OtherWork otherWork;
  final NodeEvents nodes;
  final AppLifecycle lifecycle;
  final Heartbeat heartbeat;
  final Priorities priorities;
  final AmHeartbeat amHeartbeat;
  final SchedulerReports reports;
  private final Yarn yarn;
  /** {@code yarn.acl.enable} of the ResourceManager's configuration at start: the one switch for every ACL here. */
  final boolean aclEnabled;

  SchedulerParts(Object lock, Settings settings, Configuration conf, Yarn yarn,
      org.apache.hadoop.yarn.server.resourcemanager.RMContext rmContext) {
    this.yarn = yarn;
    Configuration rmConf = new Configuration(conf);
    ActiveUsersManager users = new ActiveUsersManager(yarn.queues().leaf());
    NodeSizes sizes = new NodeSizes(yarn.nodes(), yarn.calculator(), yarn.minimumAllocation());
    plans = new PlanService(lock, settings, rmConf, rmContext, sizes, yarn.normalize(), id -> {
      SchedulerApplication<DatalocAppAttempt> app = yarn.applications().get(id);
      return app == null ? null : app.getCurrentAppAttempt();
    }, id -> {
      SchedulerApplication<DatalocAppAttempt> app = yarn.applications().get(id);
      return app == null || app.getPriority() == null ? 0 : app.getPriority().getPriority();
    }, yarn.clock(), false, this::rebuildEngine);
    state = plans.state;
    room = new ClusterRoom(yarn.nodes(), sizes, yarn.calculator(), yarn.minimumAllocation(), state::settings);
    queue = new DatalocQueue(yarn.queues().leaf(), users, yarn.nodes()::getClusterCapacity, room::used, room::recovered);
    queue.setAcls(settings.aclSubmit(), settings.aclAdminister());
    containment = plans.containment;
    placement = plans.pipeline;
    containers = new Containers(state, room);
    otherWork = new OtherWork(state, room, containers, new AmRoom(yarn.nodes(), sizes), yarn::applications);
    state.wire(containment, otherWork::add);
    AskSync asks = new AskSync(state, plans.asks, containers, otherWork);
    nodes = new NodeEvents(state, room, yarn.nodes(), yarn.completer(), conf.getBoolean(
        org.apache.hadoop.yarn.conf.YarnConfiguration.RM_SCHEDULER_INCLUDE_PORT_IN_NODE_NAME,
        org.apache.hadoop.yarn.conf.YarnConfiguration.DEFAULT_RM_SCHEDULER_USE_PORT_FOR_NODE_NAME));
    aclEnabled = YarnConfiguration.isAclEnabled(rmConf);
    lifecycle = new AppLifecycle(state, yarn.applications(), queue, users, yarn.queues().leaf(), rmConf, placement,
        otherWork, asks, yarn.completer());
    heartbeat = new Heartbeat(state, containment, room, nodes, asks, otherWork,
        new EngineMaps(state, room, containers, asks), yarn.minimumAllocation(), yarn.queues()::available);
    priorities = new Priorities(state, otherWork, yarn::applications, yarn.clusterMaxPriority());
    priorities.configure(conf, settings, aclEnabled);
    reports = new SchedulerReports(state, room);
    amHeartbeat = new AmHeartbeat(state.apps(), asks, room);
  }

  /**
   * A new, empty engine with every node as a host (a refresh that changes the engine's settings, or
   * the end of a degraded spell); every application goes online, served from its asks. Under the lock.
   */
  void rebuildEngine(Settings next) {
    io.dataloc.core.engine.DecisionEngine engine = new io.dataloc.core.engine.DecisionEngine(next.engineConfig());
    for (FiCaSchedulerNode n : yarn.nodes().getAllNodes()) {
      engine.addHost(n.getNodeName(), n.getRackName(), room.sizes().mapSlotsAtMost(n));
    }
    state.engine(engine);
    state.apps().forgetTies();
    for (DatalocApp a : state.apps().all()) {
      state.apps().goOnline(a, "reconfigured");
    }
  }
}
