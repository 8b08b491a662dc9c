package io.dataloc.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.hadoop.yarn.api.records.Resource;
import org.junit.jupiter.api.Test;

/** The map container a job's configuration asks for, worked out as the MapReduce AM does. */
class MapContainerSizeTest {
  private static Resource of(String... keyValues) {
    java.util.Map<String, String> job = new java.util.HashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      job.put(keyValues[i], keyValues[i + 1]);
    }
    return MapContainerSize.of(job);
  }

  @Test
  void theConfiguredMemoryAndCores() {
    assertEquals(Resource.newInstance(1536, 1), of("mapreduce.map.memory.mb", "1536"));
    assertEquals(Resource.newInstance(4096, 2),
        of("mapreduce.map.memory.mb", "4096", "mapreduce.map.cpu.vcores", "2"));
    // The resource-type key wins over the classic one, as in the AM.
    assertEquals(Resource.newInstance(3072, 1),
        of("mapreduce.map.memory.mb", "1536", "mapreduce.map.resource.memory-mb", "3072"));
  }

  @Test
  void unsetMemoryFollowsTheHeapThenTheDefault() {
    // Hadoop 3's mapred-default has -1: derived from -Xmx over the heap ratio (0.8 by default).
    assertEquals(2560, of("mapreduce.map.memory.mb", "-1", "mapreduce.map.java.opts", "-Xmx2048m").getMemorySize());
    assertEquals(2560, of("mapreduce.map.java.opts", "-Dx=y -Xmx2g -verbose:gc").getMemorySize());
    assertEquals(2048, of("mapreduce.map.java.opts", "-Xmx1024m", "mapreduce.job.heap.memory-mb.ratio", "0.5")
        .getMemorySize());
    assertEquals(1024, of().getMemorySize());
    assertEquals(1024, of("mapreduce.map.java.opts", "-verbose:gc").getMemorySize());
  }

  @Test
  void theLastXmxCountsInEveryUnit() {
    assertEquals(512, MapContainerSize.heapMb("-Xmx1g -Xmx512m"));
    assertEquals(1, MapContainerSize.heapMb("-Xmx1024k"));
    assertEquals(3, MapContainerSize.heapMb("-Xmx3145728"));
    assertEquals(-1, MapContainerSize.heapMb("-Xms1g"));
    assertEquals(-1, MapContainerSize.heapMb(null));
  }
}
