package io.dataloc.it;

import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableUtils;

/** Writes {@code job.splitmetainfo} files in the format JobSplitWriter produces. */
final class SplitFiles {
  private SplitFiles() {}

  static Path write(Path file, List<List<String>> hostsPerSplit) throws IOException {
    Files.createDirectories(file.getParent());
    try (DataOutputStream out = new DataOutputStream(Files.newOutputStream(file))) {
      out.write("META-SPL".getBytes(StandardCharsets.UTF_8));
      WritableUtils.writeVInt(out, 1);
      WritableUtils.writeVInt(out, hostsPerSplit.size());
      long offset = 0;
      for (List<String> hosts : hostsPerSplit) {
        WritableUtils.writeVInt(out, hosts.size());
        for (String h : hosts) {
          Text.writeString(out, h);
        }
        WritableUtils.writeVLong(out, offset);
        WritableUtils.writeVLong(out, 1 << 20);
        offset += 100;
      }
    }
    return file;
  }
}
