package org.partita.integration;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.partita.client.ClientConfig;
import org.partita.client.ClientResponse;
import org.partita.client.PartitaClient;
import org.partita.client.ResultTable;

/**
 * The real {@code partita start --cluster} processes of one cluster test,
 * host i on 127.0.0.(i+1) with its data directory under the test's
 * directory, and the clients the test opened: starting them, finding the
 * metadata leader and a key each host leads, restarting a killed host by
 * rejoin, reading every copy's checksum; {@link #close} stops every client
 * and process (a paused one is resumed first), by its handle. One per test;
 * used from the test's thread.
 */
final class ClusterProcesses implements AutoCloseable {
  static final String METADATA_LEADER = "failure detection: this voter leads the metadata group";

  final List<ServerProcess> hosts = new ArrayList<>();
  /** Each host's command-line arguments, for a restart (rejoin). */
  final List<List<String>> arguments = new ArrayList<>();
  final List<String> addresses = new ArrayList<>();
  private final List<PartitaClient> clients = new ArrayList<>();
  private final Path dir;
  private final String clientName;

  ClusterProcesses(Path dir, String clientName) {
    this.dir = dir;
    this.clientName = clientName;
  }

  /** Starts {@code count} hosts with K = {@code kfactor} and {@code sites} sites each; waits for every ready line. */
  void start(int count, int kfactor, int sites, Path schema, String... extra) throws IOException,
      InterruptedException {
    start(count, kfactor, sites, schema, ClusterTest.freeClusterPort(count), extra);
  }

  /** As {@link #start(int, int, int, Path, String...)}, every host's internal port being {@code port}. */
  void start(int count, int kfactor, int sites, Path schema, int port, String... extra) throws IOException,
      InterruptedException {
    final String cluster = ClusterTest.clusterList(count, port);
    for (int i = 0; i < count; i++) {
      final List<String> args = new ArrayList<>(List.of("--schema", schema.toString(), "--cluster", cluster,
          "--host-id", Integer.toString(i), "--bind", "127.0.0." + (i + 1), "--port", "0", "--http-port", "0",
          "--data-dir", dir.resolve("host" + i).toString(), "--sites-per-host", Integer.toString(sites),
          "--kfactor", Integer.toString(kfactor), "--join-timeout", count > 3 ? "180s" : "120s"));
      args.addAll(List.of(extra));
      arguments.add(args);
      hosts.add(ServerProcess.launch(args, dir.resolve("host" + i + ".log")));
    }
    // Five hosts on two loaded cores can take longer to form than one process's start bound: a host still
    // running gets a second one (the --join-timeout of 180 s bounds the formation itself).
    final int rounds = count > 3 ? 2 : 1;
    for (ServerProcess host : hosts) {
      boolean ready = host.awaitReadyLine();
      for (int round = 1; !ready && round < rounds && host.isAlive(); round++) {
        ready = host.awaitReadyLine();
      }
      assertTrue(ready, () -> "a host did not print its ready line:\n" + host.output());
      addresses.add(host.address());
    }
  }

  /** The live host that logged that it leads the metadata group, waiting up to 30 s for one. */
  int metadataLeader() throws InterruptedException {
    final long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (System.nanoTime() < deadline) {
      final int leader = loggedMetadataLeader();
      if (leader >= 0) {
        return leader;
      }
      Thread.sleep(50);
    }
    throw new AssertionError("no host logged that it leads the metadata group");
  }

  /** The live host that logged that it leads the metadata group, or -1. */
  int loggedMetadataLeader() {
    for (int i = 0; i < hosts.size(); i++) {
      if (hosts.get(i).isAlive() && hosts.get(i).output().contains(METADATA_LEADER)) {
        return i;
      }
    }
    return -1;
  }

  /** A key of the partition {@code host} leads: the first one that host itself serves. */
  String keyLedBy(int host) {
    final PartitaClient only = client(false, addresses.get(host));
    String last = "";
    for (int i = 0; i < 2000; i++) {
      final int n = i;
      final ClientResponse answer = only.callAsync("Get", "probe" + i).handle((a, e) -> {
        if (e != null) {
          throw new AssertionError("probe" + n + " failed: " + e, e);
        }
        return a;
      }).join();
      if (answer.ok()) {
        return "probe" + i;
      }
      last = answer.errorCode() + ": " + answer.message();
    }
    throw new AssertionError("host " + host + " served none of 2000 keys; the last answer: " + last + "\n"
        + hosts.get(host).output());
  }

  /**
   * Starts the killed {@code host} again with {@code --rejoin}, on its client
   * port (as a host restarted in place is: clients reconnect and find it
   * there), and waits for its ready line.
   */
  ServerProcess rejoin(int host) throws IOException, InterruptedException {
    final List<String> again = new ArrayList<>(arguments.get(host));
    final String address = addresses.get(host);
    again.set(again.indexOf("--port") + 1, address.substring(address.indexOf(':') + 1));
    again.add("--rejoin");
    final ServerProcess back = ServerProcess.launch(again, dir.resolve("host" + host + "-rejoined.log"));
    hosts.set(host, back);
    assertTrue(back.awaitReadyLine(), () -> "the rejoining host did not print its ready line:\n" + back.output());
    addresses.set(host, back.address());
    return back;
  }

  /** Partition -> the checksums of its copies on {@code hostIds} ({@code @Statistics CHECKSUM}). */
  Map<Integer, List<Long>> checksums(List<Integer> hostIds) {
    final Map<Integer, List<Long>> out = new TreeMap<>();
    for (int i : hostIds) {
      final ClientResponse answer = client(false, addresses.get(i)).callAsync("@Statistics", "CHECKSUM").join();
      assertTrue(answer.ok(), answer.message());
      final ResultTable table = answer.results().get(0);
      while (table.advanceRow()) {
        out.computeIfAbsent((int) table.getLong(0), p -> new ArrayList<>()).add(table.getLong(4));
      }
    }
    return out;
  }

  /** A client of {@code servers} (finding the others when {@code discoverHosts}), closed with this. */
  PartitaClient client(boolean discoverHosts, String... servers) {
    return client(Duration.ofSeconds(20), discoverHosts, servers);
  }

  /** A client of {@code servers} whose calls time out after {@code callTimeout}, closed with this. */
  PartitaClient client(Duration callTimeout, boolean discoverHosts, String... servers) {
    final PartitaClient client = new PartitaClient(ClientConfig.builder().clientName(clientName)
        .callTimeout(callTimeout).discoverHosts(discoverHosts).build());
    clients.add(client);
    for (String address : servers) {
      client.connect(address);
    }
    return client;
  }

  @Override
  public void close() throws Exception {
    clients.forEach(PartitaClient::close);
    for (ServerProcess host : hosts) {
      FailoverTest.signal(host, "CONT");
      host.close();
    }
    // PARTITA_TEST_KEEP_LOGS=DIR keeps each host's output there (the last process of each host).
    final String keep = System.getenv("PARTITA_TEST_KEEP_LOGS");
    if (keep != null && !keep.isEmpty()) {
      java.nio.file.Files.createDirectories(Path.of(keep));
      for (int i = 0; i < hosts.size(); i++) {
        java.nio.file.Files.writeString(Path.of(keep).resolve("host-" + i + ".log"), hosts.get(i).output());
      }
    }
  }
}
