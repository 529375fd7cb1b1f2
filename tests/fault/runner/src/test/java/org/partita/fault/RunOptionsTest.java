package org.partita.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunOptionsTest {
  private static final Path ROOT = Path.of("/repo");

  private static String error(String... args) {
    return assertThrows(IllegalArgumentException.class, () -> RunOptions.parse(args, ROOT)).getMessage();
  }

  @Test
  void shouldParseEveryOption() {
    final RunOptions o = RunOptions.parse(new String[] {"--workload", "bank", "--nemesis", "kill,pause", "--time",
        "45", "--seed", "9", "--hosts", "1", "--kfactor", "0", "--sites", "3", "--processes", "4"}, ROOT);
    assertEquals("bank", o.workload());
    assertEquals(List.of("kill", "pause"), o.nemeses());
    assertEquals(45, o.seconds());
    assertEquals(9, o.seed());
    assertEquals(3, o.sites());
    assertEquals(4, o.processes());
    assertEquals(ROOT.resolve("tests/fault/workloads/bank.sql"), o.schema());
  }

  @Test
  void shouldNameWhatIsWrong() {
    assertEquals("--workload is required", error("--time", "5"));
    assertTrue(error("--workload", "queue").startsWith("unknown workload 'queue'"));
    assertTrue(error("--workload", "set", "--nemesis", "meteor").startsWith("unknown nemesis 'meteor'"));
    assertEquals("--time 0 is outside 1–3600", error("--workload", "set", "--time", "0"));
    assertEquals("--seed 'x' is not an integer", error("--workload", "set", "--seed", "x"));
    assertEquals("--time needs a value", error("--workload", "set", "--time"));
    assertEquals("unknown option '--speed'", error("--workload", "set", "--speed", "3"));
    assertTrue(error("--workload", "set", "--kfactor", "1").startsWith("--kfactor 1 needs more than 1 hosts"));
  }

  @Test
  void shouldRefuseNetworkNemesesOnOneHostClearly() {
    for (String n : Nemeses.NETWORK) {
      assertTrue(error("--workload", "register", "--nemesis", "kill," + n).contains("needs a cluster of 3 hosts"),
          n);
    }
    assertTrue(error("--workload", "register", "--nemesis", "rejoin").contains("needs a cluster (--hosts 3 or more)"));
  }

  @Test
  void shouldRestartAWholeClusterOnlyWithItsCommandLogs() {
    for (String n : Nemeses.RESTARTING) {
      final String message = error("--workload", "register", "--hosts", "3", "--kfactor", "1", "--nemesis", n,
          "--command-log", "off");
      assertTrue(message.contains("needs --command-log sync or async, not off"), message);
      assertEquals(3, RunOptions.parse(new String[] {"--workload", "register", "--hosts", "3", "--kfactor", "1",
          "--nemesis", n}, ROOT).hosts(), n + " runs on a cluster with the default sync log");
    }
    assertEquals(3, RunOptions.parse(new String[] {"--workload", "set", "--hosts", "3", "--kfactor", "1",
        "--nemesis", "kill,rejoin"}, ROOT).hosts());
    assertTrue(error("--workload", "set", "--hosts", "3", "--nemesis", "rejoin")
        .contains("nemesis 'rejoin' on a cluster needs --kfactor 1 or more, not 0"));
    assertTrue(error("--workload", "register", "--hosts", "2", "--nemesis", "partition").contains("not 2"));
    for (String w : Workloads.NAMES) {
      final RunOptions o = RunOptions.parse(new String[] {"--workload", w, "--hosts", "3", "--kfactor", "1",
          "--nemesis", "kill,pause,partition,partition-leader,flood-minority"}, ROOT);
      assertEquals(3, o.hosts());
    }
  }

  @Test
  void shouldRunAClusterKillOnlyWithASpareCopy() {
    assertTrue(error("--workload", "set", "--hosts", "3", "--nemesis", "kill")
        .contains("with K=0 a killed host's partitions have no other copy"));
    assertEquals(2, RunOptions.parse(new String[] {"--workload", "set", "--hosts", "5", "--kfactor", "2",
        "--nemesis", "kill,rejoin"}, ROOT).kfactor(), "K = 2: survivors repair, killed hosts rejoin");
    assertEquals(3, RunOptions.parse(new String[] {"--workload", "set", "--hosts", "5", "--kfactor", "2"}, ROOT)
        .sites(), "5 hosts x 3 sites = 15 copies, five partitions of three");
    assertEquals(2, RunOptions.parse(new String[] {"--workload", "set", "--hosts", "3", "--kfactor", "1"}, ROOT)
        .sites());
    assertTrue(error("--workload", "set", "--hosts", "5", "--kfactor", "2", "--sites", "2")
        .contains("not a multiple of K+1 = 3"));
    assertEquals(1, Nemeses.killLimit(3));
    assertEquals(Integer.MAX_VALUE, Nemeses.killLimit(1));
    assertEquals(1, Nemeses.killLimit(3, java.util.List.of("kill", "pause")));
    assertEquals(Integer.MAX_VALUE, Nemeses.killLimit(3, java.util.List.of("kill", "rejoin")),
        "every killed host rejoins: kills may strike again");
  }

  @Test
  void shouldIsolateAHostOnlyWhereItCanBeDeclaredDeadAndRejoin() {
    assertTrue(error("--workload", "set", "--hosts", "3", "--nemesis", "isolate")
        .contains("nemesis 'isolate' on a cluster needs --kfactor 1, not 0"));
    assertTrue(error("--workload", "set", "--hosts", "5", "--kfactor", "2", "--nemesis", "isolate")
        .contains("rejoins by itself only with K=1"));
    assertTrue(error("--workload", "set", "--hosts", "3", "--kfactor", "1", "--nemesis", "kill,isolate")
        .contains("nemeses 'isolate' and 'kill' need 'rejoin' too"));
    for (String nemeses : new String[] {"isolate", "kill,rejoin,isolate", "pause,partition,isolate"}) {
      final RunOptions o = RunOptions.parse(new String[] {"--workload", "bank", "--hosts", "3", "--kfactor", "1",
          "--nemesis", nemeses}, ROOT);
      assertTrue(o.nemeses().contains("isolate"), nemeses);
    }
    assertTrue(Schedule.longHold("isolate"), "a cut is held past the workers' call timeout");
  }
}
