package io.dataloc.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableUtils;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.apache.hadoop.yarn.api.records.LocalResource;
import org.apache.hadoop.yarn.api.records.LocalResourceType;
import org.apache.hadoop.yarn.api.records.LocalResourceVisibility;
import org.apache.hadoop.yarn.api.records.URL;
import org.apache.hadoop.yarn.util.Records;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job's files are the user's: each hostile one is refused or cut at a bound that names its key,
 * before it costs the ResourceManager memory, a file of its own or a connection.
 */
class HostileFilesTest {
  private final HostNames names = new HostNames();
  @TempDir Path dir;

  private static byte[] splitFile(int splits, int[] hostsPerSplit, String host, boolean complete) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.write("META-SPL".getBytes(StandardCharsets.UTF_8));
    WritableUtils.writeVInt(out, 1);
    WritableUtils.writeVInt(out, splits);
    for (int i = 0; complete && i < splits; i++) {
      WritableUtils.writeVInt(out, hostsPerSplit[i]);
      for (int k = 0; k < hostsPerSplit[i]; k++) {
        Text.writeString(out, host);
      }
      WritableUtils.writeVLong(out, 0);
      WritableUtils.writeVLong(out, 1);
    }
    return bytes.toByteArray();
  }

  private static List<List<String>> parse(byte[] file, PlacementBounds b) throws IOException {
    HostNames names = new HostNames();
    return names.of(SplitMetaInfoReader.read(new ByteArrayInputStream(file), file.length, b, names));
  }

  /** A 14-byte file claiming 50 million splits used to allocate ~200 MB; now it is corrupt at once. */
  @Test
  void aTinyFileClaimingMillionsOfSplitsIsRefusedBeforeAllocating() throws Exception {
    byte[] file = splitFile(50_000_000, null, null, false);
    assertTrue(file.length <= 16, "a " + file.length + "-byte file");
    IOException e = assertThrows(IOException.class, () -> parse(file, PlacementBounds.defaults()));
    // 50M > placement.max-splits (200,000): the bound is named.
    assertTrue(e.getMessage().contains("placement.max-splits"), e.getMessage());
    byte[] within = splitFile(150_000, null, null, false);
    IOException e2 = assertThrows(IOException.class, () -> parse(within, PlacementBounds.defaults()));
    assertTrue(e2.getMessage().contains("splits in a file of"), e2.getMessage());
  }

  /** A host name whose length field says 2 GB is refused by its length, not read. */
  @Test
  void aHugeHostNameLengthIsRefusedByItsBound() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.write("META-SPL".getBytes(StandardCharsets.UTF_8));
    WritableUtils.writeVInt(out, 1);
    WritableUtils.writeVInt(out, 1);
    WritableUtils.writeVInt(out, 1);
    WritableUtils.writeVInt(out, Integer.MAX_VALUE);
    byte[] file = bytes.toByteArray();
    PlacementBoundException e = assertThrows(PlacementBoundException.class,
        () -> parse(file, PlacementBounds.defaults()));
    assertEquals(DatalocKeys.MAX_HOST_LENGTH, e.key());
  }

  @Test
  void tenThousandLocationsPerSplitExceedTheHostsBound() throws Exception {
    byte[] file = splitFile(1, new int[] {10_000}, "h1", true);
    PlacementBoundException e = assertThrows(PlacementBoundException.class,
        () -> parse(file, PlacementBounds.defaults()));
    assertEquals(DatalocKeys.MAX_HOSTS_PER_SPLIT, e.key());
    assertTrue(e.getMessage().contains("yarn.scheduler.dataloc.placement.max-hosts-per-split"), e.getMessage());
  }

  @Test
  void truncatedAndNonUtf8FilesAreCorruptNotErrors() throws Exception {
    byte[] whole = splitFile(3, new int[] {2, 2, 2}, "h1", true);
    for (int cut = 8; cut < whole.length; cut++) {
      byte[] part = java.util.Arrays.copyOf(whole, cut);
      assertThrows(IOException.class, () -> parse(part, PlacementBounds.defaults()), "cut at " + cut);
    }
    byte[] bad = splitFile(1, new int[] {1}, "hx", true);
    bad[bad.length - 4] = (byte) 0xff; // inside the host name
    assertThrows(IOException.class, () -> parse(bad, PlacementBounds.defaults()));
  }

  /** The local file system, recording who opens files. */
  public static final class RecordingFileSystem extends org.apache.hadoop.fs.LocalFileSystem {
    static final List<UserGroupInformation> OPENERS = java.util.Collections.synchronizedList(new java.util.ArrayList<>());

    @Override
    public org.apache.hadoop.fs.FSDataInputStream open(org.apache.hadoop.fs.Path f, int bufferSize) throws IOException {
      OPENERS.add(UserGroupInformation.getCurrentUser());
      return super.open(f, bufferSize);
    }
  }

  /**
   * A job submitted under the ResourceManager's own short name is read as that user built from the
   * AM's tokens, not with the RM's own credentials. Before, the read skipped {@code doAs} for it
   * and ran as the RM's login user (on a secure cluster, with the RM's Kerberos ticket).
   */
  @Test
  void aJobOfTheRmsOwnUserNameIsReadAsThatUserNotAsTheRm() throws Exception {
    String me = UserGroupInformation.getCurrentUser().getShortUserName();
    Path d = jobDir(me);
    Path split = d.resolve("job.splitmetainfo");
    Files.write(split, splitFile(2, new int[] {1, 1}, "h1", true));
    Configuration conf = new Configuration(false);
    conf.setClass("fs.file.impl", RecordingFileSystem.class, org.apache.hadoop.fs.FileSystem.class);
    conf.setBoolean("fs.file.impl.disable.cache", true);
    PlacementReader r = new PlacementReader(conf, Set.of("split-metainfo"), "DATALOC_INPUT_PATHS",
        PlacementBounds.defaults(), 5_000);
    RecordingFileSystem.OPENERS.clear();
    assertEquals(2, r.read(app(split, null), "MAPREDUCE", me, names).hosts().tasks());
    assertFalse(RecordingFileSystem.OPENERS.isEmpty(), "the split file was opened");
    for (UserGroupInformation u : RecordingFileSystem.OPENERS) {
      assertEquals(me, u.getShortUserName());
      assertNotEquals(UserGroupInformation.getLoginUser(), u, "opened as the RM's login user");
    }
  }

  // ---- through the reader: paths, sizes, XML

  private ApplicationSubmissionContext app(Path split, Path jobXml) throws IOException {
    Map<String, LocalResource> resources = new HashMap<>();
    resources.put(PlacementReader.SPLIT_RESOURCE, resource(URL.fromPath(new org.apache.hadoop.fs.Path(split.toUri()))));
    if (jobXml != null) {
      resources.put(PlacementReader.JOB_CONF_RESOURCE,
          resource(URL.fromPath(new org.apache.hadoop.fs.Path(jobXml.toUri()))));
    }
    ContainerLaunchContext clc = Records.newRecord(ContainerLaunchContext.class);
    clc.setLocalResources(resources);
    ApplicationSubmissionContext ctx = Records.newRecord(ApplicationSubmissionContext.class);
    ctx.setAMContainerSpec(clc);
    return ctx;
  }

  private static LocalResource resource(URL url) {
    return LocalResource.newInstance(url, LocalResourceType.FILE, LocalResourceVisibility.APPLICATION, 1, 0);
  }

  private Path jobDir(String user) throws IOException {
    Path d = dir.resolve("staging/" + user + "/.staging/job_1");
    Files.createDirectories(d);
    return d;
  }

  private static PlacementReader reader(PlacementBounds b) {
    return new PlacementReader(new Configuration(false), Set.of("split-metainfo", "input-hint"),
        "DATALOC_INPUT_PATHS", b, 5_000);
  }

  private static PlacementBounds bounds(String key, String value) {
    Configuration c = new Configuration(false);
    c.set(DatalocKeys.PREFIX + key, value);
    return DatalocConfiguration.load(c).bounds();
  }

  @Test
  void anOversizedSplitFileIsNotOpened() throws Exception {
    Path split = Files.write(jobDir("alice").resolve("job.splitmetainfo"), splitFile(200, fill(200, 3), "host", true));
    PlacementBoundException e = assertThrows(PlacementBoundException.class,
        () -> reader(bounds("placement.max-file-bytes", "1024")).read(app(split, null), "MAPREDUCE", "alice", names));
    assertEquals(DatalocKeys.MAX_FILE_BYTES, e.key());
  }

  private static int[] fill(int n, int v) {
    int[] a = new int[n];
    java.util.Arrays.fill(a, v);
    return a;
  }

  /** Files outside the submitter's USER/.staging/JOB directory are never opened. */
  @Test
  void filesOutsideTheJobsStagingDirectoryAreRefused() throws Exception {
    Path elsewhere = Files.write(dir.resolve("job.splitmetainfo"), splitFile(1, new int[] {1}, "h1", true));
    PlacementReader r = reader(PlacementBounds.defaults());
    assertThrows(PlacementBoundException.class, () -> r.read(app(elsewhere, null), "MAPREDUCE", "alice", names));
    // Another user's staging directory.
    Path bobs = Files.write(jobDir("bob").resolve("job.splitmetainfo"), splitFile(1, new int[] {1}, "h1", true));
    assertThrows(PlacementBoundException.class, () -> r.read(app(bobs, null), "MAPREDUCE", "alice", names));
    // Under the configured staging root only.
    assertThrows(PlacementBoundException.class, () -> reader(bounds("placement.staging-root", "/nowhere"))
        .read(app(bobs, null), "MAPREDUCE", "bob", names));
    assertEquals(1, reader(bounds("placement.staging-root", dir.resolve("staging").toString()))
        .read(app(bobs, null), "MAPREDUCE", "bob", names).hosts().tasks());
    // job.xml elsewhere than beside the split file (a file the RM could read, say).
    Path secret = Files.writeString(jobDir("carol").resolve("job.xml"), "<configuration/>");
    Path split = Files.write(jobDir("alice").resolve("job.splitmetainfo"), splitFile(1, new int[] {1}, "h1", true));
    assertThrows(PlacementBoundException.class, () -> r.read(app(split, secret), "MAPREDUCE", "alice", names));
  }

  /** An http: URL is not the default file system: refused without a connection. */
  @Test
  void anHttpUrlIsRefusedWithoutConnecting() throws Exception {
    try (java.net.ServerSocket server = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      server.setSoTimeout(300);
      ContainerLaunchContext clc = Records.newRecord(ContainerLaunchContext.class);
      clc.setLocalResources(Map.of(PlacementReader.SPLIT_RESOURCE, resource(URL.newInstance("http", "127.0.0.1",
          server.getLocalPort(), "/alice/.staging/job_1/job.splitmetainfo"))));
      ApplicationSubmissionContext ctx = Records.newRecord(ApplicationSubmissionContext.class);
      ctx.setAMContainerSpec(clc);
      PlacementBoundException e = assertThrows(PlacementBoundException.class,
          () -> reader(PlacementBounds.defaults()).read(ctx, "MAPREDUCE", "alice", names));
      assertTrue(e.getMessage().contains("default file system"), e.getMessage());
      assertThrows(java.net.SocketTimeoutException.class, server::accept, "nothing connected");
    }
  }

  /**
   * Hadoop's Configuration parser follows XInclude: a job.xml including a file would set the map
   * size from it. Ours ignores the include, and refuses a DTD (so every entity) outright.
   */
  @Test
  void jobXmlIncludesAndEntitiesAreNotFollowed() throws Exception {
    Path d = jobDir("alice");
    Path split = Files.write(d.resolve("job.splitmetainfo"), splitFile(1, new int[] {1}, "h1", true));
    Path included = Files.writeString(dir.resolve("rm-local.xml"),
        "<configuration><property><name>mapreduce.map.memory.mb</name><value>4096</value></property></configuration>");
    Path xinclude = Files.writeString(d.resolve("job.xml"), "<configuration xmlns:xi=\"http://www.w3.org/2001/XInclude\">"
        + "<xi:include href=\"" + included.toUri() + "\"/></configuration>");
    PlacementReader r = reader(PlacementBounds.defaults());
    PlacementReader.Placement p = r.read(app(split, xinclude), "MAPREDUCE", "alice", names);
    assertNotEquals(4096, p.map().getMemorySize(), "the included file was not read");
    assertEquals(1024, p.map().getMemorySize());

    Files.writeString(d.resolve("job.xml"), "<?xml version=\"1.0\"?><!DOCTYPE c [<!ENTITY x SYSTEM \""
        + included.toUri() + "\">]><configuration><property><name>mapreduce.map.memory.mb</name><value>&x;</value>"
        + "</property></configuration>");
    assertNull(r.read(app(split, d.resolve("job.xml")), "MAPREDUCE", "alice", names).map(),
        "a DTD makes job.xml unread (the map size is unknown), the placement still read");
    // Billion laughs: refused at the DTD, no expansion.
    Files.writeString(d.resolve("job.xml"), "<?xml version=\"1.0\"?><!DOCTYPE c [<!ENTITY a \"aaaaaaaaaa\">"
        + "<!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\"><!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\">]>"
        + "<configuration><property><name>mapreduce.map.java.opts</name><value>&c;</value></property></configuration>");
    assertNull(r.read(app(split, d.resolve("job.xml")), "MAPREDUCE", "alice", names).map());
  }

  /** An input hint of the root, or a directory that contains itself, stops at the listing bound. */
  @Test
  void anInputHintOfTheRootOrASymlinkLoopStopsAtTheListingBound() throws Exception {
    ContainerLaunchContext clc = Records.newRecord(ContainerLaunchContext.class);
    ApplicationSubmissionContext ctx = Records.newRecord(ApplicationSubmissionContext.class);
    ctx.setAMContainerSpec(clc);
    PlacementReader r = reader(bounds("placement.max-listing", "500"));
    clc.setEnvironment(Map.of("DATALOC_INPUT_PATHS", "file:///"));
    PlacementBoundException e = assertThrows(PlacementBoundException.class, () -> r.read(ctx, "SPARK", null, names));
    assertEquals(DatalocKeys.MAX_LISTING, e.key());
    Path loop = dir.resolve("loop");
    Files.createDirectories(loop);
    Files.writeString(loop.resolve("data"), "x");
    Files.createSymbolicLink(loop.resolve("again"), loop);
    clc.setEnvironment(Map.of("DATALOC_INPUT_PATHS", loop.toUri().toString()));
    try {
      List<List<String>> tasks = names.of(r.read(ctx, "SPARK", null, names).hosts());
      assertTrue(tasks.size() <= 500, "the loop is not followed for ever: " + tasks.size());
    } catch (PlacementBoundException bounded) {
      assertEquals(DatalocKeys.MAX_LISTING, bounded.key());
    } catch (IOException refused) {
      // the local file system may refuse the loop itself (too many levels of symbolic links)
    }
  }
}
