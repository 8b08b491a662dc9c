package io.dataloc.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.apache.hadoop.yarn.util.Records;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The input-hint placement source: every block of every file under the paths named in the AM's
 * environment is a task, its replica hosts as the file system reports them.
 */
class PlacementReaderTest {
  private final HostNames names = new HostNames();
  @TempDir Path dir;

  /**
   * The local file system (standing in for HDFS) whose files are split into blocks, block {@code i} of a file on
   * the hosts its first line names for that block ({@code "h1 h2|h3|..."}).
   */
  public static final class BlockHostsFileSystem extends RawLocalFileSystem {
    @Override
    public BlockLocation[] getFileBlockLocations(FileStatus file, long start, long len) throws IOException {
      String[] perBlock = Files.readAllLines(Path.of(file.getPath().toUri().getPath())).get(0).split("\\|");
      BlockLocation[] out = new BlockLocation[perBlock.length];
      for (int i = 0; i < perBlock.length; i++) {
        String[] hosts = perBlock[i].trim().split(" ");
        out[i] = new BlockLocation(hosts, hosts, i * 10L, 10);
      }
      return out;
    }
  }

  private static Configuration conf() {
    Configuration conf = new Configuration(false);
    conf.setClass("fs.file.impl", BlockHostsFileSystem.class, org.apache.hadoop.fs.FileSystem.class);
    conf.setBoolean("fs.file.impl.disable.cache", true);
    return conf;
  }

  private static ApplicationSubmissionContext app(Map<String, String> env) {
    ContainerLaunchContext clc = Records.newRecord(ContainerLaunchContext.class);
    clc.setEnvironment(env);
    ApplicationSubmissionContext ctx = Records.newRecord(ApplicationSubmissionContext.class);
    ctx.setAMContainerSpec(clc);
    return ctx;
  }

  @Test
  void everyBlockUnderTheHintedPathsIsATaskOnItsHosts() throws Exception {
    Files.createDirectories(dir.resolve("in/sub"));
    Files.writeString(dir.resolve("in/a"), "h1 h2|h3 h4\n");
    Files.writeString(dir.resolve("in/sub/b"), "h2\n");
    Files.writeString(dir.resolve("other"), "h5 h6|h6\n");
    PlacementReader r = new PlacementReader(conf(), Set.of("input-hint"), "DATALOC_INPUT_PATHS");
    String hint = "file://" + dir.resolve("in") + " , file://" + dir.resolve("other");
    PlacementReader.Placement p = r.read(app(Map.of("DATALOC_INPUT_PATHS", hint)), "SPARK", null, names);
    assertEquals("input-hint", p.source());
    List<List<String>> tasks = names.of(p.hosts());
    assertEquals(5, tasks.size(), tasks.toString());
    assertEquals(Set.of(List.of("h1", "h2"), List.of("h3", "h4"), List.of("h2"), List.of("h5", "h6"), List.of("h6")),
        Set.copyOf(tasks));
  }

  @Test
  void noHintMeansNoPlacementAndAMissingPathFails() throws Exception {
    PlacementReader r = new PlacementReader(conf(), Set.of("input-hint"), "DATALOC_INPUT_PATHS");
    assertNull(r.read(app(Map.of()), "SPARK", null, names));
    assertNull(r.read(app(Map.of("OTHER", "x")), "SPARK", null, names));
    // A missing path is an error the scheduler turns into "no plan" with a warning and a metric.
    assertThrows(java.io.FileNotFoundException.class,
        () -> r.read(app(Map.of("DATALOC_INPUT_PATHS", "file://" + dir.resolve("missing"))), "SPARK", null, names));
  }

  /** A MapReduce AM's local resources: the split meta-info (one split per host list) and job.xml. */
  private ApplicationSubmissionContext mapReduceApp(List<List<String>> splits, String jobXml) throws IOException {
    Path split = dir.resolve("staging/alice/.staging/job_1/job.splitmetainfo");
    Files.createDirectories(split.getParent());
    try (java.io.DataOutputStream out = new java.io.DataOutputStream(Files.newOutputStream(split))) {
      out.write("META-SPL".getBytes(java.nio.charset.StandardCharsets.UTF_8));
      org.apache.hadoop.io.WritableUtils.writeVInt(out, 1);
      org.apache.hadoop.io.WritableUtils.writeVInt(out, splits.size());
      for (List<String> hosts : splits) {
        org.apache.hadoop.io.WritableUtils.writeVInt(out, hosts.size());
        for (String h : hosts) {
          org.apache.hadoop.io.Text.writeString(out, h);
        }
        org.apache.hadoop.io.WritableUtils.writeVLong(out, 0);
        org.apache.hadoop.io.WritableUtils.writeVLong(out, 1 << 20);
      }
    }
    Map<String, org.apache.hadoop.yarn.api.records.LocalResource> resources = new java.util.HashMap<>();
    resources.put(PlacementReader.SPLIT_RESOURCE, resource(split));
    if (jobXml != null) {
      Path conf = split.resolveSibling("job.xml");
      Files.writeString(conf, jobXml);
      resources.put(PlacementReader.JOB_CONF_RESOURCE, resource(conf));
    }
    ApplicationSubmissionContext ctx = app(Map.of());
    ctx.getAMContainerSpec().setLocalResources(resources);
    return ctx;
  }

  private static org.apache.hadoop.yarn.api.records.LocalResource resource(Path file) throws IOException {
    return org.apache.hadoop.yarn.api.records.LocalResource.newInstance(
        org.apache.hadoop.yarn.api.records.URL.fromPath(new org.apache.hadoop.fs.Path(file.toUri())),
        org.apache.hadoop.yarn.api.records.LocalResourceType.FILE,
        org.apache.hadoop.yarn.api.records.LocalResourceVisibility.APPLICATION, Files.size(file), 0);
  }

  @Test
  void aMapReduceJobsMapContainerComesFromItsJobXml() throws Exception {
    PlacementReader r = new PlacementReader(new Configuration(false), Set.of("split-metainfo"), "X");
    List<List<String>> splits = List.of(List.of("h1", "h2"), List.of("h3"));
    String xml = "<configuration><property><name>mapreduce.map.memory.mb</name><value>1536</value></property>"
        + "</configuration>";
    PlacementReader.Placement p = r.read(mapReduceApp(splits, xml), "MAPREDUCE", null, names);
    assertEquals(splits, names.of(p.hosts()));
    assertEquals(org.apache.hadoop.yarn.api.records.Resource.newInstance(1536, 1), p.map());
  }

  @Test
  void anUnreadableJobXmlLeavesTheMapSizeUnknownButThePlacementRead() throws Exception {
    PlacementReader r = new PlacementReader(new Configuration(false), Set.of("split-metainfo"), "X");
    List<List<String>> splits = List.of(List.of("h1"));
    PlacementReader.Placement broken = r.read(mapReduceApp(splits, "<configuration><oops"), "MAPREDUCE", null, names);
    assertEquals(splits, names.of(broken.hosts()));
    assertNull(broken.map());
    assertNull(r.read(mapReduceApp(splits, null), "MAPREDUCE", null, names).map());
  }
}
