package io.dataloc.it.replay;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cluster model's placement, links and scaling, and the trace reader and options it is fed by. */
class ClusterModelTest {
  @Test
  void blocksFollowHdfsDefaultPlacementAndOnePathIsOneFile() {
    ClusterModel m = new ClusterModel(120, 3, 5, ClusterModel.Constants.defaults());
    List<List<String>> file = m.blocks("inputPath7", 400);
    for (List<String> reps : file) {
      assertEquals(3, new HashSet<>(reps).size());
      assertNotEquals(m.rackOf(reps.get(0)), m.rackOf(reps.get(1)), "second replica on another rack");
      assertEquals(m.rackOf(reps.get(1)), m.rackOf(reps.get(2)), "third beside the second");
    }
    assertEquals(file.subList(0, 10), m.blocks("inputPath7", 10), "a shorter read of one path reads its first blocks");
    ClusterModel again = new ClusterModel(120, 3, 5, ClusterModel.Constants.defaults());
    again.blocks("other", 50);
    assertEquals(file, again.blocks("inputPath7", 400), "a path's blocks depend on the seed and path only");
    Set<String> firsts = new HashSet<>();
    file.forEach(r -> firsts.add(r.get(0)));
    assertTrue(firsts.size() > 100, "first replicas spread over the cluster: " + firsts.size());
  }

  @Test
  void readsCrossNicsAndUplinksOnlyWhereTheyMust() {
    ClusterModel m = new ClusterModel(80, 2, 1, ClusterModel.Constants.defaults());
    assertArrayEquals(new int[0], m.path("h1", "h1"));
    assertArrayEquals(new int[] {0, 3}, m.path("h1", "h2"));
    int[] across = m.path("h1", "h41");
    assertEquals(4, across.length);
    assertTrue(m.isUplink(across[1]) && m.isUplink(across[2]));
    double[] cap = m.linkCapacities();
    assertEquals(125e6, cap[0]);
    assertEquals(40 * 125e6 / 4, cap[across[1]], 1e-6, "40 hosts x 1 Gbit/s over 4:1");
  }

  @Test
  void bytesScaleWithTheClusterAndMapsAndReducesFollow() {
    ClusterModel m = new ClusterModel(300, 8, 1, ClusterModel.Constants.defaults());
    assertEquals(100, m.scale(1000), "300 of the trace's 3,000 nodes: a tenth");
    assertEquals(1, m.maps(0));
    assertEquals(1, m.maps(128L << 20));
    assertEquals(2, m.maps((128L << 20) + 1));
    assertEquals(0, m.reduces(0));
    assertEquals(1, m.reduces(1));
    assertEquals(999, m.reduces(Long.MAX_VALUE / 2));
  }

  @Test
  void theFloorIsTheLongestLocalMapAndOneReduceOnIdleLinks() {
    ClusterModel m = new ClusterModel(10, 2, 1, ClusterModel.Constants.defaults().withCpuSpread(0));
    long block = 128L << 20;
    // AM 2 s; a map: JVM 1 s, a block read at 100 MB/s and processed at 50 MB/s, its share of
    // 300 MB of output written at 100 MB/s.
    double map = 1 + block / 100e6 + block / 50e6;
    assertEquals(2 + map + 1.0, m.floor("j", 3 * block, 0, 300_000_000, 3, 0), 1e-9);
    // With two reduces: each map spills its share of 500 MB of shuffle; a reduce (JVM 1 s) fetches
    // 250 MB at 125 MB/s, processes it at 50 MB/s and writes 50 MB of the 100 MB output.
    assertEquals(2 + map + 500e6 / 5 / 100e6 + 1 + 2 + 5 + 0.5,
        m.floor("j", 5 * block, 500_000_000, 100_000_000, 5, 2), 1e-9);
  }

  @Test
  void taskCpuFactorsAreOneWithoutSpreadElseSpreadEvenlyAndTheSameForEveryRunOfASeed() {
    ClusterModel.Constants d = ClusterModel.Constants.defaults();
    ClusterModel none = new ClusterModel(10, 2, 1, d.withCpuSpread(0));
    ClusterModel spread = new ClusterModel(10, 2, 1, d.withCpuSpread(0.2));
    ClusterModel again = new ClusterModel(10, 2, 1, d.withCpuSpread(0.2));
    ClusterModel otherSeed = new ClusterModel(10, 2, 2, d.withCpuSpread(0.2));
    int n = 20_000;
    double sum = 0;
    double lo = 2;
    double hi = 0;
    int differ = 0;
    for (int t = 0; t < n; t++) {
      String job = "job" + (t % 100);
      assertEquals(1.0, none.cpuFactor(job, t / 100));
      double f = spread.cpuFactor(job, t / 100);
      assertEquals(f, again.cpuFactor(job, t / 100), "one seed, one job, one task: one factor");
      differ += f != otherSeed.cpuFactor(job, t / 100) ? 1 : 0;
      sum += f;
      lo = Math.min(lo, f);
      hi = Math.max(hi, f);
    }
    assertTrue(lo >= 0.8 && hi <= 1.2, lo + ".." + hi);
    // Uniform on [0.8, 1.2]: 20,000 draws reach within 0.005 of both ends and average 1 within 0.005
    // (standard error 0.0008).
    assertTrue(lo < 0.805 && hi > 1.195, lo + ".." + hi);
    assertEquals(1.0, sum / n, 0.005);
    assertTrue(differ > n * 0.99, "another seed draws other factors: " + differ);
  }

  @Test
  void withSpreadTheFloorTakesTheJobsSlowestMap() {
    ClusterModel.Constants d = ClusterModel.Constants.defaults();
    ClusterModel spread = new ClusterModel(10, 2, 1, d.withCpuSpread(0.3));
    ClusterModel none = new ClusterModel(10, 2, 1, d.withCpuSpread(0));
    long block = 128L << 20;
    double slowest = Math.max(spread.cpuFactor("j", 0), Math.max(spread.cpuFactor("j", 1), spread.cpuFactor("j", 2)));
    // Three full blocks: the floor grows by the slowest map's extra processing, 128 MiB at 50 MB/s.
    assertEquals(none.floor("j", 3 * block, 0, 300_000_000, 3, 0) + block / 50e6 * (slowest - 1),
        spread.floor("j", 3 * block, 0, 300_000_000, 3, 0), 1e-9);
    // A last, partial block only counts if its map is the slowest: 2.5 blocks over 3 maps.
    double partial = Math.max(Math.max(1 + block / 100e6 + block / 50e6 * spread.cpuFactor("k", 0),
        1 + block / 100e6 + block / 50e6 * spread.cpuFactor("k", 1)),
        1 + block / 2 / 100e6 + block / 2 / 50e6 * spread.cpuFactor("k", 2));
    assertEquals(2 + partial + 250_000_000 / 3.0 / 100e6, spread.floor("k", 5 * block / 2, 0, 250_000_000, 3, 0), 1e-9);
  }

  @Test
  void theTraceReaderKeepsTheHoursAskedAndNamesABadLine(@TempDir Path dir) throws Exception {
    Path t = dir.resolve("t.tsv");
    Files.writeString(t, "job0\t10\t10\t100\t0\t5\tinputPath1\t\n"
        + "job1\t3700\t3690\t200\t50\t5\tinputPath1\t\n"
        + "job2\t7300\t3600\t300\t0\t5\t\t\n");
    List<SwimTrace.Job> two = SwimTrace.read(t, 2, 3);
    assertEquals(2, two.size());
    assertEquals(100, two.get(0).submitSeconds(), "relative to the start of hour 2");
    assertEquals("inputPath1", two.get(0).inputPath());
    assertEquals("input-of-job2", two.get(1).inputPath(), "no path: a file of its own");
    Files.writeString(t, "job0\t10\t10\tlots\t0\t5\tp\n");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SwimTrace.read(t, 1, 1));
    assertTrue(e.getMessage().contains("t.tsv:1"), e.getMessage());
  }

  @Test
  void syntheticWorkloadsAreSeededAndZipfMakesHotData() {
    List<SwimTrace.Job> zipf = SyntheticTrace.generate("zipf", 1, 4, 3);
    assertEquals(zipf, SyntheticTrace.generate("zipf", 1, 4, 3));
    assertTrue(zipf.size() > 3600 && zipf.size() < 4400, "about 1,000 jobs an hour: " + zipf.size());
    long top = zipf.stream().filter(j -> j.inputPath().equals("zipf-0")).count();
    assertTrue(Math.abs((double) top / zipf.size() - 1 / 5.187) < 0.03, "the top path's share: " + top);
    List<SwimTrace.Job> uniform = SyntheticTrace.generate("uniform", 2, 2, 3);
    assertEquals(uniform.size(), uniform.stream().map(SwimTrace.Job::inputPath).distinct().count());
    assertTrue(uniform.stream().allMatch(j -> j.submitSeconds() >= 0 && j.submitSeconds() < 3600));
    assertThrows(IllegalArgumentException.class, () -> SyntheticTrace.generate("pareto", 1, 1, 1));
  }

  @Test
  void optionsAreBoundedAndABadOneIsNamed() {
    assertEquals(3, ReplayOptions.parse(new String[] {"--nodes", "120"}).racks(), "one rack per 40 nodes");
    assertTrue(assertThrows(IllegalArgumentException.class, () -> ReplayOptions.parse(new String[] {"--nodez", "1"}))
        .getMessage().contains("--nodez"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> ReplayOptions.parse(new String[] {"--nodes", "9999"}))
        .getMessage().contains("--nodes"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> ReplayOptions.parse(new String[] {"--schedulers", "capacity,yarn"})).getMessage().contains("'yarn'"));
    assertEquals(java.util.Map.of("online-policy", "break-even", "assigner", "flow"),
        ReplayOptions.parse(new String[] {"--dataloc", "online-policy=break-even,assigner=flow"}).dataloc());
    assertTrue(assertThrows(IllegalArgumentException.class, () -> ReplayOptions.parse(new String[] {"--dataloc", "=x"}))
        .getMessage().contains("--dataloc"));
    assertEquals(java.util.Map.of("root.default.ordering-policy", "fair"),
        ReplayOptions.parse(new String[] {"--capacity", "root.default.ordering-policy=fair"}).capacity());
    assertTrue(assertThrows(IllegalArgumentException.class, () -> ReplayOptions.parse(new String[] {"--capacity", "x"}))
        .getMessage().contains("--capacity"));
    assertEquals(java.util.Set.of("job1", "job157"), ReplayOptions.parse(new String[] {"--follow", "job157,job1"}).follow());
    assertTrue(assertThrows(IllegalArgumentException.class, () -> ReplayOptions.parse(new String[] {"--follow", "job 1"}))
        .getMessage().contains("'job 1'"));
    String many = String.join(",", java.util.stream.IntStream.range(0, 101).mapToObj(i -> "job" + i).toList());
    assertTrue(assertThrows(IllegalArgumentException.class, () -> ReplayOptions.parse(new String[] {"--follow", many}))
        .getMessage().contains("at most 100"));
    assertEquals(0.2, ReplayOptions.parse(new String[0]).constants().cpuSpread(), "the model's spread by default");
    assertEquals(0.0, ReplayOptions.parse(new String[] {"--cpu-spread", "0"}).constants().cpuSpread());
    assertEquals(0.2, ReplayOptions.parse(new String[] {"--cpu-spread", "0.2"}).constants().cpuSpread());
    assertTrue(assertThrows(IllegalArgumentException.class, () -> ReplayOptions.parse(new String[] {"--cpu-spread", "1"}))
        .getMessage().contains("--cpu-spread"));
    assertEquals(5, ReplayOptions.parse(new String[0]).constants().shuffleCopies(), "MapReduce's parallel copies");
    assertEquals(5000, ReplayOptions.parse(new String[] {"--shuffle-copies", "5000"}).constants().shuffleCopies());
    assertTrue(assertThrows(IllegalArgumentException.class, () -> ReplayOptions.parse(new String[] {"--shuffle-copies",
        "0"})).getMessage().contains("--shuffle-copies"));
  }
}
