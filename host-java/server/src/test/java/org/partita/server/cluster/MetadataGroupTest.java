package org.partita.server.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.proto.cluster.MetadataSnapshot;
import org.junit.jupiter.api.io.TempDir;
import org.partita.proto.cluster.MetadataReply;

/**
 * Three metadata voters in one JVM, each a real Ratis server over gRPC bound
 * to its own loopback address (127.0.0.1, .2, .3) with its own log
 * directory: a leader is elected, commands commit on every voter, and after
 * the leader is closed the two survivors elect a new one, keep the map and
 * commit further changes, and the old leader restarted on its own log
 * catches up. Bounded in time; every server is closed and the
 * directories removed even on failure.
 */
@Timeout(60)
class MetadataGroupTest {
  private static final Duration WAIT = Duration.ofSeconds(20);

  @TempDir
  Path storage;

  private final List<MetadataServer> servers = new ArrayList<>();
  private MetadataClient client;

  @AfterEach
  void closeEverything() throws IOException {
    IOException failed = null;
    final List<AutoCloseable> all = new ArrayList<>(servers);
    if (client != null) {
      all.add(0, client);
    }
    for (AutoCloseable closeable : all) {
      try {
        closeable.close();
      } catch (Exception e) {
        if (failed == null) {
          failed = new IOException("closing the metadata group", e);
        } else {
          failed.addSuppressed(e);
        }
      }
    }
    if (failed != null) {
      throw failed;
    }
  }

  @Test
  void shouldKeepTheMapAcrossALeaderFailure() throws Exception {
    final MetadataGroup group = startThreeVoters();
    client = new MetadataClient(group, WAIT);

    final MetadataServer leader = await("a metadata leader", this::leader);
    final MetadataReply installed = client.send(MetadataStateTest.install(0, MetadataStateTest.threeHostMap()));
    assertTrue(installed.getApplied(), installed.getRefusal());
    awaitOn(servers, "map version 1", s -> s.appliedMap() != null && s.appliedMap().version() == 1);

    // The leader goes away; the two survivors are a majority and elect one of them.
    leader.close();
    servers.remove(leader);
    final MetadataServer next = await("a new metadata leader", this::leader);
    assertFalse(next == leader);
    for (MetadataServer survivor : servers) {
      assertEquals(1, survivor.appliedMap().version(), survivor.peer().id());
      assertEquals(2, survivor.appliedMap().leaderOf(1), survivor.peer().id());
    }

    // The group still commits, on both survivors, and still refuses a stale epoch.
    final MetadataReply failover = client.send(MetadataStateTest.changeLeader(0, 1, 1, List.of(1)));
    assertTrue(failover.getApplied(), failover.getRefusal());
    awaitOn(servers, "map version 2", s -> s.appliedMap().version() == 2);
    for (MetadataServer survivor : servers) {
      assertEquals(1, survivor.appliedMap().leaderOf(0), survivor.peer().id());
      assertEquals(2, survivor.appliedMap().replicas(0).epoch(), survivor.peer().id());
    }
    final MetadataReply stale = client.send(MetadataStateTest.changeLeader(0, 1, 0, List.of(0)));
    assertEquals("ChangeLeader for partition 0 expected epoch 1, current is 2", stale.getRefusal());
    assertEquals(2, client.currentMap().getMap().getTopologyVersion());

    // The old leader restarts on its own log: it replays what it had and catches up on the rest.
    final MetadataServer restarted = MetadataServer.start(group, leader.peer().id(),
        storage.resolve(leader.peer().id()).toFile());
    servers.add(restarted);
    awaitOn(List.of(restarted), "map version 2 after restart", s -> s.appliedMap() != null
        && s.appliedMap().version() == 2);
    assertEquals(1, restarted.appliedMap().leaderOf(0));
  }

  @Test
  void shouldRestartAVoterFromItsSnapshot() throws Exception {
    final InetAddress address = InetAddress.getByName("127.0.0.1");
    final MetadataPeer peer = new MetadataPeer("0", new InetSocketAddress(address, freePort(address)));
    final MetadataGroup group = new MetadataGroup(List.of(peer), Duration.ofMillis(150), Duration.ofMillis(300));
    final Path dir = storage.resolve("solo");
    final MetadataServer first = MetadataServer.start(group, "0", dir.toFile());
    servers.add(first);
    client = new MetadataClient(group, WAIT);
    assertTrue(client.send(MetadataStateTest.register(0, 5, 0x1234, "solo")).getApplied());
    assertTrue(client.send(MetadataStateTest.install(0, MetadataStateTest.threeHostMap())).getApplied());
    final long index = client.takeSnapshot();
    assertTrue(index >= 2, "snapshot index " + index);
    final MetadataSnapshot before = first.appliedState();
    first.close();
    servers.remove(first);
    try (var files = Files.walk(dir)) {
      assertTrue(files.anyMatch(p -> p.getFileName().toString().startsWith("snapshot.")), "a snapshot file in " + dir);
    }

    final MetadataServer second = MetadataServer.start(group, "0", dir.toFile());
    servers.add(second);
    awaitOn(List.of(second), "the state after restart", s -> s.appliedState().getAppliedIndex()
        >= before.getAppliedIndex());
    assertEquals(before.getHostsList(), second.appliedState().getHostsList());
    assertEquals(before.getMap(), second.appliedState().getMap());
    assertEquals(0x1234, second.appliedState().getSchemaFingerprint());
  }

  /** Starts voters "0", "1", "2" on 127.0.0.1..3, each checked to listen on its own address. */
  private MetadataGroup startThreeVoters() throws IOException {
    final List<MetadataPeer> peers = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      final InetAddress address = InetAddress.getByName("127.0.0." + (i + 1));
      peers.add(new MetadataPeer(Integer.toString(i), new InetSocketAddress(address, freePort(address))));
    }
    final MetadataGroup group = new MetadataGroup(peers, Duration.ofMillis(150), Duration.ofMillis(300));
    for (MetadataPeer peer : peers) {
      final MetadataServer server = MetadataServer.start(group, peer.id(), storage.resolve(peer.id()).toFile());
      servers.add(server);
      assertEquals(List.of(peer.address()), listeningOn(peer.address().getPort()),
          "voter " + peer.id() + " listens on its own address only");
    }
    return group;
  }

  /**
   * Every IPv4 and IPv6 address listening on TCP {@code port}, from the
   * kernel's socket tables (Ratis reports its port, not the address it bound).
   */
  private static List<InetSocketAddress> listeningOn(int port) throws IOException {
    final List<InetSocketAddress> found = new ArrayList<>();
    for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
      for (String line : Files.readAllLines(Path.of(table))) {
        final String[] fields = line.trim().split("\\s+");
        final boolean listening = fields.length > 3 && fields[3].equals("0A");
        final String[] local = fields[1].split(":");
        if (listening && local.length == 2 && Integer.parseInt(local[1], 16) == port) {
          found.add(new InetSocketAddress(kernelAddress(local[0]), port));
        }
      }
    }
    return found;
  }

  /** A /proc/net/tcp address: the address's 32-bit words in hex, each in host (little-endian) order. */
  private static InetAddress kernelAddress(String hex) throws IOException {
    final byte[] bytes = new byte[hex.length() / 2];
    for (int word = 0; word < bytes.length / 4; word++) {
      for (int i = 0; i < 4; i++) {
        final int at = (word * 4 + 3 - i) * 2;
        bytes[word * 4 + i] = (byte) Integer.parseInt(hex.substring(at, at + 2), 16);
      }
    }
    return InetAddress.getByAddress(bytes);
  }

  private MetadataServer leader() {
    return servers.stream().filter(MetadataServer::isLeader).findFirst().orElse(null);
  }

  static int freePort(InetAddress address) throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, address)) {
      return socket.getLocalPort();
    }
  }

  private static <T> T await(String what, java.util.function.Supplier<T> probe) throws InterruptedException {
    final long deadline = System.nanoTime() + WAIT.toNanos();
    while (System.nanoTime() < deadline) {
      final T value = probe.get();
      if (value != null) {
        return value;
      }
      Thread.sleep(20);
    }
    throw new AssertionError("no " + what + " within " + WAIT);
  }

  private static void awaitOn(List<MetadataServer> servers, String what,
      java.util.function.Predicate<MetadataServer> condition) throws InterruptedException {
    final BooleanSupplier all = () -> servers.stream().allMatch(condition);
    await(what + " on every voter", () -> all.getAsBoolean() ? Boolean.TRUE : null);
  }
}
