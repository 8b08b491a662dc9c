package io.dataloc.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The workload submits each job at its own arrival: a slow submission holds back no other job. */
class WorkloadArrivalsTest {
  @Test
  void aSlowSubmissionDoesNotHoldBackTheJobsAfterIt() throws Exception {
    List<Workload.Spec> specs = List.of(new Workload.Spec(0, 0, 0, 1), new Workload.Spec(1, 0.05, 1, 1));
    CountDownLatch secondSubmitted = new CountDownLatch(1);
    AtomicBoolean firstSawSecond = new AtomicBoolean();
    Workload.atArrivals(specs, System.currentTimeMillis(), s -> {
      if (s.index() == 0) {
        // The first job's submission lasts until the second's is done: one after another, it never would be.
        firstSawSecond.set(secondSubmitted.await(60, TimeUnit.SECONDS));
      } else {
        secondSubmitted.countDown();
      }
    });
    assertTrue(firstSawSecond.get(), "the second job was submitted while the first's submission went on");
  }

  @Test
  void aFailedSubmissionIsReportedWithItsJob() {
    List<Workload.Spec> specs = List.of(new Workload.Spec(0, 0, 0, 1), new Workload.Spec(1, 0, 1, 1));
    IOException e = assertThrows(IOException.class, () -> Workload.atArrivals(specs, System.currentTimeMillis(), s -> {
      if (s.index() == 1) {
        throw new IllegalStateException("queue full");
      }
    }));
    assertEquals("job 1 could not be submitted: java.lang.IllegalStateException: queue full", e.getMessage());
  }
}
