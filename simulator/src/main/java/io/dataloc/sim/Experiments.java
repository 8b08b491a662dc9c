package io.dataloc.sim;

import io.dataloc.sim.offline.AgostaExperiment;
import io.dataloc.sim.offline.BarExperiment;
import io.dataloc.sim.offline.FischerExperiment;
import io.dataloc.sim.offline.SongExperiment;
import io.dataloc.sim.online.WangExperiment;
import io.dataloc.sim.online.WangStabilityExperiment;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** The experiments by name. */
public final class Experiments {
  private static final Map<String, Supplier<Experiment>> REGISTRY = new LinkedHashMap<>();

  static {
    REGISTRY.put("agosta", AgostaExperiment::new);
    REGISTRY.put("fischer", FischerExperiment::new);
    REGISTRY.put("bar", BarExperiment::new);
    REGISTRY.put("wang", () -> new WangExperiment(false));
    REGISTRY.put("wang-hotspot", () -> new WangExperiment(true));
    REGISTRY.put("wang-stability", WangStabilityExperiment::new);
    REGISTRY.put("priority-backlog", io.dataloc.sim.online.PriorityBacklogExperiment::new);
    REGISTRY.put("online-goal", io.dataloc.sim.online.OnlineGoalExperiment::new);
    REGISTRY.put("song", SongExperiment::new);
    REGISTRY.put("plan-mode", io.dataloc.sim.planmode.PlanModeExperiment::new);
  }

  private Experiments() {}

  public static List<String> names() {
    return List.copyOf(REGISTRY.keySet());
  }

  public static Experiment create(String name) {
    Supplier<Experiment> s = REGISTRY.get(name);
    if (s == null) {
      throw new IllegalArgumentException("unknown experiment '" + name + "'; known: " + String.join(", ", names()));
    }
    return s.get();
  }
}
