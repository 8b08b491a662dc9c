package io.dataloc.yarn;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.io.InputStream;
import java.security.PrivilegedExceptionAction;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.ToIntFunction;
import io.dataloc.core.model.TaskHosts;
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
 *
 * <p>Everything here is the user's and is believed only within bounds ({@link
 * PlacementBounds}): job files are opened only on the default file system, only under
 * a {@code USER/.staging/JOB} directory of the submitting user (and under
 * {@code placement.staging-root} when it is set), and {@code job.xml} only beside the split file;
 * a file's size is checked before it is opened and its stream is cut at the bound; counts and
 * lengths inside it are checked before they size anything; a listing stops at its bound. Every
 * RPC and socket read of the file system client has the read timeout. A violation is a
 * {@link PlacementBoundException} naming the bound, and the job is served from its asks.
 */
final class PlacementReader {
  private static final Logger LOG = LoggerFactory.getLogger(PlacementReader.class);
  static final String SPLIT_RESOURCE = "jobSubmitDir/job.splitmetainfo";
  static final String JOB_CONF_RESOURCE = "job.xml";

  /**
   * What was read, and from where: each map task's hosts as node ids ({@code hosts}); {@code map}
   * is the container each map will take, when the job's configuration said (else null).
   */
  static final class Placement {
    private final TaskHosts hosts;
    private final String source;
    private final boolean amOrder;
    private final Resource map;

    Placement(TaskHosts hosts, String source, boolean amOrder, Resource map) {
      this.hosts = hosts;
      this.source = source;
      this.amOrder = amOrder;
      this.map = map;
    }

    public TaskHosts hosts() {
      return hosts;
    }

    public String source() {
      return source;
    }

    public boolean amOrder() {
      return amOrder;
    }

    public Resource map() {
      return map;
    }

    /** The heap it holds, in bytes (an estimate). */
    long bytes() {
      return 64 + hosts.bytes();
    }

    @Override
    public boolean equals(Object o) {
      if (o == this) {
        return true;
      }
      if (!(o instanceof Placement)) {
        return false;
      }
      Placement that = (Placement) o;
      return Objects.equals(hosts, that.hosts)
          && Objects.equals(source, that.source)
          && amOrder == that.amOrder
          && Objects.equals(map, that.map);
    }

    @Override
    public int hashCode() {
      return Objects.hash(hosts, source, amOrder, map);
    }

    @Override
    public String toString() {
      return "Placement[hosts=" + hosts
          + ", source=" + source
          + ", amOrder=" + amOrder
          + ", map=" + map + "]";
    }
  }

  private final Configuration conf;
  private final Set<String> sources;
  private final String hintEnv;
  private final PlacementBounds bounds;

  /** With the default bounds and read timeout (tests). */
  PlacementReader(Configuration conf, Set<String> sources, String hintEnv) {
    this(conf, sources, hintEnv, PlacementBounds.defaults(), 10_000);
  }

  PlacementReader(Configuration conf, Set<String> sources, String hintEnv, PlacementBounds bounds,
      long readTimeoutMs) {
    this.conf = withTimeouts(conf, readTimeoutMs);
    this.sources = sources;
    this.hintEnv = hintEnv;
    this.bounds = bounds;
  }

  /** A copy of the RM's configuration whose file system clients give up within the read timeout. */
  private static Configuration withTimeouts(Configuration rm, long timeoutMs) {
    Configuration c = new Configuration(rm);
    int t = (int) Math.min(Integer.MAX_VALUE, timeoutMs);
    c.setInt("ipc.client.rpc-timeout.ms", t);
    c.setInt("ipc.client.connect.timeout", Math.min(t, 20_000));
    c.setInt("ipc.client.connect.max.retries.on.timeouts", 1);
    c.setInt("dfs.client.socket-timeout", t);
    return c;
  }

  /**
   * Reads the placement of an application, or returns null if no configured source applies.
   *
   * @param hostId a node's id by its name, or a negative number for a name no node has (thread-safe)
   * @throws PlacementBoundException a bound exceeded or a path refused, named in the message
   * @throws Exception any other failure (unreachable HDFS, permission denied, missing or corrupt
   *     file, interrupted at the read timeout)
   */
  Placement read(ApplicationSubmissionContext ctx, String applicationType, String user, ToIntFunction<String> hostId)
      throws Exception {
    ContainerLaunchContext am = ctx.getAMContainerSpec();
    if (sources.contains("split-metainfo") && AppLifecycle.MAPREDUCE.equalsIgnoreCase(applicationType) && am != null) {
      Map<String, LocalResource> resources = am.getLocalResources();
      LocalResource split = resources == null ? null : resources.get(SPLIT_RESOURCE);
      if (split != null) {
        Path path = jobFile(split, "job.splitmetainfo", user);
        LocalResource jobXml = resources.get(JOB_CONF_RESOURCE);
        Path confPath = jobXml == null ? null : jobFile(jobXml, "job.xml", user);
        if (confPath != null && !confPath.getParent().equals(path.getParent())) {
          throw new PlacementBoundException("job.xml " + confPath + " is not beside " + path + " (refused)");
        }
        return asUser(user, am, () -> new Placement(readSplitMetaInfo(path, hostId), "split-metainfo", true,
            readMapSize(confPath)));
      }
    }
    if (sources.contains("input-hint") && am != null && am.getEnvironment() != null) {
      String hint = am.getEnvironment().get(hintEnv);
      if (hint != null && !hint.isBlank()) {
        return new Placement(asUser(user, am, () -> readInputPaths(hint, hostId)), "input-hint", false, null);
      }
    }
    return null;
  }

  /**
   * The path of a job file the AM names, if the job may make the ResourceManager read it: on the
   * default file system, named {@code name}, in a directory {@code USER/.staging/JOB} (under the
   * staging root, if one is configured).
   */
  private Path jobFile(LocalResource resource, String name, String user) throws IOException {
    Path p;
    try {
      p = resource.getResource().toPath();
    } catch (java.net.URISyntaxException | RuntimeException e) {
      throw new PlacementBoundException("the local resource " + name + " has no valid URL (refused)");
    }
    p = onDefaultFileSystem(p, name);
    Path jobDir = p.getParent();
    Path stagingDir = jobDir == null ? null : jobDir.getParent();
    Path userDir = stagingDir == null ? null : stagingDir.getParent();
    boolean shaped = p.getName().equals(name) && userDir != null && stagingDir.getName().equals(".staging")
        && (user == null || userDir.getName().equals(user));
    if (!shaped) {
      throw new PlacementBoundException(name + " " + p + " is not in a " + (user == null ? "USER" : user)
          + "/.staging/JOB directory (refused)");
    }
    if (!bounds.stagingRoot().isEmpty()
        && !Path.getPathWithoutSchemeAndAuthority(userDir.getParent()).equals(new Path(bounds.stagingRoot()))) {
      throw new PlacementBoundException(name + " " + p + " is not under "
          + DatalocKeys.STAGING_ROOT.fullName() + " = " + bounds.stagingRoot() + " (refused)");
    }
    return p;
  }

  /** The path, qualified, if it is on the default file system; refused otherwise. */
  private Path onDefaultFileSystem(Path p, String what) throws IOException {
    java.net.URI fs = FileSystem.getDefaultUri(conf);
    java.net.URI u = p.toUri();
    String raw = u.getPath();
    if (raw == null || !raw.startsWith("/") || raw.contains("/../") || raw.endsWith("/..")) {
      throw new PlacementBoundException(what + " " + p + " is not an absolute, normal path (refused)");
    }
    boolean same = (u.getScheme() == null || u.getScheme().equalsIgnoreCase(fs.getScheme()))
        && (u.getAuthority() == null || u.getAuthority().isEmpty()
            || u.getAuthority().equalsIgnoreCase(fs.getAuthority()));
    if (!same) {
      throw new PlacementBoundException(what + " " + p + " is not on the default file system " + fs + " (refused)");
    }
    return new Path(fs.getScheme(), fs.getAuthority(), raw);
  }

  /**
   * Runs as the submitting user (the staging directory is 0700), carrying the delegation tokens
   * the client gave the AM, as the RM itself does for log aggregation — also when the user has
   * the ResourceManager's own short name (often {@code yarn}): the read never uses the RM's
   * Kerberos ticket, only what the job's tokens allow. (Verified with simple authentication; on
   * Kerberos clusters this relies on those tokens.) With no user (tools and tests) it runs as the
   * caller.
   */
  private <T> T asUser(String user, ContainerLaunchContext am, PrivilegedExceptionAction<T> action) throws Exception {
    if (user == null) {
      return action.run();
    }
    UserGroupInformation ugi = UserGroupInformation.createRemoteUser(user);
    if (am.getTokens() != null) {
      Credentials credentials = new Credentials();
      ByteBuffer tokens = am.getTokens().duplicate();
      if (tokens.remaining() > bounds.maxJobConfBytes()) {
        throw new PlacementBoundException(DatalocKeys.MAX_JOB_CONF_BYTES, bounds.maxJobConfBytes(),
            "the AM's tokens (" + tokens.remaining() + " bytes)");
      }
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

  /** Opens a job file whose size is within {@code limit}, cut at the limit whatever it says. */
  private InputStream openBounded(FileSystem fs, Path path, DatalocKeys.Key key, long limit)
      throws IOException {
    long length = fs.getFileStatus(path).getLen();
    if (length > limit) {
      throw new PlacementBoundException(key, limit, path.getName() + " (" + length + " bytes)");
    }
    return new BoundedInputStream(fs.open(path), key, limit);
  }

  private TaskHosts readSplitMetaInfo(Path path, ToIntFunction<String> hostId) throws IOException {
    FileSystem fs = path.getFileSystem(conf);
    long length = fs.getFileStatus(path).getLen();
    try (InputStream in = openBounded(fs, path, DatalocKeys.MAX_FILE_BYTES, bounds.maxFileBytes())) {
      return SplitMetaInfoReader.read(new java.io.BufferedInputStream(in), length, bounds, hostId);
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
      try (InputStream in = openBounded(fs, jobXml, DatalocKeys.MAX_JOB_CONF_BYTES,
          bounds.maxJobConfBytes())) {
        return MapContainerSize.of(JobConfReader.read(new java.io.BufferedInputStream(in), MapContainerSize.KEYS));
      }
    } catch (IOException | RuntimeException e) {
      LOG.warn("Dataloc: cannot read the map container size from {} ({}); planning with the minimum allocation",
          jobXml, e.toString());
      return null;
    }
  }

  private TaskHosts readInputPaths(String hint, ToIntFunction<String> hostId) throws IOException {
    if (hint.length() > 65_536) {
      throw new PlacementBoundException("the input hint is longer than 65536 characters (refused)");
    }
    TaskHosts.Builder tasks = new TaskHosts.Builder(1024);
    long listed = 0;
    for (String p : hint.split(",")) {
      if (p.isBlank()) {
        continue;
      }
      Path path = onDefaultFileSystem(new Path(p.trim()), "input path");
      FileSystem fs = path.getFileSystem(conf);
      RemoteIterator<LocatedFileStatus> it = fs.listFiles(path, true);
      while (it.hasNext()) {
        if (++listed > bounds.maxListing()) {
          throw new PlacementBoundException(DatalocKeys.MAX_LISTING, bounds.maxListing(),
              "the input hint's listing");
        }
        if (Thread.currentThread().isInterrupted()) {
          throw new java.io.InterruptedIOException("listing " + path + " took longer than the read timeout");
        }
        LocatedFileStatus f = it.next();
        for (BlockLocation b : f.getBlockLocations()) {
          if (tasks.tasks() >= bounds.maxSplits()) {
            throw new PlacementBoundException(DatalocKeys.MAX_SPLITS, bounds.maxSplits(),
                "the input hint's block count");
          }
          String[] hosts = b.getHosts();
          if (hosts.length > bounds.maxHostsPerSplit()) {
            throw new PlacementBoundException(DatalocKeys.MAX_HOSTS_PER_SPLIT, bounds.maxHostsPerSplit(),
                "a block of " + f.getPath() + " with " + hosts.length + " hosts");
          }
          tasks.startTask();
          for (String h : hosts) {
            if (h.length() > bounds.maxHostLength()) {
              throw new PlacementBoundException(DatalocKeys.MAX_HOST_LENGTH, bounds.maxHostLength(),
                  "a host name of a block of " + f.getPath());
            }
            tasks.add(hostId.applyAsInt(h));
          }
        }
      }
    }
    return tasks.build();
  }
}
