package io.dataloc.sim.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** PNG charts with XChart (headless). */
public final class Charts {
  static {
    System.setProperty("java.awt.headless", "true");
  }

  private Charts() {}

  /** One series: x and y values. */
  public record Series(String name, List<? extends Number> x, List<? extends Number> y) {
    public Series renamed(String other) {
      return new Series(other, x, y);
    }
  }

  /** A line chart (markers on); {@code scatter} draws points only. */
  public static Path xy(Path file, String title, String xTitle, String yTitle, List<Series> series, boolean scatter,
      boolean logY) throws IOException {
    XYChart c = new XYChartBuilder().width(900).height(560).title(title).xAxisTitle(xTitle).yAxisTitle(yTitle).build();
    c.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideNW);
    c.getStyler().setYAxisLogarithmic(logY);
    if (scatter) {
      c.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
      c.getStyler().setMarkerSize(5);
    }
    for (Series s : series) {
      if (!s.x().isEmpty()) {
        XYSeries xs = c.addSeries(s.name(), s.x(), s.y());
        if (!scatter) {
          xs.setMarker(SeriesMarkers.CIRCLE);
        }
      }
    }
    return save(file, c);
  }

  /** A grouped bar chart: categories on x, one bar per series. */
  public static Path bars(Path file, String title, String xTitle, String yTitle, List<String> categories,
      Map<String, List<? extends Number>> series) throws IOException {
    CategoryChart c = new CategoryChartBuilder().width(900).height(560).title(title).xAxisTitle(xTitle)
        .yAxisTitle(yTitle).build();
    c.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideNW);
    for (var e : series.entrySet()) {
      c.addSeries(e.getKey(), categories, e.getValue());
    }
    return save(file, c);
  }

  private static Path save(Path file, org.knowm.xchart.internal.chartpart.Chart<?, ?> chart) throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    return file;
  }
}
