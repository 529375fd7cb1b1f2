package org.partita.integration;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.partita.client.ClientResponse;
import org.partita.client.PartitaClient;
import org.partita.client.ResultTable;
import org.partita.client.proto.LoginRequest;
import org.partita.client.proto.ServerMessage;
import org.partita.client.proto.Topology;
import org.partita.proto.ErrorCode;

/**
 * Failover on real {@code partita start --cluster} processes, host i on
 * 127.0.0.(i+1), K = 1 on three hosts with two sites each (partitions on
 * hosts {0,1}, {2,0}, {1,2}, led by 0, 2 and 1; docs/cluster.md, "Failure
 * detection and failover"), under a firehose of single-partition writes
 * (KV's {@code Put}): a host killed with SIGKILL is declared dead after the
 * heartbeat timeout and calls on the partition it led succeed again on its
 * survivor (the time is printed; the 5 s target is measured in bench/cluster/RESULTS.md); every acknowledged write is read back
 * afterwards; the copies still paired agree by {@code @Statistics CHECKSUM}.
 * A host paused (SIGSTOP) past the timeout and resumed stops serving: the
 * write it was sent while paused is not acknowledged and is not on the new
 * leader; it then reads that it was declared dead, starts again in its
 * process as a new incarnation (rejoin) on the same client port, gets both
 * its copies back, and answers NOT_LEADER for every partition (it leads
 * none). A replica whose write
 * hash differs (a procedure writing the clock) is dropped by a new epoch, so
 * the held answer leaves. The victim is never the
 * metadata leader (its loss would add a Raft election, about 1–2 s, to the
 * detection). Every process is stopped by its handle after each test.
 */
@Timeout(300)
class FailoverTest {
  private static final Path KV_DDL = ServerProcess.ROOT.resolve("bench/kv/ddl.sql");
  // The partition must serve again; how fast (the 5 s target) is a benchmark figure (bench/cluster/RESULTS.md),
  // not asserted here: on a loaded 2-core machine failure detection alone can take longer.
  private static final long SERVED_AGAIN_BOUND_NANOS = Duration.ofSeconds(30).toNanos();

  @TempDir(cleanup = CleanupMode.ON_SUCCESS) // a failed test keeps its hosts' logs
  Path dir;

  private ClusterProcesses cluster;
  private List<ServerProcess> hosts;
  private List<String> addresses;

  @BeforeEach
  void openCluster() {
    cluster = new ClusterProcesses(dir, "failover-test");
    hosts = cluster.hosts;
    addresses = cluster.addresses;
  }

  @AfterEach
  void stopEverything() throws Exception {
    cluster.close();
  }

  @Test
  void shouldFailOverAKilledLeaderHostWithinFiveSecondsKeepingEveryAcknowledgedWrite() throws Exception {
    startCluster();
    final int victim = victimHost();
    final PartitaClient all = client(true, addresses.toArray(new String[0]));
    final String probe = keyLedBy(victim);
    // Routes by the formation's topology until it hears of a newer one: it must follow the new leader.
    final PartitaClient idle = client(false, addresses.get(survivors(victim).get(0)),
        addresses.get(survivors(victim).get(1)));
    final Firehose load = new Firehose(all);
    load.start();
    Thread.sleep(2000);
    assertTrue(load.acknowledged.size() > 0, "the firehose had writes acknowledged before the kill");

    final long killed = System.nanoTime();
    hosts.get(victim).kill();
    final long failoverNanos = firstSuccess(all, probe, killed);
    System.out.printf("failover: host %d killed; first successful call on its partition %.2f s after the kill%n",
        victim, failoverNanos / 1e9);
    assertTrue(failoverNanos <= SERVED_AGAIN_BOUND_NANOS, "the partition served again "
        + failoverNanos / 1_000_000 + " ms after the kill, over the test's 30 s bound");
    // A call answered NOT_LEADER (routed round-robin while its leader's connection is gone) is sent again at the
    // new leader once the client read the new topology: every call succeeds without the caller retrying.
    for (int i = 0; i < 20; i++) {
      final ClientResponse answer = attempt(idle, "Put", probe, value(probe));
      assertTrue(answer != null && answer.ok(), "call " + i + " after the failover: "
          + (answer == null ? "no answer" : answer.errorCode() + " " + answer.message()));
    }
    // Every acknowledged write is on the survivors.
    stopAndReadBack(load, all, killed);
    // The partition that kept both copies (the one without the victim) has equal checksums on both.
    assertOnePairAgrees(survivors(victim));
    assertTrue(hosts.get((victim + 1) % 3).output().contains("failover: this host")
        || hosts.get((victim + 2) % 3).output().contains("failover: this host"), "a survivor logged the failover");
  }

  /**
   * The metadata leader's own host killed: a new metadata leader is elected
   * first, and it counts the old leader's silence from its last heartbeat,
   * not from the election (the failover time is printed against the
   * timeout; bench/cluster/RESULTS.md records it). The host is restarted
   * with {@code --rejoin} at once, before the cluster declared it dead (a
   * 20 s timeout leaves its new process time to start first even on a
   * loaded machine, where a JVM took over 10 s to register): the new process waits for that and rejoins (it was
   * refused as "already registered and up" before).
   */
  @Test
  void shouldFailOverTheMetadataLeadersHostAndTakeItBackWhenRestartedAtOnce() throws Exception {
    startCluster(KV_DDL, "--heartbeat-timeout", "20s");
    final int victim = cluster.metadataLeader();
    final String probe = keyLedBy(victim);
    final PartitaClient others = client(true, addresses.get(survivors(victim).get(0)),
        addresses.get(survivors(victim).get(1)));
    assertTrue(callUntilAnswered(others, "Put", probe, value(probe)).ok());

    final long killed = System.nanoTime();
    hosts.get(victim).kill();
    final CompletableFuture<ServerProcess> back = CompletableFuture.supplyAsync(() -> {
      try {
        return cluster.rejoin(victim);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    });
    final long failoverNanos = firstSuccess(others, probe, killed);
    System.out.printf("failover: host %d, the metadata leader's, killed; first successful call on its partition"
        + " %.2f s after the kill (heartbeat timeout 20 s)%n", victim, failoverNanos / 1e9);
    assertTrue(failoverNanos <= Duration.ofSeconds(20).toNanos() + SERVED_AGAIN_BOUND_NANOS, "the partition served again "
        + failoverNanos / 1e9 + " s after the kill");
    final ServerProcess rejoined = back.get(180, TimeUnit.SECONDS);
    assertTrue(rejoined.output().contains("previous incarnation is still listed as up"), rejoined.output());
    assertEquals(2, awaitRejoined(victim).size(), () -> "the restarted host's two copies came back:\n"
        + rejoined.output());
  }

  @Test
  void shouldStopServingAHostPausedPastTheHeartbeatTimeout() throws Exception {
    // Leaders stay where the failover put them: the rejoined host is checked to lead nothing.
    startCluster(KV_DDL, "--leader-rebalance-delay", "0");
    final int victim = victimHost();
    // A paused host keeps its connections open, so the probing client talks to the other two only.
    final List<Integer> others = survivors(victim);
    final PartitaClient all = client(false, addresses.get(others.get(0)), addresses.get(others.get(1)));
    final PartitaClient victimOnly = client(false, addresses.get(victim));
    final String probe = keyLedBy(victim);
    assertTrue(attempt(victimOnly, "Put", probe, value(probe)).ok());

    signal(hosts.get(victim), "STOP");
    final long paused = System.nanoTime();
    // Sent to the paused host: it waits in the socket until the host runs again, in its old epoch.
    final CompletableFuture<ClientResponse> stale = victimOnly.callAsync("Put", probe + "-stale", value(probe));
    final long failoverNanos = firstSuccess(all, probe, paused);
    System.out.printf("failover: host %d paused; first successful call on its partition %.2f s after SIGSTOP%n",
        victim, failoverNanos / 1e9);
    signal(hosts.get(victim), "CONT");
    final ServerProcess resumed = hosts.get(victim);
    final long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!resumed.output().contains("stops serving") && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertTrue(resumed.output().contains("stops serving"), resumed.output());

    final ClientResponse staleAnswer = stale.handle((answer, error) -> error == null ? answer : null).join();
    assertTrue(staleAnswer == null || !staleAnswer.ok(),
        "a write sent to the deposed host in its old epoch was acknowledged");
    final ClientResponse missing = callUntilAnswered(all, "Get", probe + "-stale");
    assertTrue(missing.ok(), missing.message());
    assertFalse(missing.results().get(0).advanceRow(), "the deposed host's write reached the new leader");
    // Declared dead, it rejoins by itself: a new incarnation in the same process, on the same client port.
    assertEquals(2, awaitRejoined(victim).size(), () -> "the resumed host's two copies came back:\n"
        + resumed.output());
    assertTrue(resumed.output().contains("partita: rejoining: the metadata group declared this host's incarnation"),
        resumed.output());
    final PartitaClient again = client(false, addresses.get(victim));
    final ClientResponse write = attempt(again, "Put", probe + "-after", value(probe));
    assertEquals(ErrorCode.ERROR_CODE_NOT_LEADER, write.errorCode(), write.message());
    final ClientResponse read = attempt(again, "Get", probe);
    assertEquals(ErrorCode.ERROR_CODE_NOT_LEADER, read.errorCode(), read.message());
    assertArrayEquals(value(probe), row(callUntilAnswered(all, "Get", probe)));
    assertEveryPairAgrees();
  }

  /**
   * Waits (at most 120 s) until the survivors of {@code victim} logged that it rejoined both the partitions it
   * held; returns what they logged ("partition P: T ms, longest chunk pause U us").
   */
  private List<String> awaitRejoined(int victim) throws InterruptedException {
    final Pattern rejoined = Pattern.compile("rejoin: partition (\\d+): host " + victim + " rejoined in (\\d+) ms"
        + "[^\\n]*longest pause of this partition for a chunk (\\d+) us");
    final long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
    List<String> done = List.of();
    while (System.nanoTime() < deadline) {
      done = new ArrayList<>();
      for (int h : survivors(victim)) {
        final Matcher m = rejoined.matcher(hosts.get(h).output());
        while (m.find()) {
          done.add("partition " + m.group(1) + ": " + m.group(2) + " ms, longest chunk pause " + m.group(3) + " us");
        }
      }
      if (done.size() == 2) {
        break;
      }
      Thread.sleep(100);
    }
    return done;
  }

  /** Every partition's two copies (on all three hosts) have equal checksums. */
  private void assertEveryPairAgrees() {
    final Map<Integer, List<Long>> checksums = checksums(List.of(0, 1, 2));
    assertEquals(3, checksums.size(), "every partition has copies: " + checksums);
    for (Map.Entry<Integer, List<Long>> copies : checksums.entrySet()) {
      assertEquals(2, copies.getValue().size(), "partition " + copies.getKey() + ": " + checksums);
      assertEquals(copies.getValue().get(0), copies.getValue().get(1), "partition " + copies.getKey());
    }
  }

  /**
   * A deliberately nondeterministic procedure (it writes the local clock) makes a replica's write hash differ:
   * the replica stops its copy, and its leader asks the metadata group for an epoch without it, so the held
   * answer leaves and the partition serves on (docs/cluster.md, "Hash mismatch").
   */
  @Test
  void shouldDropAReplicaWhoseWriteHashDifferedSoAnswersFlowAgain() throws Exception {
    final Path ddl = dir.resolve("clock.sql");
    java.nio.file.Files.writeString(ddl, """
        CREATE TABLE kv (k BIGINT NOT NULL PRIMARY KEY, v BIGINT);
        PARTITION TABLE kv ON COLUMN k;
        CREATE PROCEDURE Put PARTITION ON TABLE kv COLUMN k PARAMETER 0 AS UPSERT INTO kv (k, v) VALUES (?, ?);
        CREATE PROCEDURE PARTITION ON TABLE kv COLUMN k FROM CLASS org.partita.server.replication.procs.WriteClock;
        """);
    startCluster(ddl, "--classes", ServerProcess.ROOT.resolve("host-java/server/target/test-classes").toString());
    final PartitaClient all = client(true, addresses.toArray(new String[0]));
    assertTrue(attempt(all, "Put", 7L, 1L).ok());
    final long start = System.nanoTime();
    final ClientResponse clock = attempt(all, "WriteClock", 7L);
    assertTrue(clock != null && clock.ok(), "the leader's answer was released once the replica was dropped: "
        + (clock == null ? "no answer" : clock.message()));
    System.out.printf("hash mismatch: the diverged replica was dropped and the answer released after %.2f s%n",
        (System.nanoTime() - start) / 1e9);
    assertTrue(attempt(all, "Put", 7L, 2L).ok(), "the partition serves on");
    assertTrue(hosts.stream().anyMatch(h -> h.output().contains("stopped: transaction")),
        "a replica logged that its copy stopped");
    assertTrue(hosts.stream().anyMatch(h -> h.output().contains("asked the metadata group to drop replica host")),
        "the leader asked for an epoch without it");
  }

  /**
   * A write whose leader host dies after the write ran on both copies but
   * before its answer left (the replica paused so the answer is held; the
   * leader killed once its copy shows the write) is sent again by the
   * client with the same session and handle, follows the partition to its
   * survivor, and is answered there from the survivor's de-duplication
   * table: it ran once (one row; the table has no key, so a second run
   * would add a second row). docs/cluster.md, "Client de-duplication".
   */
  @Test
  void shouldRunAWriteSentAgainAfterItsLeaderHostWasKilledExactlyOnce() throws Exception {
    final EntriesCluster at = startEntriesCluster();
    final long before = checksumOn(at.leaderOnly(), at.partition());
    final PartitaClient writer = cluster.client(Duration.ofSeconds(60), true, addresses.get(at.leader()));
    final long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (writer.connectedServers().size() < 3 && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertEquals(3, writer.connectedServers().size(), "the writer discovered every host");
    // The routes come after the logins (@SystemCatalog PROCEDURES): a write sent before them is not routed, and
    // a call the client did not route is not sent again when its outcome becomes unknown.
    while (writer.partitionOf("AddEntry", at.key(), "once") < 0 && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertEquals(at.partition(), writer.partitionOf("AddEntry", at.key(), "once"),
        "the writer routes the write to its leader");

    // Idle connections to the host that survives untouched: a raw one asking for topology pushes, and a client.
    final int bystander = (at.leader() + 2) % 3;
    final String[] hostPort = addresses.get(bystander).split(":");
    final RawConnection pushed = new RawConnection(hostPort[0], Integer.parseInt(hostPort[1]));
    final long formationVersion = pushed.login(LoginRequest.newBuilder().setProtocolVersion(1)
        .setClientName("push-test").setAcceptsTopologyPush(true).build()).getTopology().getTopologyVersion();
    final PartitaClient idle = client(false, addresses.get(bystander));
    assertEquals(formationVersion, idle.topologyVersion());

    signal(hosts.get(at.replica()), "STOP");
    final CompletableFuture<ClientResponse> write = writer.callAsync("AddEntry", at.key(), "once");
    // The leader ran it (its copy changed); its answer waits for the paused replica's acknowledgement.
    while (checksumOn(at.leaderOnly(), at.partition()) == before) {
      assertTrue(System.nanoTime() < deadline, "the leader did not run the write");
      Thread.sleep(20);
    }
    assertFalse(write.isDone(), "answered without the replica's acknowledgement");
    hosts.get(at.leader()).kill();
    signal(hosts.get(at.replica()), "CONT");

    final ClientResponse answer = write.join();
    assertTrue(answer.ok(), "the write sent again was answered: " + answer.errorCode() + " " + answer.message());
    final ClientResponse rows = callUntilAnswered(writer, "CountEntries", at.key());
    assertTrue(rows.ok(), rows.message());
    assertEquals(1, rows.firstLong(), "the write ran exactly once");

    // The failover's map reached the idle connections unasked (docs/wire-protocol.md, "Topology push").
    try (pushed) {
      pushed.setReadTimeoutMillis(60_000);
      final ServerMessage push = pushed.read();
      assertEquals(ServerMessage.KindCase.TOPOLOGY_PUSH, push.getKindCase(), push.toString());
      final Topology topology = push.getTopologyPush().getTopology();
      assertTrue(topology.getTopologyVersion() > formationVersion, topology.toString());
      assertTrue(topology.getPartitionLeadersList().stream().noneMatch(h -> h == at.leader()),
          "the killed host leads nothing in the pushed map: " + topology);
    }
    final long idleDeadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (idle.topologyVersion() == formationVersion && System.nanoTime() < idleDeadline) {
      Thread.sleep(10);
    }
    assertTrue(idle.topologyVersion() > formationVersion, "the idle client followed the pushed map");
  }

  /**
   * The de-duplication table travels with a rejoin's snapshot
   * (docs/cluster.md, "Client de-duplication"): a write of a client session
   * runs on a partition's two copies; the replica's host is killed and
   * rejoins (its copy rebuilt from the leader's snapshot), then the leader's
   * host is killed, so the rejoined copy leads. The write sent again in its
   * session with its handle is answered from the table the rejoined copy
   * loaded: one row (with an empty table there it would run again: two).
   */
  @Test
  void aRejoinedCopyAnswersACallSentAgainFromBeforeItsSnapshotFromTheTable() throws Exception {
    final EntriesCluster at = startEntriesCluster();
    final long session = 0x5E55_7077L;
    try (RawConnection first = sessionOn(addresses.get(at.leader()), session)) {
      final org.partita.client.proto.InvocationResponse ran = first.call(7, "AddEntry", at.key(), "once");
      assertEquals(org.partita.client.proto.CallStatus.CALL_STATUS_SUCCESS, ran.getStatus(), ran.toString());
    }

    // A key the replica's host leads: served again by its other copy once the host is declared dead.
    final PartitaClient replicaOnly = client(false, addresses.get(at.replica()));
    long replicaKey = -1;
    for (long k = 1; k < 1000 && replicaKey < 0; k++) {
      if (attempt(replicaOnly, "CountEntries", k).ok()) {
        replicaKey = k;
      }
    }
    assertTrue(replicaKey > 0, "host " + at.replica() + " leads some key");
    hosts.get(at.replica()).kill();
    // Restarted only once the cluster declared it dead (a host still registered as up is refused).
    final PartitaClient others = client(true, addresses.get(at.leader()), addresses.get((at.leader() + 2) % 3));
    final long failedOver = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (true) {
      final ClientResponse served = attempt(others, "CountEntries", replicaKey);
      if (served != null && served.ok()) {
        break;
      }
      assertTrue(System.nanoTime() < failedOver, "the killed host's partition was not served again within 60 s");
      Thread.sleep(50);
    }
    final ServerProcess back = cluster.rejoin(at.replica());
    final String rejoined = "rejoin: partition " + at.partition() + ": host " + at.replica() + " rejoined";
    final long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
    while (!hosts.get(at.leader()).output().contains(rejoined)) {
      assertTrue(System.nanoTime() < deadline, () -> "partition's copy did not rejoin:\n"
          + hosts.get(at.leader()).output() + "\n" + back.output());
      Thread.sleep(100);
    }

    hosts.get(at.leader()).kill();
    final PartitaClient survivor = client(false, addresses.get(at.replica()));
    final ClientResponse count = callUntilAnswered(survivor, "CountEntries", at.key());
    assertTrue(count.ok(), count.message());
    assertEquals(1, count.firstLong(), "the write is in the rejoined copy's snapshot");
    try (RawConnection retry = sessionOn(addresses.get(at.replica()), session)) {
      final org.partita.client.proto.InvocationResponse answered = retry.call(7, "AddEntry", at.key(), "once");
      assertEquals(org.partita.client.proto.CallStatus.CALL_STATUS_SUCCESS, answered.getStatus(), answered.toString());
    }
    assertEquals(1, callUntilAnswered(survivor, "CountEntries", at.key()).firstLong(),
        "sent again after the rejoin and a failover: answered from the loaded table, not run again");
  }

  /**
   * Where the de-duplication tests write: a host that leads a partition and
   * not the metadata group ({@code leader}), the host of that partition's
   * other copy ({@code replica}: formation's placement puts the copy of the
   * partition host h leads on host h + 1 mod 3, docs/cluster.md, "What
   * K >= 1 does today"), a client of the leader alone, a key of the
   * partition and the partition.
   */
  private record EntriesCluster(int leader, int replica, PartitaClient leaderOnly, long key, int partition) {}

  /** Starts the cluster on the entries schema and finds where its writes go. */
  private EntriesCluster startEntriesCluster() throws IOException, InterruptedException {
    startCluster(EntriesSchema.writeTo(dir));
    final int leader = victimHost();
    final PartitaClient leaderOnly = client(false, addresses.get(leader));
    final long key = entryKeyLedBy(leaderOnly);
    assertTrue(key > 0, "host " + leader + " leads some key");
    return new EntriesCluster(leader, (leader + 1) % 3, leaderOnly, key, ledPartition(leaderOnly));
  }

  /** The first key of the entries table that the host {@code only} reaches leads, or -1. */
  private static long entryKeyLedBy(PartitaClient only) {
    for (long k = 1; k < 1000; k++) {
      if (attempt(only, "CountEntries", k).ok()) {
        return k;
      }
    }
    return -1;
  }

  /** A raw connection to {@code address} logged in with client session {@code session}. */
  private static RawConnection sessionOn(String address, long session) throws IOException {
    final String[] hostPort = address.split(":");
    final RawConnection c = new RawConnection(hostPort[0], Integer.parseInt(hostPort[1]));
    assertEquals(org.partita.client.proto.LoginStatus.LOGIN_STATUS_OK, c.login(LoginRequest.newBuilder()
        .setProtocolVersion(1).setClientName("rejoin-dedup-test").setClientSession(session).build()).getStatus());
    return c;
  }

  /** The partition the host {@code only} reaches leads (each host leads one in this placement). */
  private static int ledPartition(PartitaClient only) {
    final ClientResponse answer = only.callAsync("@Statistics", "CHECKSUM").join();
    assertTrue(answer.ok(), answer.message());
    final ResultTable table = answer.results().get(0);
    int led = -1;
    while (table.advanceRow()) {
      if (table.getLong(1) == 1) {
        led = (int) table.getLong(0);
      }
    }
    assertTrue(led >= 0, "the host leads a partition");
    return led;
  }

  /** The checksum of partition {@code partition}'s copy on the host {@code only} reaches. */
  private static long checksumOn(PartitaClient only, int partition) {
    final ClientResponse answer = only.callAsync("@Statistics", "CHECKSUM").join();
    assertTrue(answer.ok(), answer.message());
    final ResultTable table = answer.results().get(0);
    while (table.advanceRow()) {
      if (table.getLong(0) == partition) {
        return table.getLong(4);
      }
    }
    throw new AssertionError("no copy of partition " + partition);
  }

  /**
   * Rejoin (docs/cluster.md, "Rejoin"): a leader's host killed under the
   * firehose fails over, is started again with {@code --rejoin} and gets a
   * copy of each partition it held back from their leaders (snapshot, then
   * the items after it) while the writes go on; then another host is killed:
   * the partitions it held are served by their copies, the rejoined ones
   * among them, every acknowledged write is read back and the partition that
   * kept both copies (one on the rejoined host) has equal checksums.
   */
  @Test
  void shouldRejoinAKilledHostUnderLoadAndThenSurviveTheLossOfAnother() throws Exception {
    startCluster();
    final int victim = victimHost();
    final PartitaClient all = client(true, addresses.toArray(new String[0]));
    final String probe = keyLedBy(victim);
    final Firehose load = new Firehose(all);
    load.start();
    Thread.sleep(2000);
    final long killed = System.nanoTime();
    hosts.get(victim).kill();
    firstSuccess(all, probe, killed);

    final long restarted = System.nanoTime();
    final ServerProcess back = cluster.rejoin(victim);
    // The victim held two copies (it led one partition and was a replica of another): both come back.
    final List<String> done = awaitRejoined(victim);
    assertEquals(2, done.size(), () -> "the victim's two copies came back: " + hosts.get(survivors(victim).get(0))
        .output() + "\n" + hosts.get(survivors(victim).get(1)).output() + "\n" + back.output());
    System.out.printf("rejoin: host %d restarted; its copies back %.2f s after the restart: %s%n", victim,
        (System.nanoTime() - restarted) / 1e9, done);
    final long rejoinedAt = System.nanoTime();
    Thread.sleep(1000);
    assertTrue(load.acknowledgedAfter(rejoinedAt) > 0, "writes were acknowledged with the rejoined copies required");

    // Another host dies: the partitions it held fail over to their other copies, the rejoined ones among them.
    final int second = survivors(victim).get(0) == metadataLeader() ? survivors(victim).get(1)
        : survivors(victim).get(0);
    final String secondProbe = keyLedBy(second);
    final long secondKilled = System.nanoTime();
    hosts.get(second).kill();
    firstSuccess(all, secondProbe, secondKilled);
    firstSuccess(all, probe, secondKilled);
    stopAndReadBack(load, all, secondKilled);
    // The partition without a copy on the second victim kept both, one of them rejoined: they agree.
    assertOnePairAgrees(survivors(second));
  }

  /**
   * Lets the firehose run one more second, stops it, checks that writes were acknowledged after
   * {@code killed}, and reads every acknowledged write back through {@code client}.
   */
  static void stopAndReadBack(Firehose load, PartitaClient client, long killed) throws InterruptedException {
    Thread.sleep(1000);
    load.stop();
    assertTrue(load.acknowledgedAfter(killed) > 0, "writes were acknowledged after the failover");
    // Read with 64 calls in flight; a read that did not succeed is made again one at a time until answered.
    final Semaphore window = new Semaphore(64);
    final Set<String> again = ConcurrentHashMap.newKeySet();
    final Map<String, String> wrong = new ConcurrentHashMap<>();
    for (String key : load.acknowledged) {
      window.acquire();
      client.callAsync("Get", key).whenComplete((answer, error) -> {
        try {
          if (error != null || !answer.ok()) {
            again.add(key);
          } else if (!answer.results().get(0).advanceRow()) {
            wrong.put(key, "no row");
          } else if (!java.util.Arrays.equals(value(key), answer.results().get(0).getBytes(0))) {
            wrong.put(key, "another value");
          }
        } finally {
          window.release();
        }
      });
    }
    window.acquire(64);
    assertEquals(Map.of(), wrong, "acknowledged writes read back wrong");
    for (String key : again) {
      final ClientResponse answer = callUntilAnswered(client, "Get", key);
      assertTrue(answer.ok(), key + ": " + answer.message());
      assertArrayEquals(value(key), row(answer), key);
    }
  }

  /**
   * On {@code hostIds} (two of the three) every partition has a copy, and the one partition with a copy on both
   * has equal checksums.
   */
  private void assertOnePairAgrees(List<Integer> hostIds) {
    final Map<Integer, List<Long>> checksums = checksums(hostIds);
    assertEquals(3, checksums.size(), "every partition still has a copy: " + checksums);
    int paired = 0;
    for (Map.Entry<Integer, List<Long>> copies : checksums.entrySet()) {
      if (copies.getValue().size() == 2) {
        paired++;
        assertEquals(copies.getValue().get(0), copies.getValue().get(1), "partition " + copies.getKey());
      }
    }
    assertEquals(1, paired, "one partition kept both its copies: " + checksums);
  }

  private void startCluster() throws IOException, InterruptedException {
    startCluster(KV_DDL);
  }

  private void startCluster(Path schema, String... extra) throws IOException, InterruptedException {
    cluster.start(3, 1, 2, schema, extra);
  }

  private int metadataLeader() {
    return cluster.loggedMetadataLeader();
  }

  /** A host other than the metadata leader (each host leads one partition). */
  private int victimHost() throws InterruptedException {
    return (cluster.metadataLeader() + 1) % hosts.size();
  }

  private String keyLedBy(int host) {
    return cluster.keyLedBy(host);
  }

  /** Nanoseconds from {@code since} to the first successful write of {@code key} (retried every 20 ms). */
  static long firstSuccess(PartitaClient client, String key, long since) throws InterruptedException {
    return firstSuccess(client, key, since, null);
  }

  /**
   * {@link #firstSuccess(PartitaClient, String, long)}, each attempt waiting at most {@code perAttempt} (null: its
   * call timeout): a call that reached a paused host waits there for its call timeout, not for the failover.
   */
  static long firstSuccess(PartitaClient client, String key, long since, Duration perAttempt)
      throws InterruptedException {
    final long deadline = since + Duration.ofSeconds(60).toNanos();
    while (System.nanoTime() < deadline) {
      final CompletableFuture<ClientResponse> call = client.callAsync("Put", key, value(key))
          .handle((a, e) -> e == null ? a : null);
      final ClientResponse answer = (perAttempt == null ? call
          : call.completeOnTimeout(null, perAttempt.toMillis(), TimeUnit.MILLISECONDS)).join();
      if (answer != null && answer.ok()) {
        return System.nanoTime() - since;
      }
      Thread.sleep(20);
    }
    throw new AssertionError("the partition of " + key + " did not serve within 60 s");
  }

  /** The answer, or null when the call failed without one (its connection was lost, or it timed out). */
  static ClientResponse attempt(PartitaClient client, String procedure, Object... parameters) {
    return client.callAsync(procedure, parameters).handle((answer, error) -> error == null ? answer : null).join();
  }

  /** Calls until the answer is not NOT_LEADER and came (a client routing by an old topology, a lost connection). */
  static ClientResponse callUntilAnswered(PartitaClient client, String procedure, Object... parameters)
      throws InterruptedException {
    ClientResponse answer = null;
    for (int n = 0; n < 200; n++) {
      answer = attempt(client, procedure, parameters);
      if (answer != null && answer.errorCode() != ErrorCode.ERROR_CODE_NOT_LEADER) {
        return answer;
      }
      Thread.sleep(20);
    }
    throw new AssertionError(procedure + " was not answered by a leader in 200 attempts: "
        + (answer == null ? "no answer" : answer.message()));
  }

  private Map<Integer, List<Long>> checksums(List<Integer> hostIds) {
    return cluster.checksums(hostIds);
  }

  private static List<Integer> survivors(int victim) {
    final List<Integer> out = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      if (i != victim) {
        out.add(i);
      }
    }
    return out;
  }

  private PartitaClient client(boolean discoverHosts, String... servers) {
    return cluster.client(discoverHosts, servers);
  }

  static void signal(ServerProcess host, String signal) throws IOException, InterruptedException {
    if (host.isAlive()) {
      new ProcessBuilder("kill", "-" + signal, Long.toString(host.pid())).inheritIO().start().waitFor();
    }
  }

  static byte[] value(String key) {
    return ("value-of-" + key).getBytes(StandardCharsets.UTF_8);
  }

  static byte[] row(ClientResponse answer) {
    final ResultTable table = answer.results().get(0);
    assertTrue(table.advanceRow(), "no row");
    return table.getBytes(0);
  }

  /** Writes distinct keys with at most 64 calls in flight until stopped; records the acknowledged ones. */
  static final class Firehose {
    final Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    private final Map<String, Long> acknowledgedAt = new ConcurrentHashMap<>();
    /** Each call that failed: when it was sent, and why (its error code and message, or the exception). */
    private final Map<String, Long> failedSentAt = new ConcurrentHashMap<>();
    private final Map<String, String> failures = new ConcurrentHashMap<>();
    private final PartitaClient client;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Semaphore inFlight = new Semaphore(64);
    private final Thread thread;

    Firehose(PartitaClient client) {
      this.client = client;
      this.thread = new Thread(this::run, "firehose");
    }

    void start() {
      thread.start();
    }

    private void run() {
      for (long n = 0; running.get(); n++) {
        inFlight.acquireUninterruptibly();
        final String key = "fire" + n;
        final long sent = System.nanoTime();
        client.callAsync("Put", key, value(key)).whenComplete((answer, error) -> {
          if (error == null && answer.ok()) {
            acknowledged.add(key);
            acknowledgedAt.put(key, System.nanoTime());
          } else {
            failures.put(key, error != null ? error.toString() : answer.errorCode() + " " + answer.message());
            failedSentAt.put(key, sent);
          }
          inFlight.release();
        });
      }
    }

    /** The calls sent after {@code nanos} that failed, with why. */
    Map<String, String> failedSentAfter(long nanos) {
      final Map<String, String> out = new java.util.TreeMap<>();
      failedSentAt.forEach((key, at) -> {
        if (at > nanos) {
          out.put(key, failures.get(key));
        }
      });
      return out;
    }

    long acknowledgedAfter(long nanos) {
      return acknowledgedAt.values().stream().filter(t -> t > nanos).count();
    }

    void stop() throws InterruptedException {
      running.set(false);
      thread.join(30_000);
      inFlight.acquire(64);
      inFlight.release(64);
    }
  }
}
