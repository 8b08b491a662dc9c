package io.dataloc.sim.report;

import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Rows with a fixed header, written as RFC 4180 CSV. */
public final class Csv {
  private final List<String> header;
  private final List<List<Object>> rows = new ArrayList<>();

  public Csv(String... header) {
    this.header = List.of(header);
  }

  public void add(Object... values) {
    if (values.length != header.size()) {
      throw new IllegalArgumentException("row has " + values.length + " values, header " + header.size());
    }
    rows.add(List.of(values));
  }

  public List<List<Object>> rows() {
    return rows;
  }

  public List<String> header() {
    return header;
  }

  public void write(Path file) throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    try (Writer w = Files.newBufferedWriter(file)) {
      w.write(String.join(",", header));
      w.write('\n');
      for (List<Object> row : rows) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < row.size(); i++) {
          if (i > 0) {
            sb.append(',');
          }
          sb.append(cell(row.get(i)));
        }
        w.write(sb.append('\n').toString());
      }
    }
  }

  private static String cell(Object v) {
    if (v instanceof Double d) {
      return String.format(Locale.ROOT, "%.6g", d);
    }
    String s = String.valueOf(v);
    return s.contains(",") || s.contains("\"") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
  }
}
