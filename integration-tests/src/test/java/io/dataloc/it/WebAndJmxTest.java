package io.dataloc.it;

import io.dataloc.core.workload.Scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dataloc.yarn.DatalocSchedulerPage;
import io.dataloc.yarn.LocalityScheduler;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The RM's web UI with Dataloc: the scheduler page renders (status 200) and /jmx shows our metrics. */
class WebAndJmxTest {
  @TempDir Path dir;

  @Test
  void schedulerPageAndJmxAreServed() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    Map<String, String> settings = Map.of(
        "mockrm.webapp.enabled", "true",
        YarnConfiguration.RM_WEBAPP_ADDRESS, "127.0.0.1:" + port,
        YarnConfiguration.YARN_HTTP_WEBAPP_SCHEDULER_PAGE, DatalocSchedulerPage.class.getName());
    try (MiniMr c = MiniMr.start(LocalityScheduler.class, settings, Scenarios.twoRacks(4), 8192, dir)) {
      List<List<String>> splits = Scenarios.spread(8, 4, 2, 21);
      MrJob job = c.launch(c.submit("web", splits), "h1", splits);
      LocalityComparisonTest.awaitPlan(c);
      Rounds.run(c, job, 50);
      String page = get("http://127.0.0.1:" + port + "/cluster/scheduler", 200);
      assertTrue(page.contains("Dataloc locality scheduler"), page);
      assertTrue(page.contains("split-metainfo"), "the job's placement source is shown");
      String jmx = get("http://127.0.0.1:" + port + "/jmx?qry=Hadoop:service=ResourceManager,name=DatalocScheduler", 200);
      assertTrue(jmx.contains("\"PlansMade\" : 1"), jmx);
      assertTrue(jmx.contains("MapsNodeLocal"), jmx);
    }
  }

  private static String get(String url, int expected) throws Exception {
    HttpURLConnection conn = (HttpURLConnection) URI.create(url).toURL().openConnection();
    conn.setConnectTimeout(5000);
    conn.setReadTimeout(10000);
    assertEquals(expected, conn.getResponseCode(), url);
    try (var in = conn.getInputStream()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
