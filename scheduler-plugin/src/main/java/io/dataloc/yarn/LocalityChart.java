package io.dataloc.yarn;

import java.util.Locale;

/**
 * The page's chart of map containers by locality level per minute ({@link LocalityHistory}): an
 * inline SVG of stacked bars, node-local at the bottom, then rack-local, then off-switch; the
 * legend above the plot, never over a bar; each bar's exact counts in its tooltip.
 */
final class LocalityChart {
  static final String[] LEVELS = {"node-local", "rack-local", "off-switch"};
  private static final String[] COLOURS = {"#2e7d32", "#f9a825", "#c62828"};
  private static final int BAR = 10;
  private static final int GAP = 2;
  private static final int PLOT_HEIGHT = 120;
  private static final int LEFT = 40;
  private static final int TOP = 28;

  private LocalityChart() {}

  /** The chart of {@code perMinute} (oldest first; per minute the counts by level). */
  static String svg(long[][] perMinute) {
    long max = 1;
    for (long[] m : perMinute) {
      max = Math.max(max, m[0] + m[1] + m[2]);
    }
    int width = LEFT + perMinute.length * (BAR + GAP) + 10;
    int height = TOP + PLOT_HEIGHT + 24;
    StringBuilder s = new StringBuilder();
    s.append(String.format(Locale.ROOT, "<svg id=\"dataloc-locality\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\""
        + " height=\"%d\" role=\"img\" aria-label=\"map containers per minute by locality\""
        + " style=\"font: 11px sans-serif\">", width, height));
    int x = LEFT;
    for (int l = 0; l < LEVELS.length; l++) {
      s.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"6\" width=\"10\" height=\"10\" fill=\"%s\"/>"
          + "<text x=\"%d\" y=\"15\">%s</text>", x, COLOURS[l], x + 14, LEVELS[l]));
      x += 14 + 8 * LEVELS[l].length() + 16;
    }
    int base = TOP + PLOT_HEIGHT;
    s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#888\"/>", LEFT - 2,
        base, width - 10, base));
    s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%d</text>", LEFT - 6, TOP + 9,
        max));
    s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">0</text>", LEFT - 6, base));
    for (int i = 0; i < perMinute.length; i++) {
      int bx = LEFT + i * (BAR + GAP);
      long[] m = perMinute[i];
      long ago = perMinute.length - 1 - i;
      s.append(String.format(Locale.ROOT, "<g><title>%s: %d node-local, %d rack-local, %d off-switch</title>",
          ago == 0 ? "this minute" : ago + " min ago", m[0], m[1], m[2]));
      long below = 0;
      for (int l = 0; l < LEVELS.length; l++) {
        if (m[l] == 0) {
          continue;
        }
        int y0 = base - (int) (below * PLOT_HEIGHT / max);
        below += m[l];
        int y1 = base - (int) (below * PLOT_HEIGHT / max);
        s.append(String.format(Locale.ROOT, "<rect class=\"%s\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\""
            + " fill=\"%s\"/>", LEVELS[l], bx, y1, BAR, Math.max(1, y0 - y1), COLOURS[l]));
      }
      s.append("</g>");
    }
    s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%d min ago</text>", LEFT, base + 16,
        perMinute.length - 1));
    s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">now</text>", width - 10,
        base + 16));
    return s.append("</svg>").toString();
  }
}
