package io.dataloc.yarn;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.io.InputStream;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.apache.hadoop.yarn.api.records.LocalResource;
import org.apache.hadoop.yarn.api.records.Resource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a job's map tasks' input blocks live, read from HDFS as the submitting user, never on the
 * dispatcher thread:
 * <ol>
 *   <li>{@code split-metainfo}: for MapReduce jobs, {@code job.splitmetainfo} from the staging
 *       directory (the AM's local resource {@code jobSubmitDir/job.splitmetainfo}) — exactly the AM's
 *       per-task host lists, in task order;
 *   <li>{@code input-hint}: for any application, comma-separated input paths in the AM environment
 *       variable named by {@code placement.hint-env}; every block of every file under them (one
 *       located listing per path) becomes a task;
 *   <li>{@code asks}: nothing is read; the application's own host-level requests are used (done by
 *       the scheduler, not here).
 * </ol>
 */
final class PlacementReader {
  private static final Logger LOG = LoggerFactory.getLogger(PlacementReader.class);
  static final String SPLIT_RESOURCE = "jobSubmitDir/job.splitmetainfo";
  static final String JOB_CONF_RESOURCE = "job.xml";

  /**
   * What was read, and from where; {@code map} is the container each map will take, when the job's
   * configuration said (else null).
   */
  record Placement(List<List<String>> hostsPerTask, String source, boolean amOrder, Resource map) {}

  private final Configuration conf;
  private final Set<String> sources;
  private final String hintEnv;

  PlacementReader(Configuration conf, Set<String> sources, String hintEnv) {
    this.conf = conf;
    this.sources = sources;
    this.hintEnv = hintEnv;
  }

  /**
   * Reads the placement of an application, or returns null if no configured source applies.
   *
   * @throws Exception any failure (unreachable HDFS, permission denied, missing or corrupt file)
   */
  Placement read(ApplicationSubmissionContext ctx, String applicationType, String user) throws Exception {
    ContainerLaunchContext am = ctx.getAMContainerSpec();
    if (sources.contains("split-metainfo") && "MAPREDUCE".equalsIgnoreCase(applicationType) && am != null) {
      Map<String, LocalResource> resources = am.getLocalResources();
      LocalResource split = resources == null ? null : resources.get(SPLIT_RESOURCE);
      if (split != null) {
        Path path = split.getResource().toPath();
        LocalResource jobXml = resources.get(JOB_CONF_RESOURCE);
        Path confPath = jobXml == null ? null : jobXml.getResource().toPath();
        return asUser(user, am, () -> new Placement(readSplitMetaInfo(path), "split-metainfo", true, readMapSize(confPath)));
      }
    }
    if (sources.contains("input-hint") && am != null && am.getEnvironment() != null) {
      String hint = am.getEnvironment().get(hintEnv);
      if (hint != null && !hint.isBlank()) {
        return new Placement(asUser(user, am, () -> readInputPaths(hint)), "input-hint", false, null);
      }
    }
    return null;
  }

  /**
   * Runs as the submitting user (the staging directory is 0700), carrying the delegation tokens
   * the client gave the AM, as the RM itself does for log aggregation. (Verified with simple
   * authentication; on Kerberos clusters this relies on those tokens.)
   */
  private <T> T asUser(String user, ContainerLaunchContext am, PrivilegedExceptionAction<T> action) throws Exception {
    UserGroupInformation current = UserGroupInformation.getCurrentUser();
    if (user == null || user.equals(current.getShortUserName())) {
      return action.run();
    }
    UserGroupInformation ugi = UserGroupInformation.createRemoteUser(user);
    if (am.getTokens() != null) {
      Credentials credentials = new Credentials();
      ByteBuffer tokens = am.getTokens().duplicate();
      byte[] bytes = new byte[tokens.remaining()];
      tokens.get(bytes);
      credentials.readTokenStorageStream(new DataInputStream(new ByteArrayInputStream(bytes)));
      ugi.addCredentials(credentials);
    }
    try {
      return ugi.doAs(action);
    } finally {
      // FileSystem's cache keys on the UGI: without this every job read would leave a client behind.
      FileSystem.closeAllForUGI(ugi);
    }
  }

  private List<List<String>> readSplitMetaInfo(Path path) throws IOException {
    FileSystem fs = path.getFileSystem(conf);
    try (InputStream in = fs.open(path)) {
      return SplitMetaInfoReader.read(in);
    }
  }

  /**
   * The map container from the job's configuration, or null if there is none or it cannot be read
   * (the plan then counts slots of the minimum allocation; the job still runs).
   */
  private Resource readMapSize(Path jobXml) {
    if (jobXml == null) {
      return null;
    }
    try {
      FileSystem fs = jobXml.getFileSystem(conf);
      Configuration job = new Configuration(false);
      try (InputStream in = fs.open(jobXml)) {
        job.addResource(in, jobXml.toString());
        return MapContainerSize.of(job);
      }
    } catch (IOException | RuntimeException e) {
      LOG.warn("Dataloc: cannot read the map container size from {} ({}); planning with the minimum allocation",
          jobXml, e.toString());
      return null;
    }
  }

  private List<List<String>> readInputPaths(String hint) throws IOException {
    List<List<String>> tasks = new ArrayList<>();
    for (String p : hint.split(",")) {
      if (p.isBlank()) {
        continue;
      }
      Path path = new Path(p.trim());
      FileSystem fs = path.getFileSystem(conf);
      RemoteIterator<LocatedFileStatus> it = fs.listFiles(path, true);
      while (it.hasNext()) {
        LocatedFileStatus f = it.next();
        for (BlockLocation b : f.getBlockLocations()) {
          tasks.add(List.of(b.getHosts()));
        }
      }
    }
    return tasks;
  }
}
