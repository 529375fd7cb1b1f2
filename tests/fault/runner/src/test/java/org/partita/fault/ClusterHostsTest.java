package org.partita.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterHostsTest {
  /** The repository, from this module's directory (tests/fault/runner). */
  private static final Path ROOT = Path.of("../../..").toAbsolutePath().normalize();

  @Test
  void shouldNameHostsAddressesVotersAndTheRunsTable() {
    assertEquals("127.0.0.1", ClusterHosts.hostAddress(0));
    assertEquals("127.0.0.3", ClusterHosts.hostAddress(2));
    assertEquals(1, ClusterHosts.voters(2));
    assertEquals(3, ClusterHosts.voters(5));
    assertTrue(ClusterHosts.tableName().matches("partita_fault_[0-9]+"), ClusterHosts.tableName());
    ClusterHosts.cgroup2Root().ifPresent(root -> assertTrue(root.startsWith(ClusterHosts.CGROUP_FS), root.toString()));
  }

  @Test
  void shouldRefuseACgroupOutsideACgroupV2Hierarchy(@TempDir Path dir) throws Exception {
    final ProcessBuilder builder = new ProcessBuilder(ROOT.resolve("scripts/cluster").toString(), "start", "--hosts",
        "1", "--cgroup", dir.resolve("not-a-cgroup").toString()).redirectErrorStream(true);
    builder.environment().put("PARTITA_CLUSTER_DIR", dir.resolve("cluster").toString());
    final Process p = builder.start();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    final String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(2, p.exitValue(), output);
    assertTrue(output.contains("is not in a cgroup v2 hierarchy"), output);
    assertFalse(output.contains("starting"), output);
  }

  @Test
  void shouldFindTheMetadataLeaderInTheLatestElectionLogged(@TempDir Path dir) throws Exception {
    final String line = " INFO    org.partita.server.cluster.FailureDetection: " + ClusterHosts.LEADS_METADATA
        + "; hosts' silence counts from now\n";
    Files.writeString(dir.resolve("host-0.log"), "2026-11-24 08:55:57.001" + line);
    Files.writeString(dir.resolve("host-1.log"), "2026-11-24 08:55:50.000 INFO    other\n2026-11-24 09:01:02.003"
        + line);
    Files.writeString(dir.resolve("host-2.log"), "2026-11-24 08:59:00.000 INFO    other\n");
    assertEquals(OptionalInt.of(1), ClusterHosts.metadataLeader(dir, List.of(0, 1, 2)));
    // A killed host's log does not count: the survivor with the latest election does.
    assertEquals(OptionalInt.of(0), ClusterHosts.metadataLeader(dir, List.of(0, 2)));
    assertEquals(OptionalInt.empty(), ClusterHosts.metadataLeader(dir, List.of(2)));
    assertEquals(OptionalInt.empty(), ClusterHosts.metadataLeader(dir.resolve("none"), List.of(0)));
  }

  @Test
  void shouldGiveTheHostsAHeartbeatTimeoutLongerThanAnyHeldFault() {
    assertEquals("8s", ClusterHosts.HEARTBEAT_TIMEOUT);
    assertTrue(8_000 > Schedule.FAULT_MAX_MILLIS);
  }
}
