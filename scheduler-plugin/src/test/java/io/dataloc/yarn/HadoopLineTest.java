package io.dataloc.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.hadoop.util.VersionInfo;
import org.apache.hadoop.yarn.exceptions.YarnRuntimeException;
import org.junit.jupiter.api.Test;

/**
 * The jar knows its Hadoop line, runs on that line's releases, and refuses another line naming the
 * jar to use.
 */
class HadoopLineTest {
  @Test
  void theJarIsBuiltForTheLineOfTheHadoopItIsCompiledAgainst() {
    assertEquals(HadoopLine.lineOf(VersionInfo.getVersion()), HadoopLine.line(), "the build's line");
    assertEquals(VersionInfo.getVersion(), HadoopLine.builtAgainst());
    assertTrue(HadoopLine.jar().endsWith("-hadoop-" + HadoopLine.line() + ".jar"), HadoopLine.jar());
    assertTrue(HadoopLine.requireRunning().contains("for Hadoop " + HadoopLine.line()));
  }

  @Test
  void anyReleaseOfTheLineIsAcceptedAndAnotherLineIsRefusedNamingTheRightJar() {
    String line = HadoopLine.line();
    HadoopLine.require(line + ".0");
    HadoopLine.require(line + ".9-SNAPSHOT");
    String other = line.equals("3.4") ? "3.5.0" : "3.4.1";
    YarnRuntimeException e = assertThrows(YarnRuntimeException.class, () -> HadoopLine.require(other));
    String otherLine = HadoopLine.lineOf(other);
    assertTrue(e.getMessage().contains("built for Hadoop " + line), e.getMessage());
    assertTrue(e.getMessage().contains("-hadoop-" + otherLine + ".jar"), e.getMessage());
    assertTrue(e.getMessage().contains("-Phadoop-" + otherLine), e.getMessage());
    assertEquals("3.3", HadoopLine.lineOf("3.3.6"));
    assertTrue(HadoopLine.require("Unknown").contains("not checked"), "an unknown version starts, saying so");
    assertEquals("unknown", HadoopLine.lineOf(null));
  }
}
