package org.partita.fault;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The rules bite: with real nftables (root, nft installed; skipped
 * otherwise, saying why), an isolated host's internal port cannot be
 * reached from another host's address while its client port can, healing
 * restores it, and closing leaves no table behind.
 */
class FirewallTest {
  private static final int CONNECT_MILLIS = 700;

  @Test
  void shouldCutTheInternalPortOnlyAndLeaveNothingBehind() throws Exception {
    assumeTrue(Firewall.available(), "nft is not installed (scripts/install-deps installs nftables)");
    final String table = "partita_fault_test_" + ProcessHandle.current().pid();
    try (ServerSocket internal = listen("127.0.0.3"); ServerSocket client = listen("127.0.0.3")) {
      final NftRules.Ports ports = new NftRules.Ports(List.of("127.0.0.1", "127.0.0.2", "127.0.0.3"),
          internal.getLocalPort(), 9, 3);
      try (Firewall firewall = new Firewall(table, ports)) {
        try {
          firewall.cut(Grudge.isolate(2, 3));
        } catch (IllegalStateException e) {
          assumeTrue(false, "nft refused the rules (not root?): " + e.getMessage());
        }
        assertTrue(listTables().contains(table));
        assertThrows(SocketTimeoutException.class, () -> connect("127.0.0.2", internal));
        connect("127.0.0.2", client);
        connect("127.0.0.3", internal);
        firewall.heal();
        assertFalse(listTables().contains(table));
        connect("127.0.0.2", internal);
        firewall.cut(Grudge.isolate(2, 3));
      }
      assertFalse(listTables().contains(table), "close must remove the table");
    }
  }

  @Test
  void shouldCutOneHostsSocketsByItsCgroup() throws Exception {
    assumeTrue(Firewall.available(), "nft is not installed (scripts/install-deps installs nftables)");
    final Path root = ClusterHosts.cgroup2Root().orElse(null);
    assumeTrue(root != null, "no writable cgroup v2 hierarchy under /sys/fs/cgroup");
    final String table = "partita_fault_cgtest_" + ProcessHandle.current().pid();
    final Path group = root.resolve(table);
    final List<String> cgroups = new ArrayList<>();
    for (int h = 0; h < 3; h++) {
      Files.createDirectories(group.resolve("host-" + h));
      cgroups.add(ClusterHosts.CGROUP_FS.relativize(group.resolve("host-" + h)).toString());
    }
    try (ServerSocket metadata = listen("127.0.0.3")) {
      final NftRules.Ports ports = new NftRules.Ports(List.of("127.0.0.1", "127.0.0.2", "127.0.0.3"), 9,
          metadata.getLocalPort(), 3, cgroups, root.relativize(group.resolve("host-0")).getNameCount());
      try (Firewall firewall = new Firewall(table, ports)) {
        firewall.cut(Grudge.isolate(2, 3));
        assertEquals(124, connectFromCgroup(group.resolve("host-1"), metadata.getLocalPort()), "host 1 is cut off");
        assertEquals(0, connectFromCgroup(group.resolve("host-2"), metadata.getLocalPort()), "host 2 reaches itself");
        firewall.heal();
        assertEquals(0, connectFromCgroup(group.resolve("host-1"), metadata.getLocalPort()), "healed");
      }
    } finally {
      for (int h = 0; h < 3; h++) {
        Files.deleteIfExists(group.resolve("host-" + h));
      }
      Files.deleteIfExists(group);
    }
  }

  /** The exit code of a shell in {@code cgroup} connecting to 127.0.0.3:port: 0 connected, 124 timed out. */
  private static int connectFromCgroup(Path cgroup, int port) throws IOException, InterruptedException {
    final Process p = new ProcessBuilder("timeout", "1", "bash", "-c",
        "echo $$ > '" + cgroup + "/cgroup.procs' && exec 3<>/dev/tcp/127.0.0.3/" + port)
        .redirectErrorStream(true).start();
    assertTrue(p.waitFor(20, TimeUnit.SECONDS));
    return p.exitValue();
  }

  private static ServerSocket listen(String address) throws IOException {
    final ServerSocket s = new ServerSocket();
    s.bind(new InetSocketAddress(InetAddress.getByName(address), 0), 50);
    return s;
  }

  private static void connect(String from, ServerSocket to) throws IOException {
    try (Socket s = new Socket()) {
      s.bind(new InetSocketAddress(InetAddress.getByName(from), 0));
      s.connect(to.getLocalSocketAddress(), CONNECT_MILLIS);
    }
  }

  private static String listTables() throws IOException, InterruptedException {
    final Process p = new ProcessBuilder("nft", "list", "tables").redirectErrorStream(true).start();
    assertTrue(p.waitFor(20, TimeUnit.SECONDS));
    return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
  }
}
