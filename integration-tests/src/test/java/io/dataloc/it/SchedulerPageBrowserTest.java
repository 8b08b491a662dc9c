package io.dataloc.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.dataloc.core.workload.Scenarios;
import io.dataloc.yarn.HadoopLine;
import io.dataloc.yarn.LocalityScheduler;
import java.awt.image.BufferedImage;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scheduler page in a real browser (headless Chromium, Debian's {@code chromium} package):
 * after a job, the page as the browser built it holds the locality chart with the job's bars and
 * the jobs table with where its maps ran and why it waits, and the screenshot shows the chart's
 * node-local bars. The screenshot is kept at {@code target/browser/scheduler-page.png}. Skipped,
 * by name, where Chromium is not installed ({@code .ci/run} installs it).
 */
class SchedulerPageBrowserTest {
  /** The chart's node-local colour ({@code LocalityChart}). */
  private static final int NODE_LOCAL_RGB = 0x2e7d32;

  @TempDir Path dir;

  @Test
  void thePageShowsTheChartAndWhyEachJobWaits() throws Exception {
    String chromium = chromium();
    assumeTrue(chromium != null, "needs Chromium (apt-get install chromium)");
    int port = WebAndJmxTest.freePort();
    Map<String, String> settings = WebAndJmxTest.webSettings(port);
    try (MiniMr c = MiniMr.start(LocalityScheduler.class, settings, Scenarios.twoRacks(4), 8192, dir)) {
      List<List<String>> splits = Scenarios.spread(8, 4, 2, 21);
      MrJob job = c.launch(c.submit("page", splits), "h1", splits);
      LocalityComparisonTest.awaitPlan(c);
      Rounds.run(c, job, 50);
      String url = "http://127.0.0.1:" + port + "/cluster/scheduler";

      String dom = run(chromium, "--dump-dom", url);
      assertTrue(dom.contains("<svg id=\"dataloc-locality\""), "the chart is an element of the page: " + dom);
      assertTrue(dom.contains("<rect class=\"node-local\""), "the job's node-local maps are bars of the chart");
      assertTrue(dom.contains("Why waiting") && dom.contains("Maps ran on"), "the jobs table's columns");
      String app = job.applicationId().toString();
      // Linked where the RM can install Dataloc's web services (Hadoop 3.4 and later).
      assertEquals(!HadoopLine.line().equals("3.3"), dom.contains("/ws/v1/cluster/scheduler/dataloc/apps/" + app),
          "the job's wait details are linked");

      Path png = Paths.get("target", "browser", "scheduler-page.png").toAbsolutePath();
      Files.createDirectories(png.getParent());
      Files.deleteIfExists(png);
      run(chromium, "--screenshot=" + png, "--window-size=1600,900", url);
      BufferedImage image = ImageIO.read(png.toFile());
      int green = 0;
      for (int y = 0; y < image.getHeight(); y++) {
        for (int x = 0; x < image.getWidth(); x++) {
          green += (image.getRGB(x, y) & 0xffffff) == NODE_LOCAL_RGB ? 1 : 0;
        }
      }
      System.out.println("scheduler page screenshot: " + png + " (" + green + " node-local chart pixels)");
      assertTrue(green >= 10 * 10, "the screenshot shows node-local bars: " + green + " pixels of the colour");
    }
  }

  /** Runs headless Chromium on the arguments; its standard output. */
  private String run(String chromium, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(chromium, "--headless=new", "--no-sandbox", "--disable-gpu",
        "--disable-dev-shm-usage", "--user-data-dir=" + dir.resolve("chromium-profile")));
    cmd.addAll(List.of(args));
    Path out = dir.resolve("chromium.out");
    Process p = new ProcessBuilder(cmd).redirectErrorStream(false).redirectOutput(out.toFile())
        .redirectError(dir.resolve("chromium.err").toFile()).start();
    try {
      assertTrue(p.waitFor(120, TimeUnit.SECONDS), "Chromium finished");
    } finally {
      p.destroyForcibly();
    }
    assertEquals(0, p.exitValue(), Files.readString(dir.resolve("chromium.err")));
    return Files.readString(out, StandardCharsets.UTF_8);
  }

  private static String chromium() {
    for (String c : new String[] {"/usr/bin/chromium", "/usr/bin/chromium-browser"}) {
      if (new File(c).canExecute()) {
        return c;
      }
    }
    return null;
  }
}
