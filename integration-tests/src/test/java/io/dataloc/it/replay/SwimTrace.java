package io.dataloc.it.replay;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A workload in the SWIM project's format (one job per line, tab-separated: name, submit time in
 * seconds, gap since the previous job, map input bytes, shuffle bytes, output bytes, and, in the
 * {@code withInputPaths} files, the input path). Jobs that name the same input path read the same
 * file: the trace's own data popularity.
 */
public final class SwimTrace {
  /** One job: submit time (s from the start of the trace), bytes as the trace gives them, its input path. */
  public record Job(String name, long submitSeconds, long inputBytes, long shuffleBytes, long outputBytes,
      String inputPath) {}

  private SwimTrace() {}

  /**
   * Reads the jobs submitted in trace hours {@code fromHour}..{@code toHour} (1-based, inclusive:
   * hour h is [3600(h-1), 3600h) s), with submit times made relative to the start of {@code fromHour}.
   *
   * @throws IllegalArgumentException naming the file and line of a malformed job
   */
  public static List<Job> read(Path file, int fromHour, int toHour) throws IOException {
    if (fromHour < 1 || toHour < fromHour) {
      throw new IllegalArgumentException("--hours: need 1 <= A <= B, not " + fromHour + "-" + toHour);
    }
    long lo = 3600L * (fromHour - 1);
    long hi = 3600L * toHour;
    List<Job> out = new ArrayList<>();
    int lineNo = 0;
    for (String line : Files.readAllLines(file)) {
      lineNo++;
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] f = line.split("\t", -1);
      if (f.length < 6) {
        throw new IllegalArgumentException(file + ":" + lineNo + ": expected at least 6 tab-separated fields"
            + " (name, submit s, gap s, input, shuffle, output bytes), found " + f.length);
      }
      long submit;
      long in;
      long shuffle;
      long output;
      try {
        submit = Long.parseLong(f[1].trim());
        in = Long.parseLong(f[3].trim());
        shuffle = Long.parseLong(f[4].trim());
        output = Long.parseLong(f[5].trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(file + ":" + lineNo + ": not a number: " + e.getMessage());
      }
      if (submit < 0 || in < 0 || shuffle < 0 || output < 0) {
        throw new IllegalArgumentException(file + ":" + lineNo + ": negative time or size");
      }
      if (submit < lo || submit >= hi) {
        continue;
      }
      String path = f.length > 6 && !f[6].isBlank() ? f[6].trim() : "input-of-" + f[0].trim();
      out.add(new Job(f[0].trim(), submit - lo, in, shuffle, output, path));
    }
    out.sort(java.util.Comparator.comparingLong(Job::submitSeconds));
    return out;
  }
}
