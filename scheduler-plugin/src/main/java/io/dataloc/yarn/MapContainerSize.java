package io.dataloc.yarn;

import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.yarn.api.records.Resource;

/**
 * The container a MapReduce job will ask for each map, from its {@code job.xml}, as the MapReduce
 * ApplicationMaster works it out: {@code mapreduce.map.resource.memory-mb} if set, else
 * {@code mapreduce.map.memory.mb} if positive, else the {@code -Xmx} of
 * {@code mapreduce.map.java.opts} divided by {@code mapreduce.job.heap.memory-mb.ratio}, else
 * 1024 MB; {@code mapreduce.map.cpu.vcores} virtual cores (default 1). The plan uses it to know how
 * many of the job's maps a host runs at once.
 */
final class MapContainerSize {
  private static final Pattern XMX = Pattern.compile("-Xmx(\\d+)([kKmMgG]?)(?:\\s|$)");

  /** The only properties of {@code job.xml} that are read. */
  static final Set<String> KEYS = Set.of("mapreduce.map.resource.memory-mb", "mapreduce.map.memory.mb",
      "mapreduce.map.java.opts", "mapred.child.java.opts", "mapreduce.job.heap.memory-mb.ratio",
      "mapreduce.map.cpu.vcores");

  private MapContainerSize() {}

  /** From the job's properties as written (an unparsable number counts as unset). */
  static Resource of(Map<String, String> job) {
    long memory = number(job.get("mapreduce.map.resource.memory-mb"));
    if (memory <= 0) {
      memory = number(job.get("mapreduce.map.memory.mb"));
    }
    if (memory <= 0) {
      long heap = heapMb(job.getOrDefault("mapreduce.map.java.opts", job.getOrDefault("mapred.child.java.opts", "")));
      float ratio = 0.8f;
      try {
        ratio = Float.parseFloat(job.getOrDefault("mapreduce.job.heap.memory-mb.ratio", "0.8"));
      } catch (NumberFormatException e) {
        // as unset
      }
      memory = heap > 0 && ratio > 0 ? (long) Math.ceil(heap / ratio) : 1024;
    }
    long vcores = number(job.get("mapreduce.map.cpu.vcores"));
    return Resource.newInstance(memory, (int) Math.max(1, Math.min(vcores, Integer.MAX_VALUE)));
  }

  private static long number(String v) {
    try {
      return v == null ? -1 : Long.parseLong(v.trim());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** The last {@code -Xmx} of the options in MB, or -1. */
  static long heapMb(String opts) {
    Matcher m = XMX.matcher(opts == null ? "" : opts);
    long mb = -1;
    while (m.find()) {
      long v = Long.parseLong(m.group(1));
      switch (m.group(2).toLowerCase(java.util.Locale.ROOT)) {
        case "g":
          mb = v * 1024;
          break;
        case "m":
          mb = v;
          break;
        case "k":
          mb = v / 1024;
          break;
        default:
          mb = v / (1024 * 1024);
          break;
      }
    }
    return mb;
  }
}
