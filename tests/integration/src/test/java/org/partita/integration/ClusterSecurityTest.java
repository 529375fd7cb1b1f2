package org.partita.integration;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.client.ClientConfig;
import org.partita.client.ClientResponse;
import org.partita.client.LoginRefusedException;
import org.partita.client.PartitaClient;
import org.partita.client.PartitaClientException;
import org.partita.client.ResultTable;

/**
 * A secured cluster of real {@code partita start --cluster} processes on
 * 127.0.0.1-3 (docs/security.md, "Cluster admission" and "Security on a
 * cluster"): hosts holding the cluster's certificates form it as before,
 * and every host's client port speaks TLS and checks logins and
 * permissions as a single server does; a host whose certificate another
 * authority signed is not admitted (it cannot register, the others refuse
 * its connections with an audit line, and neither side forms a cluster).
 * Certificates come from {@code scripts/cluster-certs}, users from
 * {@code partita passwd}. Every process is stopped by its handle after each
 * test.
 */
@Timeout(300)
class ClusterSecurityTest {
  private static final Path KV_DDL = ServerProcess.ROOT.resolve("bench/kv/ddl.sql");

  @TempDir
  Path dir;

  private Path users;
  private final List<ServerProcess> hosts = new ArrayList<>();
  private final List<PartitaClient> clients = new ArrayList<>();

  @BeforeEach
  void makeCertificatesAndUsers() throws IOException, InterruptedException {
    certificates("cluster", "127.0.0.1", "127.0.0.2", "127.0.0.3");
    certificates("other", "127.0.0.3");
    users = SecurityFixture.users(dir);
  }

  private void certificates(String authority, String... addresses) throws IOException, InterruptedException {
    final List<String> command = new ArrayList<>(List.of(ServerProcess.ROOT.resolve("scripts/cluster-certs").toString(),
        dir.resolve(authority).toString()));
    command.addAll(List.of(addresses));
    final Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      p.destroyForcibly();
      throw new IllegalStateException("scripts/cluster-certs failed: " + out);
    }
  }

  @AfterEach
  void stopEverything() throws InterruptedException {
    clients.forEach(PartitaClient::close);
    for (ServerProcess host : hosts) {
      host.close();
    }
  }

  /**
   * Host {@code hostId} with users, TLS on its client port and the cluster certificates of {@code authority};
   * K = 1, so every write also crosses a replication link, which must be admitted like the metadata links.
   */
  private ServerProcess launch(int hostId, String cluster, String authority, String joinTimeout) throws IOException {
    final String address = "127.0.0." + (hostId + 1);
    final Path certs = dir.resolve(authority);
    final List<String> args = new ArrayList<>(List.of("--schema", KV_DDL.toString(), "--cluster", cluster,
        "--host-id", Integer.toString(hostId), "--bind", address, "--port", "0", "--http-port", "0",
        "--data-dir", dir.resolve("host" + hostId).toString(), "--sites-per-host", "2", "--kfactor", "1", "--join-timeout", joinTimeout,
        "--users", users.toString(),
        "--tls-cert", certs.resolve("host-" + address + ".crt").toString(),
        "--tls-key", certs.resolve("host-" + address + ".key").toString(),
        "--cluster-tls-cert", certs.resolve("host-" + address + ".crt").toString(),
        "--cluster-tls-key", certs.resolve("host-" + address + ".key").toString(),
        "--cluster-ca", certs.resolve("ca.crt").toString()));
    final ServerProcess host = ServerProcess.launch(args, dir.resolve("host" + hostId + ".log"));
    hosts.add(host);
    return host;
  }

  private ClientConfig.Builder as(String user, String password) {
    return SecurityFixture.as(user, password).tls(SecurityFixture.trusting(dir.resolve("cluster/ca.crt")));
  }

  private PartitaClient connect(String address, ClientConfig config) {
    final PartitaClient client = SecurityFixture.connect(address, config);
    clients.add(client);
    return client;
  }

  @Test
  void shouldFormASecuredClusterWhoseHostsCheckLoginsAndPermissions() throws Exception {
    final String cluster = ClusterTest.clusterList(3, ClusterTest.freeClusterPort(3));
    for (int i = 0; i < 3; i++) {
      launch(i, cluster, "cluster", "120s");
    }
    final List<String> addresses = new ArrayList<>();
    for (ServerProcess host : hosts) {
      assertTrue(host.awaitReadyLine(), () -> "a host did not print its ready line:\n" + host.output());
      addresses.add(host.address());
      assertTrue(host.output().contains("cluster admission: mutual TLS"), host.output());
    }

    // The administrator logs in over TLS at host 0 and reaches every host (each verified by its address).
    final PartitaClient admin = connect(addresses.get(0), as("admin", SecurityFixture.ADMIN_PASSWORD).build());
    final long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (admin.connectedServers().size() < 3 && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertEquals(3, admin.connectedServers().size(), admin.connectedServers().toString());
    for (int k = 0; k < 30; k++) {
      assertTrue(admin.call("Put", "key" + k, ("value" + k).getBytes(StandardCharsets.UTF_8)).ok());
    }
    for (int k = 0; k < 30; k++) {
      final ResultTable row = admin.call("Get", "key" + k).results().get(0);
      assertTrue(row.advanceRow());
      assertArrayEquals(("value" + k).getBytes(StandardCharsets.UTF_8), row.getBytes(0), "key" + k);
    }

    // Every host checks permissions: alice (role user) may not run an ungranted procedure or @Statistics.
    for (int i = 0; i < 3; i++) {
      final PartitaClient alice = connect(addresses.get(i), as("alice", SecurityFixture.ALICE_PASSWORD)
          .discoverHosts(false).build());
      final ClientResponse statistics = alice.callAsync("@Statistics", "PROCEDURE").join();
      assertEquals("PERMISSION_DENIED", statistics.errorName(), "host " + i + ": " + statistics);
      assertTrue(statistics.message().contains("ADMIN"), statistics.message());
      final ClientResponse put = alice.callAsync("Put", "k", new byte[] {1}).join();
      assertEquals("PERMISSION_DENIED", put.errorName(), "host " + i + ": " + put);
    }

    // Every host checks logins and requires TLS.
    assertThrows(LoginRefusedException.class,
        () -> connect(addresses.get(2), as("alice", "wrong").discoverHosts(false).build()));
    assertThrows(PartitaClientException.class, () -> connect(addresses.get(1),
        SecurityFixture.as("admin", SecurityFixture.ADMIN_PASSWORD).discoverHosts(false).build()));
    assertTrue(hosts.get(2).output().contains("audit: login refused: user=alice"), hosts.get(2).output());
  }

  @Test
  void shouldNotAdmitAHostWhoseCertificateAnotherAuthoritySigned() throws Exception {
    final String cluster = ClusterTest.clusterList(3, ClusterTest.freeClusterPort(3));
    final ServerProcess first = launch(0, cluster, "cluster", "20s");
    final ServerProcess second = launch(1, cluster, "cluster", "20s");
    final ServerProcess intruder = launch(2, cluster, "other", "20s");

    // The intruder cannot reach a majority of the metadata group, so it never registers.
    ClusterTest.assertFails(intruder, "the cluster is secured: every host needs a certificate");
    // The members refused its connections and never saw it register, so they do not form either.
    ClusterTest.assertFails(first, "the cluster did not form within 20 s");
    ClusterTest.assertFails(second, "the cluster did not form within 20 s");
    final String refused = "audit: host refused: peer=/127.0.0.3";
    assertTrue(first.output().contains(refused) || second.output().contains(refused),
        () -> "no member refused 127.0.0.3:\n" + first.output() + "\n" + second.output());
  }
}
