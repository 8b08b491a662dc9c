package io.dataloc.sim.planmode;

import io.dataloc.core.workload.Scenarios;
import io.dataloc.sim.Experiment;
import io.dataloc.sim.RunOptions;
import io.dataloc.sim.report.Csv;
import io.dataloc.sim.report.Report;
import io.dataloc.sim.report.Table;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * The plan mode that ships, predicted without a ResourceManager: the MockRM comparison's two
 * scenarios ({@code LocalityComparisonTest}: 24 maps, hosts of 8 containers on two racks, spread
 * blocks on 4 hosts, skewed blocks on 6) run through {@link PlanModeSimulator} with each assigner.
 * The README sets the prediction beside what the MockRM run measures.
 */
public final class PlanModeExperiment implements Experiment {
  /** A scenario of the MockRM comparison: its topology and splits. */
  record Scenario(String name, Map<String, String> topology, List<List<String>> splits) {}

  static final List<Scenario> SCENARIOS = List.of(
      new Scenario("spread", Scenarios.twoRacks(4), Scenarios.spread(24, 4, 2, 7)),
      new Scenario("skewed", Scenarios.twoRacks(6), Scenarios.skewed(24, 6, 2, 2, 11)));

  @Override
  public String name() {
    return "plan-mode";
  }

  @Override
  public String description() {
    return "the ResourceManager's plan mode (declines, AM replay) on the MockRM comparison's scenarios, predicted";
  }

  @Override
  public Report run(RunOptions o) throws IOException {
    Report report = new Report();
    Csv csv = new Csv("scenario", "assigner", "dataLocal", "maps", "maxPerHost", "rounds", "perHost");
    Table t = new Table("scenario", "assigner", "data-local", "max on host", "rounds", "maps per host");
    for (Scenario s : SCENARIOS) {
      java.util.Map<String, List<? extends Number>> bars = new java.util.LinkedHashMap<>();
      List<String> hosts = List.copyOf(s.topology().keySet());
      for (String assigner : List.of("bar", "flow")) {
        PlanModeSimulator.Outcome r = PlanModeSimulator.run(assigner, s.topology(), s.splits(), 8, 300);
        bars.put(assigner, hosts.stream().map(h -> r.perHost().getOrDefault(h, 0)).toList());
        t.row(s.name(), assigner, r.dataLocal() + "/" + r.maps(), r.maxPerHost(), r.rounds(), r.perHost());
        csv.add(s.name(), assigner, r.dataLocal(), r.maps(), r.maxPerHost(), r.rounds(), r.perHost().toString());
      }
      report.bars((name() + "-" + s.name() + ".png"), "Plan mode, " + s.name() + " blocks: maps per host",
          "host", "maps", hosts, bars);
    }
    report.csv(name() + ".csv", csv);
    return report.summary("plan-mode: the MockRM comparison's scenarios through the ResourceManager's plan mode, simulated\n"
        + t);
  }
}
