package io.dataloc.sim.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What an experiment found — its summary, its CSVs, its charts — as data: the experiment computes
 * and records, {@link #writeTo} renders. An experiment never writes a file itself, so a caller may
 * run it and keep, print, compare or discard what it found.
 */
public final class Report {
  /** A chart to draw: a line or scatter chart, or a grouped bar chart. */
  private interface Chart {
    void draw(Path file) throws IOException;
  }

  private final Map<String, Csv> csvs = new LinkedHashMap<>();
  private final Map<String, Chart> charts = new LinkedHashMap<>();
  private String summary = "";

  /** A CSV, written as {@code file} in the output folder. */
  public Report csv(String file, Csv csv) {
    csvs.put(file, csv);
    return this;
  }

  /** A line chart (markers on); {@code scatter} draws points only; see {@link Charts#xy}. */
  public Report xy(String file, String title, String xTitle, String yTitle, List<Charts.Series> series,
      boolean scatter, boolean logY) {
    List<Charts.Series> copy = new ArrayList<>(series);
    charts.put(file, f -> Charts.xy(f, title, xTitle, yTitle, copy, scatter, logY));
    return this;
  }

  /** A grouped bar chart; see {@link Charts#bars}. */
  public Report bars(String file, String title, String xTitle, String yTitle, List<String> categories,
      Map<String, List<? extends Number>> series) {
    Map<String, List<? extends Number>> copy = new LinkedHashMap<>(series);
    charts.put(file, f -> Charts.bars(f, title, xTitle, yTitle, categories, copy));
    return this;
  }

  /** The summary to print (the experiment's tables); returns this report. */
  public Report summary(String text) {
    summary = text;
    return this;
  }

  public String summary() {
    return summary;
  }

  /** The files this report writes, CSVs first. */
  public List<String> files() {
    List<String> out = new ArrayList<>(csvs.keySet());
    out.addAll(charts.keySet());
    return out;
  }

  /** Writes every CSV and chart into {@code dir}. */
  public void writeTo(Path dir) throws IOException {
    for (var e : csvs.entrySet()) {
      e.getValue().write(dir.resolve(e.getKey()));
    }
    for (var e : charts.entrySet()) {
      e.getValue().draw(dir.resolve(e.getKey()));
    }
  }
}
