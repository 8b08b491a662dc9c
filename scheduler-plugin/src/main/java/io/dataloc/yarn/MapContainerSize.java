package io.dataloc.yarn;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
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

  private MapContainerSize() {}

  static Resource of(Configuration job) {
    long memory = job.getLong("mapreduce.map.resource.memory-mb", -1);
    if (memory <= 0) {
      memory = job.getLong("mapreduce.map.memory.mb", -1);
    }
    if (memory <= 0) {
      long heap = heapMb(job.get("mapreduce.map.java.opts", job.get("mapred.child.java.opts", "")));
      float ratio = job.getFloat("mapreduce.job.heap.memory-mb.ratio", 0.8f);
      memory = heap > 0 && ratio > 0 ? (long) Math.ceil(heap / ratio) : 1024;
    }
    int vcores = Math.max(1, job.getInt("mapreduce.map.cpu.vcores", 1));
    return Resource.newInstance(memory, vcores);
  }

  /** The last {@code -Xmx} of the options in MB, or -1. */
  static long heapMb(String opts) {
    Matcher m = XMX.matcher(opts == null ? "" : opts);
    long mb = -1;
    while (m.find()) {
      long v = Long.parseLong(m.group(1));
      mb = switch (m.group(2).toLowerCase(java.util.Locale.ROOT)) {
        case "g" -> v * 1024;
        case "m" -> v;
        case "k" -> v / 1024;
        default -> v / (1024 * 1024);
      };
    }
    return mb;
  }
}
