package io.dataloc.it;

import io.dataloc.yarn.LocalityScheduler;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Holds one of the scheduler's unlocked sites (a placement read, a plan), as a slow file system or planner would. */
final class Holds {
  private Holds() {}

  /** Every call at {@code site} waits until the returned latch is released (at most a minute). */
  static CountDownLatch hold(LocalityScheduler s, String site) {
    CountDownLatch release = new CountDownLatch(1);
    s.setFaultInjector((at, id) -> {
      if (at.equals(site)) {
        try {
          release.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    });
    return release;
  }
}
