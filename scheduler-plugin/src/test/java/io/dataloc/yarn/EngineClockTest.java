package io.dataloc.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dataloc.core.engine.DecisionEngine;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/**
 * The engine counts whole seconds since the plan service started, whatever the front end's clock
 * reads, and a new engine starts at the service's now: a task that enters the engine before the
 * first node heartbeat (a plan landing while asynchronous scheduling placed the AM with no
 * heartbeat), or after a refresh replaced the engine, waits from when it entered — not since the
 * epoch, which would put every such task past any break-even wait and send it off its data.
 */
class EngineClockTest {
  /** A cluster whose clock reads 2026 (the epoch's milliseconds) when the service starts. */
  private static final long START_MS = 1_795_000_000_000L;

  @Test
  void theEngineCountsSecondsSinceTheServiceStartedAndANewEngineStartsAtItsNow() {
    AtomicLong clock = new AtomicLong(START_MS);
    Settings settings = DatalocConfiguration.load(new Configuration(false));
    DatalocState state = new DatalocState(new Object(), settings, new DatalocMetrics(), null, id -> null, id -> 0,
        clock::get, true);
    state.advanceEngineClock();
    assertEquals(0, state.engine().state().now(), "no time has passed since the service started");

    clock.addAndGet(2_999);
    state.advanceEngineClock();
    assertEquals(2, state.engine().state().now(), "whole seconds, rounded down");

    clock.addAndGet(7_001);
    DecisionEngine fresh = new DecisionEngine(settings.engineConfig());
    assertEquals(0, fresh.state().now());
    state.engine(fresh);
    assertEquals(10, state.engine().state().now(), "a new engine starts at the service's now, not at 0");

    clock.addAndGet(-5_000);
    state.advanceEngineClock();
    assertEquals(10, state.engine().state().now(), "a clock that steps back never takes the engine back");
  }
}
