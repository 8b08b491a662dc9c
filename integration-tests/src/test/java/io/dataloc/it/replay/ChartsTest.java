package io.dataloc.it.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

/** The charts are well-formed SVG with one series and one legend entry per scheduler, on round axes. */
class ChartsTest {
  private static ReplayResult result(String name, double... times) {
    List<ReplayResult.JobTime> jobs = new java.util.ArrayList<>();
    int[] maps = {1, 20, 100, 600}; // one job in each size bin
    for (int i = 0; i < times.length; i++) {
      jobs.add(new ReplayResult.JobTime("j" + i, maps[i], 0, i, 0, 0, times[i], times[i], 1, 1, 0, 0, "h1", java.util.Map.of()));
    }
    return new ReplayResult(name, jobs, 0, 0, 100, 1, 0);
  }

  private static Document parse(String svg) throws Exception {
    return DocumentBuilderFactory.newInstance().newDocumentBuilder()
        .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void everySchedulerHasItsSeriesAndLegend() throws Exception {
    List<ReplayResult> rs = List.of(result("a<b", 5, 8, 8, 40), result("c", 6, 9, 30, 300));
    Document cdf = parse(Charts.cdf(rs, "t & u"));
    assertEquals(2, cdf.getElementsByTagName("polyline").getLength());
    Document bins = parse(Charts.bins(rs, "t"));
    // four bins with a job each for both schedulers: eight bars and a legend swatch each, plus the background
    assertEquals(8 + 2 + 1, bins.getElementsByTagName("rect").getLength());
  }

  @Test
  void axesEndOnRoundNumbers() {
    assertEquals(200, Charts.nice(163), 1e-9);
    assertEquals(100, Charts.nice(81.6), 1e-9);
    assertEquals(40, Charts.nice(40), 1e-9);
    assertEquals(1000, Charts.nice(801), 1e-9);
  }
}
