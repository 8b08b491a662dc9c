package io.dataloc.sim.report;

import java.util.ArrayList;
import java.util.List;

/** A plain-text table with right-aligned columns after the first. */
public final class Table {
  private final List<String[]> rows = new ArrayList<>();

  public Table(String... header) {
    rows.add(header);
  }

  public Table row(Object... cells) {
    String[] r = new String[cells.length];
    for (int i = 0; i < cells.length; i++) {
      r[i] = cells[i] instanceof Double d ? String.format(java.util.Locale.ROOT, "%.3f", d) : String.valueOf(cells[i]);
    }
    rows.add(r);
    return this;
  }

  @Override
  public String toString() {
    int cols = rows.get(0).length;
    int[] w = new int[cols];
    for (String[] r : rows) {
      for (int i = 0; i < cols; i++) {
        w[i] = Math.max(w[i], r[i].length());
      }
    }
    StringBuilder sb = new StringBuilder();
    for (String[] r : rows) {
      for (int i = 0; i < cols; i++) {
        String cell = r[i];
        String pad = " ".repeat(w[i] - cell.length());
        sb.append(i == 0 ? cell + pad : "  " + pad + cell);
      }
      sb.append('\n');
    }
    return sb.toString();
  }
}
