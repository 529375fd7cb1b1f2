package org.partita.integration;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.client.ClientConfig;
import org.partita.client.ClientResponse;
import org.partita.client.ClusterTopology;
import org.partita.client.PartitaClient;
import org.partita.client.ResultTable;
import org.partita.proto.ErrorCode;

/**
 * Real {@code partita start --cluster} processes, host i bound on
 * 127.0.0.(i+1) (docs/cluster.md, milestones 2 and 3): three hosts form a K = 0
 * cluster and each prints its ready line; calls are served by the host
 * leading their partition and answered NOT_LEADER elsewhere; work that needs
 * every partition is answered on any host (through the coordinator's); bad configurations end the process
 * with a clear error; with K = 1 every acknowledged write is on both copies
 * of its partition. Every process is stopped by its handle after each test.
 */
@Timeout(300)
class ClusterTest {
  private static final Path KV_DDL = ServerProcess.ROOT.resolve("bench/kv/ddl.sql");
  /** The lowest internal port a test cluster is given. */
  private static final int LOWEST_CLUSTER_PORT = 10_000;
  private static final Random RANDOM_PORTS = new Random();

  @TempDir
  Path dir;

  private final List<ServerProcess> hosts = new ArrayList<>();
  private final List<PartitaClient> clients = new ArrayList<>();

  @AfterEach
  void stopEverything() throws InterruptedException {
    clients.forEach(PartitaClient::close);
    for (ServerProcess host : hosts) {
      host.close();
    }
  }

  /**
   * Internal port P (and metadata port P+1) free on 127.0.0.1..n, drawn
   * below the kernel's ephemeral range: a port inside it, found free, could
   * be given to any process's next outgoing connection before the host
   * binds it.
   */
  static int freeClusterPort(int n) throws IOException {
    final int high = ephemeralLow() - 2;
    for (int attempt = 0; attempt < 200; attempt++) {
      final int port = LOWEST_CLUSTER_PORT + RANDOM_PORTS.nextInt(high - LOWEST_CLUSTER_PORT);
      if (allFree(n, port) && allFree(n, port + 1)) {
        return port;
      }
    }
    throw new IOException("no port P with P and P+1 free on 127.0.0.1.." + n + " in [" + LOWEST_CLUSTER_PORT + ", "
        + high + ")");
  }

  /** The lowest port of the kernel's ephemeral range (32768 when unreadable or too low to leave room below). */
  private static int ephemeralLow() {
    try {
      final int low = Integer.parseInt(Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).trim()
          .split("\\s+")[0]);
      return low >= LOWEST_CLUSTER_PORT + 2_000 ? low : 32_768;
    } catch (IOException | NumberFormatException e) {
      return 32_768;
    }
  }

  private static boolean allFree(int n, int port) {
    for (int i = 1; i <= n; i++) {
      try (ServerSocket probe = new ServerSocket()) {
        probe.bind(new InetSocketAddress(InetAddress.getByName("127.0.0." + i), port));
      } catch (IOException e) {
        return false;
      }
    }
    return true;
  }

  static String clusterList(int n, int port) {
    final List<String> entries = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      entries.add("127.0.0." + i + ":" + port);
    }
    return String.join(",", entries);
  }

  private ServerProcess launch(int hostId, String cluster, Path schema, String... extra) throws IOException {
    final List<String> args = new ArrayList<>(List.of("--schema", schema.toString(), "--cluster", cluster,
        "--host-id", Integer.toString(hostId), "--bind", "127.0.0." + (hostId + 1), "--port", "0",
        "--http-port", "0", "--data-dir", dir.resolve("host" + hostId).toString()));
    args.addAll(List.of(extra));
    final ServerProcess host = ServerProcess.launch(args, dir.resolve("host" + hostId + ".log"));
    hosts.add(host);
    return host;
  }

  private PartitaClient client(String... addresses) {
    return client(true, addresses);
  }

  private PartitaClient client(boolean discoverHosts, String... addresses) {
    final PartitaClient client = new PartitaClient(ClientConfig.builder().clientName("cluster-test")
        .callTimeout(Duration.ofSeconds(30)).discoverHosts(discoverHosts).build());
    clients.add(client);
    for (String address : addresses) {
      client.connect(address);
    }
    return client;
  }

  @Test
  void shouldFormAThreeHostClusterThatServesEachCallOnItsLeader() throws Exception {
    final String cluster = clusterList(3, freeClusterPort(3));
    for (int i = 0; i < 3; i++) {
      launch(i, cluster, KV_DDL, "--sites-per-host", "2", "--join-timeout", "120s");
    }
    final List<String> addresses = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      final ServerProcess host = hosts.get(i);
      assertTrue(host.awaitReadyLine(), () -> "host " + hosts.indexOf(host) + " did not print its ready line:\n"
          + host.output());
      assertTrue(host.address().startsWith("127.0.0." + (i + 1) + ":"),
          "host " + i + " serves clients on its own address, not " + host.address());
      assertTrue(host.output().contains("cluster host " + i + " of 3, every host serving"), host.output());
      addresses.add(host.address());
    }

    // A client of every host routes each call to its partition's leader.
    final PartitaClient all = client(addresses.toArray(new String[0]));
    final ClusterTopology topology = all.topology();
    assertEquals(6, topology.partitionCount());
    assertEquals(List.of(0, 1, 2, 0, 1, 2), topology.partitionLeaders());
    assertEquals(3, topology.hosts().size(), topology.hosts().toString());
    for (int k = 0; k < 60; k++) {
      assertTrue(all.call("Put", "key" + k, ("value" + k).getBytes(StandardCharsets.UTF_8)).ok());
    }
    for (int k = 0; k < 60; k++) {
      assertArrayEquals(("value" + k).getBytes(StandardCharsets.UTF_8),
          value(all.call("Get", "key" + k)), "key" + k);
    }

    // One address is enough: the client connects to the other hosts the login listed, then routes to leaders.
    final PartitaClient discovering = client(addresses.get(0));
    final long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (discovering.connectedServers().size() < 3 && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertEquals(3, discovering.connectedServers().size(), discovering.connectedServers().toString());
    for (int k = 0; k < 60; k++) {
      assertArrayEquals(("value" + k).getBytes(StandardCharsets.UTF_8), value(discovering.call("Get", "key" + k)));
    }

    // Each host alone: it serves its own partitions' keys and answers NOT_LEADER for the others'.
    int served = 0;
    int notLeader = 0;
    for (int i = 0; i < 3; i++) {
      final PartitaClient one = client(false, addresses.get(i));
      for (int k = 0; k < 60; k++) {
        final ClientResponse answer = one.callAsync("Get", "key" + k).join();
        if (answer.ok()) {
          served++;
          assertArrayEquals(("value" + k).getBytes(StandardCharsets.UTF_8), value(answer));
        } else {
          notLeader++;
          assertEquals(ErrorCode.ERROR_CODE_NOT_LEADER, answer.errorCode(), answer.message());
          assertTrue(answer.message().contains("not by this host (" + i + ")"), answer.message());
        }
      }
      // Work that needs every partition runs on the coordinator's host, whichever host it reached.
      final ClientResponse count = one.callAsync("@AdHoc", "SELECT COUNT(*) FROM store").join();
      assertTrue(count.ok(), count.message());
      assertEquals(60, count.firstLong(), "host " + i + " counts every partition's rows");
    }
    assertEquals(60, served, "every key is served by exactly one host");
    assertEquals(120, notLeader);
  }

  /**
   * K = 1 on three hosts (two sites each: three partitions, copies on hosts {0,1}, {2,0}, {1,2}) under a
   * firehose of single-partition writes (Voter's shape): every write is acknowledged, reads
   * see them, and each partition's two copies have the same checksum ({@code @Statistics CHECKSUM}).
   */
  @Test
  void shouldKeepEveryAcknowledgedWriteOnBothCopiesWithKOne() throws Exception {
    final String cluster = clusterList(3, freeClusterPort(3));
    for (int i = 0; i < 3; i++) {
      launch(i, cluster, KV_DDL, "--sites-per-host", "2", "--kfactor", "1", "--join-timeout", "120s");
    }
    final List<String> addresses = new ArrayList<>();
    for (ServerProcess host : hosts) {
      assertTrue(host.awaitReadyLine(), () -> "a host did not print its ready line:\n" + host.output());
      addresses.add(host.address());
    }
    final PartitaClient all = client(addresses.toArray(new String[0]));
    assertEquals(3, all.topology().partitionCount());
    final int keys = 3000;
    int acknowledged = 0;
    for (int from = 0; from < keys; from += 500) {
      final List<java.util.concurrent.CompletableFuture<ClientResponse>> calls = new ArrayList<>();
      for (int k = from; k < from + 500; k++) {
        calls.add(all.callAsync("Put", "key" + k, ("value" + k).getBytes(StandardCharsets.UTF_8)));
      }
      for (java.util.concurrent.CompletableFuture<ClientResponse> call : calls) {
        final ClientResponse answer = call.join();
        assertTrue(answer.ok(), answer.message());
        acknowledged++;
      }
    }
    assertEquals(keys, acknowledged);
    for (int k = 0; k < keys; k += 29) {
      assertArrayEquals(("value" + k).getBytes(StandardCharsets.UTF_8), value(all.call("Get", "key" + k)));
    }
    // Each partition: one row from its leader's host, one from its replica's, with the same checksum.
    final java.util.Map<Integer, List<Long>> checksums = new java.util.TreeMap<>();
    final java.util.Map<Integer, Integer> leaders = new java.util.TreeMap<>();
    for (int i = 0; i < 3; i++) {
      final ClientResponse answer = client(false, addresses.get(i)).callAsync("@Statistics", "CHECKSUM").join();
      assertTrue(answer.ok(), answer.message());
      final ResultTable table = answer.results().get(0);
      while (table.advanceRow()) {
        final int partition = (int) table.getLong(0);
        checksums.computeIfAbsent(partition, p -> new ArrayList<>()).add(table.getLong(4));
        if (table.getLong(1) == 1) {
          leaders.merge(partition, 1, Integer::sum);
        }
      }
    }
    assertEquals(List.of(0, 1, 2), new ArrayList<>(checksums.keySet()));
    for (java.util.Map.Entry<Integer, List<Long>> copies : checksums.entrySet()) {
      assertEquals(2, copies.getValue().size(), "partition " + copies.getKey() + " has two copies");
      assertEquals(copies.getValue().get(0), copies.getValue().get(1), "partition " + copies.getKey()
          + ": both copies hold the same rows");
      assertEquals(1, leaders.get(copies.getKey()), "partition " + copies.getKey() + " has one leader");
    }
  }

  @Test
  void shouldRefuseBadConfigurationsWithTheReason() throws Exception {
    final String cluster = clusterList(3, freeClusterPort(3));
    assertFails(launch(0, cluster, KV_DDL, "--kfactor", "1", "--sites-per-host", "1"),
        "not a multiple of K+1 = 2");
    assertFails(launch(0, "127.0.0.1:5000,127.0.0.2:5000", KV_DDL, "--kfactor", "2"),
        "--kfactor 2 needs 3 hosts for the copies of each partition, but --cluster lists 2");
    assertFails(launch(0, cluster, KV_DDL, "--cluster-tls-cert", KV_DDL.toString()),
        "--cluster-tls-cert, --cluster-tls-key and --cluster-ca go together (given: --cluster-tls-cert)");
    final ServerProcess wrongBind = ServerProcess.launch(List.of("--schema", KV_DDL.toString(), "--cluster",
        cluster, "--host-id", "1", "--bind", "127.0.0.1", "--data-dir", dir.resolve("bind").toString()),
        dir.resolve("bind.log"));
    hosts.add(wrongBind);
    assertFails(wrongBind, "--bind 127.0.0.1 is not host 1's address in --cluster (127.0.0.2)");
    // One host of three, alone: the metadata group has no majority, so it gives up after its timeout.
    assertFails(launch(0, cluster, KV_DDL, "--join-timeout", "3s"),
        "did not answer within 3 s; start every host listed in --cluster");
  }

  @Test
  void shouldRefuseAHostWhoseSchemaDiffers() throws Exception {
    final String cluster = clusterList(2, freeClusterPort(2));
    final Path bank = Path.of(ClusterTest.class.getResource("/bank.sql").toURI());
    final ServerProcess first = launch(0, cluster, KV_DDL, "--join-timeout", "60s");
    final ServerProcess second = launch(1, cluster, bank, "--join-timeout", "60s");
    // Whichever registers second is refused; the other then waits in vain and is stopped below.
    final long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
    while (first.isAlive() && second.isAlive() && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    final ServerProcess refused = first.isAlive() ? second : first;
    assertEquals(1, refused.awaitExit(10), refused.output());
    assertTrue(refused.output().contains("its schema (fingerprint "), refused.output());
    assertTrue(refused.output().contains("every host needs the same --schema and --classes"), refused.output());
  }

  /** The one value a Get answered. */
  private static byte[] value(ClientResponse answer) {
    final ResultTable table = answer.results().get(0);
    assertTrue(table.advanceRow(), "Get found no row");
    return table.getBytes(0);
  }

  static void assertFails(ServerProcess host, String expected) throws InterruptedException {
    assertEquals(1, host.awaitExit(90), () -> "the start should fail with '" + expected + "':\n" + host.output());
    assertTrue(host.output().contains("partita start: "), host.output());
    assertTrue(host.output().contains(expected), () -> "expected '" + expected + "' in:\n" + host.output());
  }
}
