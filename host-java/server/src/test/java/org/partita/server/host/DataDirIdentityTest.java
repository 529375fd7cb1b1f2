package org.partita.server.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.server.cluster.ClusterConfig;

/**
 * {@link DataDirIdentity}: a cluster host's data directory is claimed at
 * its first start and refused, naming both, to another host of the cluster
 * or to a host of another cluster; a damaged identity file is refused too.
 */
class DataDirIdentityTest {
  private static final String THREE = "127.0.0.1:21215,127.0.0.2:21215,127.0.0.3:21215";

  @TempDir
  Path dir;

  private static ClusterConfig host(String cluster, int id, int kFactor) {
    return ClusterConfig.parse(cluster, id, kFactor, 2, "127.0.0." + (id + 1));
  }

  @Test
  void shouldClaimAnEmptyDirectoryAndAcceptTheSameHostAgain() throws Exception {
    final Path data = dir.resolve("host1");
    DataDirIdentity.claim(data, host(THREE, 1, 1));
    assertEquals(DataDirIdentity.text(host(THREE, 1, 1).canonical(), 1),
        Files.readString(data.resolve(DataDirIdentity.FILE), StandardCharsets.UTF_8));
    DataDirIdentity.claim(data, host(THREE, 1, 1));
  }

  @Test
  void shouldRefuseAnotherHostOfTheCluster() throws Exception {
    DataDirIdentity.claim(dir, host(THREE, 1, 1));
    final StartupException e = assertThrows(StartupException.class,
        () -> DataDirIdentity.claim(dir, host(THREE, 0, 1)));
    assertTrue(e.getMessage().startsWith(dir + " belongs to host 1 of this cluster, not to host 0"), e.getMessage());
  }

  @Test
  void shouldRefuseAHostOfAnotherCluster() throws Exception {
    DataDirIdentity.claim(dir, host(THREE, 1, 1));
    final StartupException e = assertThrows(StartupException.class,
        () -> DataDirIdentity.claim(dir, host(THREE, 1, 0)));
    assertTrue(e.getMessage().startsWith(dir + " belongs to host 1 of another cluster (hosts=" + "127.0.0.1:21215,"
        + "127.0.0.2:21215,127.0.0.3:21215 kfactor=1 sites-per-host=2), not to this one"), e.getMessage());
  }

  @Test
  void shouldRefuseADamagedIdentity() throws Exception {
    Files.writeString(dir.resolve(DataDirIdentity.FILE), "partita-cluster-host 1\ncluster x\nhost one\n");
    final StartupException e = assertThrows(StartupException.class,
        () -> DataDirIdentity.claim(dir, host(THREE, 1, 1)));
    assertTrue(e.getMessage().startsWith(dir.resolve(DataDirIdentity.FILE) + " is not a cluster host's identity"),
        e.getMessage());
  }
}
