package io.dataloc.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

/** The scheduler page is public: a job's note shows its kind and a bound's key, never exception text. */
class DatalocSchedulerPageTest {
  @Test
  void notesLoseTheirExceptionText() {
    String read = "placement read failed: File file:/secret/staging/bob/.staging/job_1/job.splitmetainfo does not exist";
    assertEquals("placement read failed; details in the ResourceManager log", DatalocSchedulerPage.publicNote(read));
    String bound = "placement read failed: the split count 50000000 exceeds yarn.scheduler.dataloc.placement.max-splits"
        + " = 200000";
    assertEquals("placement read failed (yarn.scheduler.dataloc.placement.max-splits); details in the ResourceManager"
        + " log", DatalocSchedulerPage.publicNote(bound));
    String planning = "planning failed: java.lang.IllegalStateException: at io.dataloc.core.Secret";
    assertFalse(DatalocSchedulerPage.publicNote(planning).contains("Secret"));
    assertEquals("job has 300000 maps, above plan.max-tasks",
        DatalocSchedulerPage.publicNote("job has 300000 maps, above plan.max-tasks"));
    assertEquals("", DatalocSchedulerPage.publicNote(null));
  }
}
