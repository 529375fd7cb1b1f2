package org.partita.integration;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.client.BackpressureException;
import org.partita.client.ClientConfig;
import org.partita.client.ClientResponse;
import org.partita.client.NoConnectionsException;
import org.partita.client.PartitaClient;
import org.partita.client.ResultTable;
import org.partita.client.proto.CallStatus;
import org.partita.client.proto.InvocationResponse;
import org.partita.proto.ErrorCode;

/**
 * Whole-cluster restart from the hosts' command logs (docs/cluster.md,
 * "Durability on a cluster"): three real {@code partita start --cluster}
 * processes, K = 1, two sites each, sync logs under the power-cut shim
 * (tests/fault/powercut). Twice: KV writes sent to every host (and a
 * multi-partition delete), every host killed with SIGKILL while writes are
 * in flight and then its unsynced log writes dropped, every host started
 * again with {@code --recover}. After each recovery every write a client
 * saw acknowledged reads back with its value (from either cycle), the
 * multi-partition delete holds on every partition, both copies of each
 * partition hold the same rows ({@code @Statistics CHECKSUM}), and the
 * cluster takes new writes. A host started on its data directory without
 * {@code --recover} is refused with the way to recover. And a write of a
 * client session, sent again after a restart from the logs with its session
 * and handle, is answered from the de-duplication table the replay rebuilt
 * (docs/cluster.md, "Client de-duplication"). Every process is stopped by
 * its handle.
 */
@Timeout(600)
class ClusterRecoveryTest {
  private static final Path KV_DDL = ServerProcess.ROOT.resolve("bench/kv/ddl.sql");
  private static final int HOSTS = 3;
  private static final int PARTITIONS = 3;
  private static final int DELETED = 40;

  @TempDir
  Path dir;

  private final List<ServerProcess> hosts = new ArrayList<>();
  private final List<PowerCut> cuts = new ArrayList<>();
  private final List<PartitaClient> clients = new ArrayList<>();
  private final Map<String, String> acknowledged = new ConcurrentHashMap<>();
  private String cluster;
  private Path schema = KV_DDL;
  private int launches;
  /** The test's K and sites per host (the partitions are {@link #PARTITIONS} either way). */
  private int kFactor = 1;
  private int sitesPerHost = 2;
  /** Arguments every host of the test is started with besides {@link #hostArgs(Path, String, int, Path)}'s. */
  private final List<String> extraArgs = new ArrayList<>();

  @AfterEach
  void stopEverything() throws Exception {
    for (PartitaClient client : clients) {
      client.close();
    }
    for (ServerProcess host : hosts) {
      host.close();
    }
    // PARTITA_TEST_KEEP_LOGS=DIR keeps every host's output there (one file per process started).
    final String keep = System.getenv("PARTITA_TEST_KEEP_LOGS");
    if (keep != null && !keep.isEmpty()) {
      java.nio.file.Files.createDirectories(Path.of(keep));
      for (int i = 0; i < hosts.size(); i++) {
        java.nio.file.Files.writeString(Path.of(keep).resolve("process-" + i + ".log"), hosts.get(i).output());
      }
    }
  }

  private static final int WRITES_IN_FLIGHT = 64;
  /** Keys whose write the client failed as never sent (no connection up, no room). */
  private final Set<String> notSent = ConcurrentHashMap.newKeySet();
  /** The last {@link #writeUntilKilled}'s permits: all back once its calls ended. */
  private Semaphore writesInFlight = new Semaphore(WRITES_IN_FLIGHT);

  @Test
  void shouldRestartTheWholeClusterFromItsLogsWithEveryAcknowledgedWrite() throws Exception {
    cluster = ClusterTest.clusterList(HOSTS, ClusterTest.freeClusterPort(HOSTS));
    for (int i = 0; i < HOSTS; i++) {
      cuts.add(new PowerCut(dataDir(i).resolve("commandlog"), dir.resolve("journal-" + i)));
    }
    PartitaClient client = startHosts(false);
    deleteAcrossPartitions(client);
    writeUntilKilled(client, "first");
    killAndCutPower();

    final ServerProcess plain = ServerProcess.launch(hostArgs(0), dir.resolve("without-recover.log"));
    hosts.add(plain);
    assertEquals(1, plain.awaitExit(120), plain::output);
    assertTrue(plain.output().contains("starts every host") || plain.output().contains("--recover"),
        plain::output);

    client = startHosts(true);
    checkEveryAcknowledgedWrite(client);
    checkCopiesEqual();
    writeUntilKilled(client, "second");
    killAndCutPower();

    client = startHosts(true);
    checkEveryAcknowledgedWrite(client);
    checkCopiesEqual();
    final ClientResponse after = client.callAsync("Put", "after-recovery", bytes("after")).get(60, TimeUnit.SECONDS);
    assertTrue(after.ok(), after.message());
    assertArrayEquals(bytes("after"), value(client.callAsync("Get", "after-recovery").get(60, TimeUnit.SECONDS)));
  }

  /**
   * A write of a client session that ran before every host was killed is,
   * sent again with its session and handle after the restart from the
   * logs, answered with its first answer and not run again: each copy's
   * de-duplication table is rebuilt as its log is replayed. A new handle
   * of the same session still runs (the table does not refuse everything).
   */
  @Test
  void aWriteSentAgainAfterAWholeClusterRestartIsAnsweredFromTheReplayedTable() throws Exception {
    final long session = 0x5E55_7E57_0001L;
    final long key = 17;
    PartitaClient client = startEntriesCluster();
    final InvocationResponse first = callOnLeader(session, 41, "AddEntry", key, "once");
    assertEquals(CallStatus.CALL_STATUS_SUCCESS, first.getStatus(), first.toString());
    assertEquals(1, count(client, key));
    writeEveryPartition(client);
    killAndCutPower();

    client = startHosts(true);
    final InvocationResponse again = callOnLeader(session, 41, "AddEntry", key, "once");
    assertEquals(CallStatus.CALL_STATUS_SUCCESS, again.getStatus(), again.toString());
    assertEquals(first.getResultsList(), again.getResultsList(), "the first answer's results");
    assertEquals(1, count(client, key), "sent again after the restart: answered from the replayed table");
    final InvocationResponse next = callOnLeader(session, 42, "AddEntry", key, "next");
    assertEquals(CallStatus.CALL_STATUS_SUCCESS, next.getStatus(), next.toString());
    assertEquals(2, count(client, key), "a new handle of the session runs");
  }

  /**
   * A multi-partition transfer of a client session between accounts on
   * partitions 1 and 2, so partition 0's part changes nothing and partition
   * 0's log holds only the decision carrying the call's answer, sent again
   * after a restart of every host from its log: answered with its first
   * answer and not run again (the replayed decision recorded it in partition
   * 0's table). Without that record it ran again and the source paid twice.
   */
  @Test
  void aTransferSentAgainAfterAWholeClusterRestartIsAnsweredFromTheReplayedDecision() throws Exception {
    transferSentAgainAfterARestartRunsOnce(0x5E55_7E57_0003L);
  }

  /**
   * The same with K = 0 (one site per host, so three partitions, each on
   * one host): there is no prepare step, so partition 0's copy logs a
   * decision item of its own to carry the call it recorded. Without it the
   * parts replayed alone, recorded nothing, and the transfer ran again.
   */
  @Test
  void aTransferSentAgainAfterAWholeKZeroClusterRestartIsAnsweredFromTheReplayedDecision() throws Exception {
    kFactor = 0;
    sitesPerHost = 1;
    transferSentAgainAfterARestartRunsOnce(0x5E55_7E57_0004L);
  }

  private void transferSentAgainAfterARestartRunsOnce(long session) throws Exception {
    // --schema takes a comma-separated list: the bank tables, then the Transfer procedure.
    schema = Path.of(Path.of(ClusterRecoveryTest.class.getResource("/bank.sql").toURI()) + ","
        + Path.of(ClusterRecoveryTest.class.getResource("/bank-transfer.sql").toURI()));
    extraArgs.addAll(List.of("--classes", Path.of(org.partita.integration.procs.Transfer.class
        .getProtectionDomain().getCodeSource().getLocation().toURI()).toString()));
    PartitaClient client = startCluster();
    // One account per partition (every host's log then holds a record); the transfer's two avoid partition 0.
    final long[] account = openAccountPerPartition(client);
    final long from = account[1];
    final long to = account[2];
    final InvocationResponse first = callOnLeader(session, 7, "Transfer", from, to, 40L);
    assertEquals(CallStatus.CALL_STATUS_SUCCESS, first.getStatus(), first.toString());
    assertEquals(OPENING - 40, balance(client, from));
    killAndCutPower();

    client = startHosts(true);
    final InvocationResponse again = callOnLeader(session, 7, "Transfer", from, to, 40L);
    assertEquals(CallStatus.CALL_STATUS_SUCCESS, again.getStatus(), again.toString());
    assertEquals(first.getResultsList(), again.getResultsList(), "the first answer's results");
    assertEquals(OPENING - 40, balance(client, from), "sent again after the restart: answered, not run again");
    assertEquals(OPENING + 40, balance(client, to));
    final InvocationResponse next = callOnLeader(session, 8, "Transfer", from, to, 40L);
    assertEquals(CallStatus.CALL_STATUS_SUCCESS, next.getStatus(), next.toString());
    assertEquals(OPENING - 80, balance(client, from), "a new handle of the session runs");
  }

  private static final long OPENING = 1_000;

  /** Opens an account of {@link #OPENING} on each partition; their ids, by partition. */
  private static long[] openAccountPerPartition(PartitaClient client) throws Exception {
    final long[] ids = new long[PARTITIONS];
    final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    int opened = 0;
    for (long id = 1; opened < PARTITIONS; id++) {
      assertTrue(System.nanoTime() < deadline, "the client routes OpenAccount to every partition within 60 s");
      final int partition = client.partitionOf("OpenAccount", id);
      if (partition < 0 || ids[partition] != 0) {
        Thread.sleep(partition < 0 ? 20 : 0);
        continue;
      }
      final ClientResponse answer = client.callAsync("OpenAccount", id, 1, OPENING, "a" + id)
          .get(60, TimeUnit.SECONDS);
      assertTrue(answer.ok(), answer.message());
      ids[partition] = id;
      opened++;
    }
    return ids;
  }

  private static long balance(PartitaClient client, long id) throws Exception {
    final ClientResponse answer = client.callAsync("@AdHoc", "SELECT balance FROM accounts WHERE id = " + id)
        .get(60, TimeUnit.SECONDS);
    assertTrue(answer.ok(), answer.message());
    return answer.firstLong();
  }

  /**
   * A write of a client session, then a snapshot across hosts, then the
   * write sent again (answered from the table, not run: the log after the
   * snapshot's cut holds it): after every host was killed and restarted with
   * {@code --recover}, each copy loaded from its snapshot part with the
   * table the part kept, the write's row is there once (the replay answered
   * the call sent again from that table instead of running it), and sent
   * once more it is answered from the table (docs/cluster.md, "Client
   * de-duplication").
   */
  @Test
  void aWriteSentAgainAfterASnapshotRunsOnceThroughAWholeClusterRestart() throws Exception {
    final long session = 0x5E55_7E57_0002L;
    final long key = 19;
    // No failover while the snapshot is taken (a host paused by a loaded machine past 3 s would be declared dead and
    // the snapshot, which needs every copy, refused): the test is about the whole-cluster restart.
    extraArgs.addAll(List.of("--heartbeat-timeout", "20s"));
    PartitaClient client = startEntriesCluster();
    final InvocationResponse first = callOnLeader(session, 51, "AddEntry", key, "once");
    assertEquals(CallStatus.CALL_STATUS_SUCCESS, first.getStatus(), first.toString());
    final ClientResponse saved = client.callAsync("@SnapshotSave").get(300, TimeUnit.SECONDS);
    assertTrue(saved.ok(), saved.message());
    final InvocationResponse again = callOnLeader(session, 51, "AddEntry", key, "once");
    assertEquals(first.getResultsList(), again.getResultsList(), "sent again after the snapshot: the first answer");
    assertEquals(1, count(client, key), "sent again after the snapshot: answered from the table, not run");
    writeEveryPartition(client);
    killAndCutPower();

    client = startHosts(true);
    assertTrue(hosts.stream().anyMatch(h -> h.output().contains("recovery: loaded snapshot")),
        "a host loaded its snapshot part");
    assertEquals(1, count(client, key), "the write's row once: the replay answered the call sent again from the"
        + " table the snapshot kept");
    final InvocationResponse afterRestart = callOnLeader(session, 51, "AddEntry", key, "once");
    assertEquals(first.getResultsList(), afterRestart.getResultsList(), "sent again after the restart: the first"
        + " answer");
    assertEquals(1, count(client, key), "sent again after the restart: answered from the table, not run");
  }

  /** Starts every host on the de-duplication tests' schema ({@link EntriesSchema}), logs under the power-cut shim. */
  private PartitaClient startEntriesCluster() throws Exception {
    schema = EntriesSchema.writeTo(dir);
    return startCluster();
  }

  /** Starts every host of a new cluster on {@link #schema}, logs under the power-cut shim. */
  private PartitaClient startCluster() throws Exception {
    cluster = ClusterTest.clusterList(HOSTS, ClusterTest.freeClusterPort(HOSTS));
    for (int i = 0; i < HOSTS; i++) {
      cuts.add(new PowerCut(dataDir(i).resolve("commandlog"), dir.resolve("journal-" + i)));
    }
    return startHosts(false);
  }

  /**
   * Sends the call on a raw connection of {@code session} to each host
   * until one leads its partition (not NOT_LEADER), within 60 s; its answer.
   */
  private InvocationResponse callOnLeader(long session, long handle, String procedure, Object... parameters)
      throws Exception {
    final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    InvocationResponse last = null;
    while (System.nanoTime() < deadline) {
      for (ServerProcess host : hosts.subList(hosts.size() - HOSTS, hosts.size())) {
        final String[] hostPort = host.address().split(":");
        try (RawConnection c = RawConnection.session(hostPort[0], Integer.parseInt(hostPort[1]),
            "cluster-recovery-session", session)) {
          last = c.call(handle, procedure, parameters);
        }
        if (last.getErrorCode() != ErrorCode.ERROR_CODE_NOT_LEADER_VALUE) {
          return last;
        }
      }
      Thread.sleep(50);
    }
    throw new AssertionError("no host led the partition of the call within 60 s: " + last);
  }

  private static long count(PartitaClient client, long key) throws Exception {
    final ClientResponse answer = client.callAsync("CountEntries", key).get(60, TimeUnit.SECONDS);
    assertTrue(answer.ok(), answer.message());
    return answer.firstLong();
  }

  /** Launches every host (with {@code --recover}: on its data directory), waits for each ready line. */
  private PartitaClient startHosts(boolean recover) throws Exception {
    final List<ServerProcess> started = new ArrayList<>();
    launches++;
    for (int i = 0; i < HOSTS; i++) {
      final List<String> args = new ArrayList<>(hostArgs(i));
      if (recover) {
        args.add("--recover");
      }
      final ServerProcess host = ServerProcess.launch(args, dir.resolve("host" + i + "-" + launches + ".log"),
          cuts.get(i).environment());
      hosts.add(host);
      started.add(host);
    }
    final PartitaClient client = new PartitaClient(ClientConfig.builder().clientName("cluster-recovery-test")
        .callTimeout(Duration.ofSeconds(30)).build());
    clients.add(client);
    for (ServerProcess host : started) {
      assertTrue(host.awaitReadyLine(), () -> "a host did not print its ready line:\n" + host.output());
      if (recover) {
        assertTrue(host.output().contains("recovery: replayed"), host::output);
      }
      client.connect(host.address());
    }
    return client;
  }

  /** Puts keys gone0.. and deletes them in one multi-partition statement: after any recovery none is back. */
  private void deleteAcrossPartitions(PartitaClient client) throws Exception {
    final List<CompletableFuture<ClientResponse>> puts = new ArrayList<>();
    for (int k = 0; k < DELETED; k++) {
      puts.add(client.callAsync("Put", "gone" + k, bytes("gone" + k)));
    }
    for (CompletableFuture<ClientResponse> put : puts) {
      assertTrue(put.get(60, TimeUnit.SECONDS).ok());
    }
    final ClientResponse deleted = client.callAsync("@AdHoc", "DELETE FROM store WHERE key LIKE 'gone%'")
        .get(60, TimeUnit.SECONDS);
    assertTrue(deleted.ok(), deleted.message());
    assertEquals(DELETED, deleted.firstLong(), "every gone key deleted, on every partition");
  }

  /** Sends Puts to every host for 3 s (and until 100 were acknowledged), recording the acknowledged ones. */
  private void writeUntilKilled(PartitaClient client, String prefix) throws InterruptedException {
    final Semaphore inFlight = new Semaphore(WRITES_IN_FLIGHT);
    writesInFlight = inFlight;
    final long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
    final Set<String> mine = ConcurrentHashMap.newKeySet();
    long n = 0;
    while (System.nanoTime() < until || mine.size() < 100) {
      inFlight.acquire();
      final String key = prefix + n++;
      client.callAsync("Put", key, bytes(key + "-value")).whenComplete((answer, error) -> {
        if (error == null && answer.ok()) {
          mine.add(key);
          acknowledged.put(key, key + "-value");
        } else if (error instanceof NoConnectionsException || error instanceof BackpressureException) {
          notSent.add(key);
        }
        inFlight.release();
      });
      if (n > 1_000_000) {
        throw new AssertionError("fewer than 100 writes acknowledged after a million sent");
      }
    }
  }

  /** SIGKILL to every host with calls in flight, then each host's unsynced log writes dropped. */
  private void killAndCutPower() throws Exception {
    for (ServerProcess host : hosts) {
      if (host.isAlive()) {
        host.kill();
      }
    }
    for (PowerCut cut : cuts) {
      cut.cut();
    }
  }

  /**
   * One entry on each partition (keys from 1000 on), so every host's log
   * holds a record: {@code --recover} refuses a host whose log is empty.
   */
  private static void writeEveryPartition(PartitaClient client) throws Exception {
    final Set<Integer> written = new java.util.HashSet<>();
    final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    for (long k = 1000; written.size() < PARTITIONS; k++) {
      assertTrue(System.nanoTime() < deadline, "the client routes no call to partitions other than " + written);
      final int partition = client.partitionOf("AddEntry", k, "filler");
      if (partition < 0 || written.contains(partition)) {
        Thread.sleep(partition < 0 ? 20 : 0);
        continue;
      }
      final ClientResponse answer = client.callAsync("AddEntry", k, "filler").get(60, TimeUnit.SECONDS);
      assertTrue(answer.ok(), answer.message());
      written.add(partition);
    }
  }

  private void checkEveryAcknowledgedWrite(PartitaClient client) throws Exception {
    // The writes in flight at the kill end first: answered after the restart, or unknown at their timeout.
    assertTrue(writesInFlight.tryAcquire(WRITES_IN_FLIGHT, 120, TimeUnit.SECONDS), "the writes in flight at the kill"
        + " ended within 120 s");
    writesInFlight.release(WRITES_IN_FLIGHT);
    final Map<String, String> expected = Map.copyOf(acknowledged);
    final Semaphore inFlight = new Semaphore(64);
    final Map<String, CompletableFuture<ClientResponse>> reads = new TreeMap<>();
    for (String key : expected.keySet()) {
      inFlight.acquire();
      reads.put(key, client.callAsync("Get", key).whenComplete((a, e) -> inFlight.release()));
    }
    for (Map.Entry<String, CompletableFuture<ClientResponse>> read : reads.entrySet()) {
      final ClientResponse answer = read.getValue().get(60, TimeUnit.SECONDS);
      assertTrue(answer.ok(), answer.message());
      assertArrayEquals(bytes(expected.get(read.getKey())), value(answer),
          read.getKey() + " was acknowledged before every host was killed: it survives the restart");
    }
    for (int k = 0; k < DELETED; k++) {
      final ResultTable row = client.callAsync("Get", "gone" + k).get(60, TimeUnit.SECONDS).results().get(0);
      assertFalse(row.advanceRow(), "gone" + k + " was deleted by a committed multi-partition statement");
    }
    // A write the client called not sent must not have run (one sent before the kill, whose sending again found
    // no host up, was called not sent although it had run).
    for (String key : Set.copyOf(notSent)) {
      final ResultTable row = client.callAsync("Get", key).get(60, TimeUnit.SECONDS).results().get(0);
      assertFalse(row.advanceRow(), key + ": the client said its write was not sent, yet it ran");
    }
    System.out.printf("cluster recovery: %d acknowledged write(s) read back after a restart from the logs; %d"
        + " write(s) the client called not sent are absent%n", expected.size(), notSent.size());
  }

  /** Each partition's two copies, on two hosts, hold the same rows. */
  private void checkCopiesEqual() throws Exception {
    assertCopiesEqual(hosts.subList(hosts.size() - HOSTS, hosts.size()), clients, PARTITIONS);
  }

  /** Each of {@code partitions} partitions has two copies on {@code live} holding the same rows. */
  static void assertCopiesEqual(List<ServerProcess> live, List<PartitaClient> clients, int partitions)
      throws Exception {
    final Map<Integer, List<Long>> checksums = new TreeMap<>();
    for (ServerProcess host : live) {
      final PartitaClient one = new PartitaClient(ClientConfig.builder().clientName("cluster-recovery-checksum")
          .callTimeout(Duration.ofSeconds(30)).discoverHosts(false).build());
      clients.add(one);
      one.connect(host.address());
      final ClientResponse answer = one.callAsync("@Statistics", "CHECKSUM").get(60, TimeUnit.SECONDS);
      assertTrue(answer.ok(), answer.message());
      final ResultTable table = answer.results().get(0);
      while (table.advanceRow()) {
        checksums.computeIfAbsent((int) table.getLong(0), p -> new ArrayList<>()).add(table.getLong(4));
      }
    }
    assertEquals(partitions, checksums.size(), checksums::toString);
    for (Map.Entry<Integer, List<Long>> copies : checksums.entrySet()) {
      assertEquals(2, copies.getValue().size(), "partition " + copies.getKey() + " has both its copies back");
      assertEquals(copies.getValue().get(0), copies.getValue().get(1), "partition " + copies.getKey()
          + ": both copies hold the same rows after the recovery");
    }
  }

  private Path dataDir(int host) {
    return dir.resolve("host" + host);
  }

  private List<String> hostArgs(int host) {
    final List<String> args = new ArrayList<>(hostArgs(schema, cluster, host, dataDir(host)));
    args.set(args.indexOf("--kfactor") + 1, Integer.toString(kFactor));
    args.set(args.indexOf("--sites-per-host") + 1, Integer.toString(sitesPerHost));
    args.addAll(extraArgs);
    return args;
  }

  /** Host {@code host} of a KV cluster {@code cluster}: K = 1, two sites, a sync log in {@code dataDir}. */
  static List<String> kvHostArgs(String cluster, int host, Path dataDir) {
    return hostArgs(KV_DDL, cluster, host, dataDir);
  }

  /** Host {@code host} of cluster {@code cluster} on {@code schema}: K = 1, two sites, a sync log in {@code dataDir}. */
  private static List<String> hostArgs(Path schema, String cluster, int host, Path dataDir) {
    return List.of("--schema", schema.toString(), "--cluster", cluster, "--host-id", Integer.toString(host),
        "--bind", "127.0.0." + (host + 1), "--port", "0", "--http-port", "-1", "--data-dir",
        dataDir.toString(), "--sites-per-host", "2", "--kfactor", "1", "--join-timeout", "120s",
        "--command-log", "sync");
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] value(ClientResponse answer) {
    assertTrue(answer.ok(), answer.message());
    final ResultTable table = answer.results().get(0);
    assertTrue(table.advanceRow(), "a row");
    return table.getBytes(0);
  }
}
