package io.dataloc.it.replay;

import java.util.List;
import java.util.Locale;

/**
 * The replay's two charts as standalone SVG: the job-time CDF per scheduler (log time axis) and
 * the mean job time per job-size bin. Legends sit right of the plot, off the data; the title says
 * what the chart is one run of.
 */
public final class Charts {
  private static final String[] COLORS = {"#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02"};
  private static final int W = 760;
  private static final int H = 400;
  private static final int LEFT = 70;
  private static final int TOP = 40;
  private static final int PW = 480;
  private static final int PH = 300;

  private Charts() {}

  /** Job-time CDF (fraction of finished jobs done within x seconds), one line per scheduler. */
  public static String cdf(List<ReplayResult> results, String title) {
    double max = 1;
    double min = Double.MAX_VALUE;
    for (ReplayResult r : results) {
      for (double t : r.times(-1)) {
        max = Math.max(max, t);
        min = Math.min(min, Math.max(1, t));
      }
    }
    double lo = Math.log10(Math.max(1, Math.min(min, max)));
    double hi = Math.max(lo + 1, Math.ceil(Math.log10(max)));
    lo = Math.floor(lo);
    StringBuilder sb = head(title);
    for (int d = (int) lo; d <= hi; d++) {
      double x = LEFT + PW * (d - lo) / (hi - lo);
      sb.append(line(x, TOP, x, TOP + PH, "#ddd")).append(text(x, TOP + PH + 18, fmt(Math.pow(10, d)) + " s", "middle"));
    }
    for (int q = 0; q <= 4; q++) {
      double y = TOP + PH - PH * q / 4.0;
      sb.append(line(LEFT, y, LEFT + PW, y, "#ddd")).append(text(LEFT - 8, y + 4, q * 25 + "%", "end"));
    }
    sb.append(text(LEFT + PW / 2.0, TOP + PH + 38, "job time (log scale)", "middle"));
    for (int i = 0; i < results.size(); i++) {
      double[] t = results.get(i).times(-1);
      StringBuilder pts = new StringBuilder();
      for (int k = 0; k < t.length; k++) {
        if (k + 1 < t.length && t[k + 1] == t[k]) {
          continue; // one point per distinct time: the step's top
        }
        double x = LEFT + PW * (Math.log10(Math.max(1, t[k])) - lo) / (hi - lo);
        double y = TOP + PH - PH * (k + 1.0) / t.length;
        pts.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
      }
      sb.append(String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"%s\"/>%n",
          COLORS[i % COLORS.length], pts));
    }
    legend(sb, results);
    return sb.append("</svg>\n").toString();
  }

  /** Mean job time per job-size bin, grouped bars, one colour per scheduler. */
  public static String bins(List<ReplayResult> results, String title) {
    int bins = ReplayResult.BINS.size();
    double max = 1;
    for (ReplayResult r : results) {
      for (int b = 0; b < bins; b++) {
        double m = ReplayResult.mean(r.times(b));
        max = Double.isNaN(m) ? max : Math.max(max, m);
      }
    }
    max = nice(max);
    StringBuilder sb = head(title);
    for (int q = 0; q <= 4; q++) {
      double y = TOP + PH - PH * q / 4.0;
      sb.append(line(LEFT, y, LEFT + PW, y, "#ddd")).append(text(LEFT - 8, y + 4, fmt(max * q / 4) + " s", "end"));
    }
    double group = (double) PW / bins;
    double bar = group * 0.8 / Math.max(1, results.size());
    for (int b = 0; b < bins; b++) {
      sb.append(text(LEFT + group * (b + 0.5), TOP + PH + 18, ReplayResult.BINS.get(b) + " maps", "middle"));
      for (int i = 0; i < results.size(); i++) {
        double m = ReplayResult.mean(results.get(i).times(b));
        if (Double.isNaN(m)) {
          continue;
        }
        double h = PH * m / max;
        sb.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>%n",
            LEFT + group * b + group * 0.1 + bar * i, TOP + PH - h, bar, h, COLORS[i % COLORS.length]));
      }
    }
    sb.append(text(LEFT + PW / 2.0, TOP + PH + 38, "mean job time by job size", "middle"));
    legend(sb, results);
    return sb.append("</svg>\n").toString();
  }

  /** The least of 1, 2, 4, 5 or 8 times a power of ten at or above {@code x}: quarter ticks fall on round numbers. */
  static double nice(double x) {
    double p = Math.pow(10, Math.floor(Math.log10(x)));
    for (double m : new double[] {1, 2, 4, 5, 8, 10}) {
      if (m * p >= x) {
        return m * p;
      }
    }
    return 10 * p;
  }

  private static StringBuilder head(String title) {
    StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"12\">%n"
            + "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>%n", W, H));
    sb.append(text(W / 2.0, 22, escape(title), "middle").replace("<text ", "<text font-size=\"14\" "));
    sb.append(line(LEFT, TOP + PH, LEFT + PW, TOP + PH, "#333")).append(line(LEFT, TOP, LEFT, TOP + PH, "#333"));
    return sb;
  }

  private static void legend(StringBuilder sb, List<ReplayResult> results) {
    for (int i = 0; i < results.size(); i++) {
      double y = TOP + 10 + 20 * i;
      sb.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%.1f\" width=\"14\" height=\"4\" fill=\"%s\"/>%n",
          LEFT + PW + 20, y - 4, COLORS[i % COLORS.length]));
      sb.append(text(LEFT + PW + 40, y + 2, escape(results.get(i).scheduler()), "start"));
    }
  }

  private static String line(double x1, double y1, double x2, double y2, String color) {
    return String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>%n", x1, y1,
        x2, y2, color);
  }

  private static String text(double x, double y, String s, String anchor) {
    return String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text>%n", x, y, anchor, s);
  }

  private static String fmt(double v) {
    return v >= 100 ? String.format(Locale.ROOT, "%,.0f", v) : String.format(Locale.ROOT, "%.3g", v);
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
