package io.dataloc.yarn;

import java.io.File;
import java.nio.ByteBuffer;
import java.security.PrivilegedExceptionAction;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.http.HttpConfig;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.WritableUtils;
import org.apache.hadoop.minikdc.MiniKdc;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.apache.hadoop.yarn.api.records.LocalResource;
import org.apache.hadoop.yarn.api.records.LocalResourceType;
import org.apache.hadoop.yarn.api.records.LocalResourceVisibility;
import org.apache.hadoop.yarn.api.records.URL;
import org.apache.hadoop.yarn.util.Records;

/**
 * Run in a JVM of its own by {@code SecureReadTest} (Kerberos is process-wide): a Kerberos KDC
 * (MiniKdc) and a secure HDFS (MiniDFSCluster: Kerberos, block tokens, SASL data transfer, HTTPS),
 * this process logged in as the HDFS superuser, as a ResourceManager with strong credentials
 * might be. Then the placement reader, as the RM runs it:
 * <ol>
 *   <li>alice's job, with the HDFS delegation token her client gave her AM, is read;
 *   <li>the same job without her token cannot be read (no credentials of alice's in this process);
 *   <li>bob's job naming a split file in his own staging directory that bob may not read (the
 *       superuser could) is refused by HDFS: the read used bob's token, not the process's ticket;
 *   <li>a job under the process's own user name with no token is not read: the process's own
 *       Kerberos ticket is never used for a job's files.
 * </ol>
 * Prints one {@code CHECK name: result} line per case, then {@code SECURE-READ OK}.
 */
public final class SecureReadCheck {
  private SecureReadCheck() {}

  public static void main(String[] args) {
    try {
      run(new File(args[0]));
    } catch (Throwable t) {
      t.printStackTrace(System.out);
      System.exit(1);
    }
    System.exit(0);
  }

  private static void run(File work) throws Exception {
    MiniKdc kdc = new MiniKdc(MiniKdc.createConf(), new File(work, "kdc"));
    kdc.start();
    MiniDFSCluster dfs = null;
    try {
      String realm = kdc.getRealm();
      File keytab = new File(work, "test.keytab");
      kdc.createPrincipal(keytab, "hdfs/localhost", "HTTP/localhost", "alice", "bob");
      Configuration conf = secureConf(realm, keytab);
      UserGroupInformation.setConfiguration(conf);
      UserGroupInformation.loginUserFromKeytab("hdfs/localhost@" + realm, keytab.getAbsolutePath());
      dfs = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
      dfs.waitActive();
      FileSystem superFs = dfs.getFileSystem();
      Path aliceSplit = stage(superFs, "alice", "job_1", (short) 0700, (short) 0600, "alice");
      Path bobSplit = stage(superFs, "bob", "job_2", (short) 0700, (short) 0000, "hdfs");
      ByteBuffer aliceTokens = tokens(conf, "alice@" + realm, keytab);
      ByteBuffer bobTokens = tokens(conf, "bob@" + realm, keytab);
      PlacementReader reader = new PlacementReader(conf, Set.of("split-metainfo"), "DATALOC_INPUT_PATHS",
          PlacementBounds.defaults(), 30_000);
      HostNames names = new HostNames();
      int tasks = reader.read(app(aliceSplit, aliceTokens), "MAPREDUCE", "alice", names).hosts().tasks();
      check("alice's job read with her token", tasks == 3, "tasks " + tasks);
      check("alice's job without her token is not read", fails(() ->
          reader.read(app(aliceSplit, null), "MAPREDUCE", "alice", names)), "");
      check("bob cannot make the RM read a file he may not read", failsWith(() ->
          reader.read(app(bobSplit, bobTokens), "MAPREDUCE", "bob", names), "Permission denied"), "");
      // A job under the ResourceManager's own short name (here hdfs, as yarn on a real cluster) and
      // no tokens: before, it was read with the process's own Kerberos ticket.
      Path ownSplit = stage(superFs, "hdfs", "job_3", (short) 0700, (short) 0600, "hdfs");
      check("a job of the RM's own user name is not read with the RM's ticket", fails(() ->
          reader.read(app(ownSplit, null), "MAPREDUCE", "hdfs", names)), "");
      System.out.println("SECURE-READ OK");
    } finally {
      if (dfs != null) {
        dfs.shutdown();
      }
      kdc.stop();
    }
  }

  private static Configuration secureConf(String realm, File keytab) {
    Configuration conf = new HdfsConfiguration();
    SecurityUtil.setAuthenticationMethod(UserGroupInformation.AuthenticationMethod.KERBEROS, conf);
    String hdfs = "hdfs/localhost@" + realm;
    conf.set(DFSConfigKeys.DFS_NAMENODE_KERBEROS_PRINCIPAL_KEY, hdfs);
    conf.set(DFSConfigKeys.DFS_NAMENODE_KEYTAB_FILE_KEY, keytab.getAbsolutePath());
    conf.set(DFSConfigKeys.DFS_DATANODE_KERBEROS_PRINCIPAL_KEY, hdfs);
    conf.set(DFSConfigKeys.DFS_DATANODE_KEYTAB_FILE_KEY, keytab.getAbsolutePath());
    conf.set(DFSConfigKeys.DFS_WEB_AUTHENTICATION_KERBEROS_PRINCIPAL_KEY, "HTTP/localhost@" + realm);
    conf.setBoolean(DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_ENABLE_KEY, true);
    // A secure DataNode without privileged ports, SASL data transfer or HTTPS: what is tested is
    // who the NameNode lets open a file, not how blocks travel.
    conf.setBoolean(DFSConfigKeys.IGNORE_SECURE_PORTS_FOR_TESTING_KEY, true);
    conf.set(DFSConfigKeys.DFS_HTTP_POLICY_KEY, HttpConfig.Policy.HTTP_ONLY.name());
    conf.setBoolean(DFSConfigKeys.DFS_NAMENODE_DELEGATION_TOKEN_ALWAYS_USE_KEY, true);
    conf.set("hadoop.security.auth_to_local", "RULE:[1:$1] RULE:[2:$1] DEFAULT");
    return conf;
  }

  /** USER/.staging/JOB/job.splitmetainfo of three splits, the directory and the file with these modes and owner. */
  private static Path stage(FileSystem fs, String user, String job, short dirMode, short fileMode, String fileOwner)
      throws Exception {
    Path dir = new Path("/user/" + user + "/.staging/" + job);
    fs.mkdirs(dir);
    for (Path p = dir; p.depth() >= 2; p = p.getParent()) {
      fs.setOwner(p, user, "users");
    }
    Path split = new Path(dir, "job.splitmetainfo");
    try (FSDataOutputStream out = fs.create(split)) {
      out.write("META-SPL".getBytes(java.nio.charset.StandardCharsets.UTF_8));
      WritableUtils.writeVInt(out, 1);
      WritableUtils.writeVInt(out, 3);
      for (int i = 0; i < 3; i++) {
        WritableUtils.writeVInt(out, 1);
        org.apache.hadoop.io.Text.writeString(out, "localhost");
        WritableUtils.writeVLong(out, 0);
        WritableUtils.writeVLong(out, 1);
      }
    }
    fs.setOwner(split, fileOwner, "users");
    fs.setPermission(split, new FsPermission(fileMode));
    fs.setPermission(dir, new FsPermission(dirMode));
    return fs.makeQualified(split);
  }

  /** The HDFS delegation tokens {@code principal}'s client would give its AM, serialised as YARN carries them. */
  private static ByteBuffer tokens(Configuration conf, String principal, File keytab) throws Exception {
    UserGroupInformation ugi = UserGroupInformation.loginUserFromKeytabAndReturnUGI(principal,
        keytab.getAbsolutePath());
    Credentials creds = new Credentials();
    ugi.doAs((PrivilegedExceptionAction<Object>) () -> {
      try (FileSystem fs = FileSystem.newInstance(conf)) {
        fs.addDelegationTokens("yarn", creds);
      }
      return null;
    });
    DataOutputBuffer out = new DataOutputBuffer();
    creds.writeTokenStorageToStream(out);
    return ByteBuffer.wrap(out.getData(), 0, out.getLength());
  }

  private static ApplicationSubmissionContext app(Path split, ByteBuffer tokens) {
    Map<String, LocalResource> resources = new HashMap<>();
    resources.put(PlacementReader.SPLIT_RESOURCE, LocalResource.newInstance(URL.fromPath(split),
        LocalResourceType.FILE, LocalResourceVisibility.APPLICATION, 1, 0));
    ContainerLaunchContext clc = Records.newRecord(ContainerLaunchContext.class);
    clc.setLocalResources(resources);
    if (tokens != null) {
      clc.setTokens(tokens.duplicate());
    }
    ApplicationSubmissionContext ctx = Records.newRecord(ApplicationSubmissionContext.class);
    ctx.setAMContainerSpec(clc);
    return ctx;
  }

  private interface Call {
    void run() throws Exception;
  }

  private static boolean fails(Call c) {
    try {
      c.run();
      return false;
    } catch (Exception e) {
      System.out.println("  (refused: " + e.toString().lines().findFirst().orElse("") + ")");
      return true;
    }
  }

  private static boolean failsWith(Call c, String text) {
    try {
      c.run();
      return false;
    } catch (Exception e) {
      StringBuilder sb = new StringBuilder();
      for (Throwable t = e; t != null; t = t.getCause()) {
        sb.append(t).append(' ');
      }
      System.out.println("  (refused: " + sb.toString().lines().findFirst().orElse("") + ")");
      return sb.toString().contains(text);
    }
  }

  private static void check(String name, boolean ok, String detail) {
    System.out.println("CHECK " + name + ": " + (ok ? "ok" : "FAILED " + detail));
    if (!ok) {
      throw new AssertionError(name + " " + detail);
    }
  }
}
