package io.dataloc.sim.online;

import java.io.IOException;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * One thread per core for an experiment's independent seeded runs (each run is deterministic, so
 * the results do not depend on the order they finish in); a run's failure or an interrupt surfaces
 * as the experiment's {@link IOException}.
 */
final class RunPool implements AutoCloseable {
  private final ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Runtime.getRuntime().availableProcessors()));

  <T> Future<T> submit(Callable<T> run) {
    return pool.submit(run);
  }

  /** The run's result, waiting for it. */
  static <T> T get(Future<T> run) throws IOException {
    try {
      return run.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    } catch (ExecutionException e) {
      throw new IOException(e.getCause());
    }
  }

  @Override
  public void close() {
    pool.shutdownNow();
  }
}
