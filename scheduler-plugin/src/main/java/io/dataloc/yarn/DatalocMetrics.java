package io.dataloc.yarn;

import org.apache.hadoop.metrics2.annotation.Metric;
import org.apache.hadoop.metrics2.annotation.Metrics;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.metrics2.lib.MutableCounterLong;
import org.apache.hadoop.metrics2.lib.MutableGaugeLong;
import org.apache.hadoop.metrics2.lib.MutableQuantiles;

/**
 * Dataloc's metrics2 source, on the RM's {@code /jmx} as
 * {@code Hadoop:service=ResourceManager,name=DatalocScheduler}.
 */
@Metrics(name = "DatalocScheduler", about = "Dataloc locality scheduler", context = "yarn")
public class DatalocMetrics {
  static final String NAME = "DatalocScheduler";

  /** The Hadoop line this jar is built for, as the JMX attribute {@code tag.HadoopLine}. */
  @Metric(value = {"HadoopLine", "The Hadoop line this Dataloc jar is built for"}, type = Metric.Type.TAG)
  public String hadoopLine() {
    return HadoopLine.line() + " (Dataloc " + HadoopLine.version() + ", built against Hadoop "
        + HadoopLine.builtAgainst() + ")";
  }

  @Metric("Map containers allocated node-local") MutableCounterLong mapsNodeLocal;
  @Metric("Map containers allocated rack-local") MutableCounterLong mapsRackLocal;
  @Metric("Map containers allocated off-switch") MutableCounterLong mapsOffSwitch;
  @Metric("Other containers allocated (AM, reduces, retries)") MutableCounterLong otherContainers;
  @Metric("ApplicationMaster containers held back by maximum-am-resource-percent") MutableCounterLong amLimited;
  @Metric("Times a job's reduce requests were passed over by reduce.max-share on an offered node they fitted (not containers)")
  MutableCounterLong reducesCapped;
  @Metric("ApplicationMaster containers declined on a host whose data live maps need, for a less demanded one")
  MutableCounterLong amDeclined;
  @Metric("Applications refused by the submit ACL") MutableCounterLong appsRefused;
  @Metric("Map containers declined for a heartbeat to keep a plan data-local") MutableCounterLong declines;
  @Metric("Plans made") MutableCounterLong plansMade;
  @Metric("Plans that failed (job served online)") MutableCounterLong plansFailed;
  @Metric("Plans that exceeded the time budget (fallback assigner used)") MutableCounterLong plansOverBudget;
  @Metric("Replans and reconciliations that changed a job's tasks") MutableCounterLong replans;
  @Metric("Placement reads that failed (no plan)") MutableCounterLong placementFailures;
  @Metric("Errors caught in the scheduler") MutableCounterLong errors;
  @Metric("Applications taken out of the engine after an error in their work (served from their asks)")
  MutableCounterLong appsContained;
  @Metric("Applications killed after a second error in their work") MutableCounterLong appsKilled;
  @Metric("Applications whose map asks forbid relaxing locality (served from their asks, not planned)")
  MutableCounterLong appsStrictLocality;
  @Metric("Engine rebuilds after a degraded spell") MutableCounterLong recoveries;
  @Metric("Map containers served from a job's asks while its placement was read and planned")
  MutableCounterLong mapsBeforePlan;
  @Metric("Of those, maps tied to their task by the AM replay when the plan came")
  MutableCounterLong mapsTiedToPlan;
  @Metric("CapacityScheduler mode: placement components attached to a request key (any key, any application)")
  MutableCounterLong csAttaches;
  @Metric("CapacityScheduler mode: planned jobs whose vetoes ended after cs.max-wait-ms without a map container")
  MutableCounterLong csFallbacks;
  @Metric("Time of the last plan, ms") MutableGaugeLong lastPlanMillis;
  @Metric("Makespan of the last plan, thousandths of a cost unit") MutableGaugeLong lastPlanMakespan;
  @Metric("Lower bound of the last plan, thousandths of a cost unit") MutableGaugeLong lastPlanLowerBound;
  @Metric("1 while degraded to plain locality scheduling") MutableGaugeLong degraded;
  @Metric("Bytes held by placements read and not yet planned (placement.max-bytes-in-flight)")
  MutableGaugeLong placementBytesInFlight;
  @Metric(about = "Time to plan a job, ms, over the last 60 s", sampleName = "Plans", valueName = "Millis",
      interval = 60)
  MutableQuantiles planTime;
  @Metric(about = "Time to read a job's block placement (successful reads), ms, over the last 60 s",
      sampleName = "Reads", valueName = "Millis", interval = 60)
  MutableQuantiles readTime;
  @Metric(about = "Holds of the scheduling lock by Dataloc (wall time, outermost holds), µs, over the last 60 s",
      sampleName = "Holds", valueName = "Micros", interval = 60)
  MutableQuantiles lockHold;

  /** Registers a fresh source (replacing one left by an earlier scheduler in this JVM). */
  static DatalocMetrics register() {
    var ms = DefaultMetricsSystem.instance();
    ms.unregisterSource(NAME);
    return ms.register(NAME, "Dataloc locality scheduler", new DatalocMetrics());
  }

  static void unregister() {
    DefaultMetricsSystem.instance().unregisterSource(NAME);
  }

  public long mapsNodeLocal() {
    return mapsNodeLocal.value();
  }

  public long mapsRackLocal() {
    return mapsRackLocal.value();
  }

  public long mapsOffSwitch() {
    return mapsOffSwitch.value();
  }

  public long amLimited() {
    return amLimited.value();
  }

  public long reducesCapped() {
    return reducesCapped.value();
  }

  public long amDeclined() {
    return amDeclined.value();
  }

  public long appsRefused() {
    return appsRefused.value();
  }

  public long otherContainers() {
    return otherContainers.value();
  }

  public long plansMade() {
    return plansMade.value();
  }

  public long plansFailed() {
    return plansFailed.value();
  }

  public long plansOverBudget() {
    return plansOverBudget.value();
  }

  public long declines() {
    return declines.value();
  }

  public long placementFailures() {
    return placementFailures.value();
  }

  public long errors() {
    return errors.value();
  }

  public long appsContained() {
    return appsContained.value();
  }

  public long appsStrictLocality() {
    return appsStrictLocality.value();
  }

  public long appsKilled() {
    return appsKilled.value();
  }

  public long recoveries() {
    return recoveries.value();
  }

  public long mapsBeforePlan() {
    return mapsBeforePlan.value();
  }

  public long mapsTiedToPlan() {
    return mapsTiedToPlan.value();
  }

  public long csAttaches() {
    return csAttaches.value();
  }

  public long csFallbacks() {
    return csFallbacks.value();
  }

  public long placementBytesInFlight() {
    return placementBytesInFlight.value();
  }
}
