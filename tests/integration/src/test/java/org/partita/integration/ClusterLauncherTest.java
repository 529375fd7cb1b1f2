package org.partita.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.client.ClientConfig;
import org.partita.client.ClientResponse;
import org.partita.client.PartitaClient;
import org.partita.client.ResultTable;

/**
 * {@code scripts/cluster} as its users (and the fault runner) drive it: start
 * three hosts, each listening on its own address only, status, pause and
 * resume one, kill one by pid, status again, stop (with a host paused); each host's cluster page and
 * {@code @Statistics CLUSTER}. The cluster directory is a temporary one; every
 * host is stopped after the test, even on failure.
 */
@Timeout(300)
class ClusterLauncherTest {
  private static final Path SCRIPT = ServerProcess.ROOT.resolve("scripts/cluster");

  @TempDir
  Path dir;

  private record Run(int exitCode, String output) {}

  private Run cluster(String... args) throws IOException, InterruptedException {
    final List<String> command = new ArrayList<>(List.of(SCRIPT.toString()));
    command.addAll(List.of(args));
    final Path out = Files.createTempFile(dir, "cluster-", ".out");
    final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile());
    builder.environment().put("PARTITA_CLUSTER_DIR", dir.resolve("cluster").toString());
    builder.environment().put("PARTITA_JAVA_OPTS", "-Xmx256m");
    final Process process = builder.start();
    if (!process.waitFor(240, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      throw new IllegalStateException("scripts/cluster " + String.join(" ", args) + " ran over 240 s:\n"
          + Files.readString(out, StandardCharsets.UTF_8));
    }
    return new Run(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
  }

  @AfterEach
  void stop() throws Exception {
    cluster("stop");
  }

  /**
   * The addresses listening on TCP {@code port}, from the kernel's tables:
   * "127.0.0.2" (IPv4 or IPv4-mapped IPv6 sockets), "::" for the IPv6
   * wildcard, other IPv6 addresses as their kernel hex.
   */
  private static Set<String> listeners(int port) throws IOException {
    final Set<String> found = new TreeSet<>();
    final String portHex = String.format(":%04X", port);
    for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
      for (String line : Files.readAllLines(Path.of(table))) {
        final String[] f = line.trim().split("\\s+");
        if (f.length > 3 && f[3].equals("0A") && f[1].endsWith(portHex)) {
          found.add(address(f[1].substring(0, f[1].indexOf(':'))));
        }
      }
    }
    return found;
  }

  private static String address(String hex) {
    if (hex.length() == 32 && !hex.startsWith("0000000000000000FFFF0000")) {
      return hex.chars().allMatch(c -> c == '0') ? "::" : hex;
    }
    final long le = Long.parseLong(hex.substring(hex.length() - 8), 16);
    return (le & 0xff) + "." + (le >> 8 & 0xff) + "." + (le >> 16 & 0xff) + "." + (le >> 24 & 0xff);
  }

  private static int freePort() throws IOException {
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      return probe.getLocalPort();
    }
  }

  @Test
  void shouldStartInspectKillAndStopALocalCluster() throws Exception {
    final int internal = freePort();
    final Run start = cluster("start", "--hosts", "3", "--schema", ServerProcess.ROOT.resolve("bench/kv/ddl.sql")
        .toString(), "--port", "0", "--http-port", "0", "--internal-port", Integer.toString(internal),
        "--join-timeout", "180s");
    assertEquals(0, start.exitCode(), start.output());
    assertTrue(start.output().contains("cluster: ready: 3 host(s), every host serving"), start.output());
    final String servers = start.output().lines().filter(l -> l.startsWith("--servers ")).findFirst()
        .orElseThrow(() -> new AssertionError("no --servers line:\n" + start.output())).substring(10);
    final String[] addresses = servers.split(",");
    assertEquals(3, addresses.length, servers);
    for (int i = 0; i < 3; i++) {
      assertTrue(addresses[i].startsWith("127.0.0." + (i + 1) + ":"), servers);
      final int clientPort = Integer.parseInt(addresses[i].substring(addresses[i].indexOf(':') + 1));
      assertEquals(Set.of("127.0.0." + (i + 1)), listeners(clientPort), "host " + i + "'s client port");
    }
    assertEquals(Set.of("127.0.0.1", "127.0.0.2", "127.0.0.3"), listeners(internal), "the internal ports");
    assertEquals(Set.of("127.0.0.1", "127.0.0.2", "127.0.0.3"), listeners(internal + 1), "the metadata ports");

    // Host 1 alone (no discovery), so that the system procedures below are answered by host 1.
    try (PartitaClient client = new PartitaClient(ClientConfig.builder().callTimeout(Duration.ofSeconds(30))
        .discoverHosts(false).build())) {
      client.connect(addresses[1]);
      assertTrue(client.call("@Ping").ok());
      final ClientResponse view = client.call("@Statistics", "CLUSTER");
      assertTrue(view.ok(), view.toString());
      final ResultTable hosts = view.results().get(0);
      final List<String> seen = new ArrayList<>();
      while (hosts.advanceRow()) {
        seen.add(hosts.getLong("HOST_ID") + " " + hosts.getString("STATE") + " " + hosts.getString("CLIENT_ADDRESS")
            + " " + hosts.getLong("IS_THIS_HOST"));
      }
      assertEquals(List.of("0 SERVING " + addresses[0] + " 0", "1 SERVING " + addresses[1] + " 1",
          "2 SERVING " + addresses[2] + " 0"), seen, "@Statistics CLUSTER on host 1");
    }
    checkClusterPages(start.output());

    final Run status = cluster("status");
    assertEquals(0, status.exitCode(), status.output());
    assertTrue(status.output().contains("host 2: running, pid "), status.output());
    assertTrue(status.output().contains("cluster: 3 of 3 host(s) running"), status.output());

    assertEquals(0, cluster("pause", "2").exitCode());
    final Run paused = cluster("status");
    assertTrue(paused.output().contains("host 2: paused (SIGSTOP), pid "), paused.output());
    assertEquals(0, cluster("resume", "2").exitCode());
    assertTrue(cluster("status").output().contains("host 2: running, pid "));
    assertEquals(2, cluster("restart", "2").exitCode(), "a host that still runs is not restarted");
    assertEquals(2, cluster("restart", "x").exitCode(), "restart needs a host id");

    final Run kill = cluster("kill", "1");
    assertEquals(0, kill.exitCode(), kill.output());
    final Run afterKill = cluster("status");
    assertEquals(1, afterKill.exitCode(), afterKill.output());
    assertTrue(afterKill.output().contains("host 1: not running"), afterKill.output());
    assertTrue(afterKill.output().contains("cluster: 2 of 3 host(s) running"), afterKill.output());
    assertEquals(2, cluster("kill", "1").exitCode(), "killing a host that is not running is a usage error");
    final Run noRejoin = cluster("restart", "1");
    assertEquals(2, noRejoin.exitCode(), noRejoin.output());
    assertTrue(noRejoin.output().contains("the cluster runs with K = 0: no host is declared dead, so none rejoins"),
        noRejoin.output());
    assertEquals(2, cluster("kill", "7").exitCode(), "no such host");

    // A paused host still stops: stop resumes it after its SIGTERM.
    assertEquals(0, cluster("pause", "0").exitCode());
    final Run stop = cluster("stop");
    assertEquals(0, stop.exitCode(), stop.output());
    assertEquals(1, cluster("status").exitCode());
    assertTrue(cluster("status").output().contains("cluster: 0 of 3 host(s) running"));
  }

  /** Each host's cluster page, printed by start and in the pages file, is served on the host's own address. */
  private void checkClusterPages(String startOutput) throws IOException, InterruptedException {
    final List<String> pages = Files.readAllLines(dir.resolve("cluster").resolve("pages"), StandardCharsets.UTF_8);
    assertEquals(3, pages.size(), pages.toString());
    assertTrue(startOutput.contains("cluster: cluster pages (one per host): " + String.join(" ", pages)), startOutput);
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    for (int i = 0; i < 3; i++) {
      assertTrue(pages.get(i).matches("http://127\\.0\\.0\\." + (i + 1) + ":\\d+/cluster"), pages.get(i));
      final HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(pages.get(i)))
          .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
      assertEquals(200, page.statusCode(), pages.get(i));
      assertTrue(page.body().contains("<title>Partita cluster</title>"), pages.get(i));
    }
  }

  @Test
  void shouldRefuseBadUsage() throws Exception {
    assertEquals(2, cluster("start", "--hosts", "0").exitCode());
    assertTrue(cluster("start", "--hosts", "x").output().contains("--hosts must be a number from 1 to 254"));
    assertEquals(2, cluster("start", "--hosts", "2", "--no-such-option").exitCode());
    assertEquals(2, cluster("frobnicate").exitCode());
  }
}
