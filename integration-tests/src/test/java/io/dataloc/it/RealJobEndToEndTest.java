package io.dataloc.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.map.TokenCounterMapper;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.reduce.IntSumReducer;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;

import io.dataloc.yarn.LocalityScheduler;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real MapReduce wordcount over HDFS on four distinct hosts under Dataloc and under the
 * CapacityScheduler in the same run: locality from the job counters, placement from the task
 * completion events, output checked.
 */
@Tag("e2e")
class RealJobEndToEndTest {
  private static final int FILES = 12;

  @TempDir Path dir;

  @Test
  void wordcountUnderDatalocAndCapacityScheduler() throws Exception {
    List<EmbeddedCluster.Result> results = new ArrayList<>();
    results.add(EmbeddedCluster.run("dataloc", LocalityScheduler.class, dir, FILES, System.out::println));
    results.add(EmbeddedCluster.run("capacity", CapacityScheduler.class, dir, FILES, System.out::println));
    System.out.println(Demo.table(results));
    EmbeddedCluster.Result d = results.get(0);
    assertEquals(FILES, d.dataLocal() + d.rackLocal() + d.other(), "every map counted once");
    assertTrue(d.dataLocal() >= results.get(1).dataLocal(), "Dataloc at least as data-local: " + results);
  }
}
