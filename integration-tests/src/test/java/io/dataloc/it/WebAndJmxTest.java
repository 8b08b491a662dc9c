package io.dataloc.it;

import io.dataloc.core.workload.Scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dataloc.yarn.DatalocSchedulerPage;
import io.dataloc.yarn.HadoopLine;
import io.dataloc.yarn.LocalityScheduler;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The RM's web UI and REST API with Dataloc: the scheduler page renders, /jmx shows the metrics,
 * /ws/v1/cluster/scheduler answers for the standalone scheduler, and each job's wait report is served.
 */
class WebAndJmxTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir Path dir;

  @Test
  void schedulerPageAndJmxAreServed() throws Exception {
    int port = freePort();
    Map<String, String> settings = webSettings(port);
    try (MiniMr c = MiniMr.start(LocalityScheduler.class, settings, Scenarios.twoRacks(4), 8192, dir)) {
      List<List<String>> splits = Scenarios.spread(8, 4, 2, 21);
      MrJob job = c.launch(c.submit("web", splits), "h1", splits);
      LocalityComparisonTest.awaitPlan(c);
      Rounds.run(c, job, 50);
      String base = "http://127.0.0.1:" + port;
      String page = get(base + "/cluster/scheduler", 200);
      assertTrue(page.contains("Dataloc locality scheduler"), page);
      assertTrue(page.contains("split-metainfo"), "the job's placement source is shown");
      String jmx = get("http://127.0.0.1:" + port + "/jmx?qry=Hadoop:service=ResourceManager,name=DatalocScheduler", 200);
      assertTrue(jmx.contains("\"PlansMade\" : 1"), jmx);
      assertTrue(jmx.contains("MapsNodeLocal"), jmx);
      // The jar's Hadoop line, as a tag of the bean.
      assertTrue(jmx.contains("\"tag.HadoopLine\" : \"" + HadoopLine.line() + " (Dataloc "), jmx);
      // Queue metrics as dashboards read them: root, and the one queue under it, each with the job.
      for (String q : new String[] {"q0=root", "q0=root,q1=default"}) {
        JsonNode bean = JSON.readTree(get(base + "/jmx?qry=Hadoop:service=ResourceManager,name=QueueMetrics," + q, 200))
            .path("beans").path(0);
        assertEquals(1, bean.path("AppsSubmitted").asInt(), q + ": " + bean);
        assertTrue(bean.path("AvailableMB").asLong() > 0, q + ": " + bean);
      }
      JsonNode cluster = JSON.readTree(get(base + "/ws/v1/cluster/metrics", 200)).path("clusterMetrics");
      assertEquals(1, cluster.path("appsSubmitted").asInt(), cluster.toString());
      if (HadoopLine.line().equals("3.3")) {
        // Hadoop 3.3's RM has no key for a custom web-service class: its stock API stays, 404 for us.
        get(base + "/ws/v1/cluster/scheduler", 404);
        return;
      }
        // The standalone scheduler at the stock path, in the RM's single-queue shape.
        JsonNode info = JSON.readTree(get(base + "/ws/v1/cluster/scheduler", 200)).path("scheduler").path("schedulerInfo");
        assertEquals("fifoScheduler", info.path("type").asText(), info.toString());
        assertEquals(4, info.path("numNodes").asInt(), info.toString());
        assertEquals(4 * 8192, info.path("totalNodeCapacity").asInt(), info.toString());
        // Why each job waits: its refusals, each plan decline among them, as the metrics counted them.
        JsonNode apps = JSON.readTree(get(base + "/ws/v1/cluster/scheduler/dataloc/apps", 200)).path("apps");
        assertEquals(1, apps.size(), apps.toString());
        String id = job.applicationId().toString();
        JsonNode one = JSON.readTree(get(base + "/ws/v1/cluster/scheduler/dataloc/apps/" + id, 200));
        assertEquals(id, one.path("application").asText());
        assertEquals("split-metainfo", one.path("placementSource").asText());
        assertEquals(8, sum(one.path("mapsByNode")), one.toString());
        long planDeclines = 0;
        for (JsonNode e : one.path("latestRefusals")) {
          planDeclines += e.path("cause").asText().startsWith("DECLINE_") ? e.path("count").asLong() : 0;
          assertFalse(e.path("meaning").asText().isEmpty(), e.toString());
        }
        assertEquals(((LocalityScheduler) c.rm.getResourceScheduler()).datalocMetrics().declines(), planDeclines, one.toString());
        assertTrue(one.path("refusals").asLong() >= planDeclines, one.toString());
        assertFalse(one.path("summary").asText().isEmpty());
        get(base + "/ws/v1/cluster/scheduler/dataloc/apps/application_1_0099", 404);
        get(base + "/ws/v1/cluster/scheduler/dataloc/apps/not-an-id", 400);
    }
  }

  /** A free port on loopback for the RM's web server. */
  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  /** A MockRM's web server on {@code port}, with Dataloc's page and web services installed. */
  static Map<String, String> webSettings(int port) {
    return Map.of(
        "mockrm.webapp.enabled", "true",
        YarnConfiguration.RM_WEBAPP_ADDRESS, "127.0.0.1:" + port,
        YarnConfiguration.YARN_HTTP_WEBAPP_SCHEDULER_PAGE, DatalocSchedulerPage.class.getName(),
        "yarn.webapp.custom.webservice.class", "io.dataloc.yarn.web.DatalocWebServices");
  }

  private static int sum(JsonNode counts) {
    int n = 0;
    for (JsonNode v : counts) {
      n += v.asInt();
    }
    return n;
  }

  private static String get(String url, int expected) throws Exception {
    HttpURLConnection conn = (HttpURLConnection) URI.create(url).toURL().openConnection();
    conn.setConnectTimeout(5000);
    conn.setReadTimeout(10000);
    assertEquals(expected, conn.getResponseCode(), url);
    if (expected >= 400) {
      return "";
    }
    try (var in = conn.getInputStream()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
