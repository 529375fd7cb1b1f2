package org.partita.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.client.ClientConfig;
import org.partita.client.ClientResponse;
import org.partita.client.PartitaClient;
import org.partita.client.ResultTable;
import org.partita.client.proto.CallStatus;
import org.partita.client.proto.InvocationResponse;
import org.partita.client.proto.LoginRequest;
import org.partita.client.proto.LoginStatus;
import org.partita.proto.ErrorCode;

/**
 * Multi-partition transfers across real {@code partita start --cluster}
 * processes while a host is killed (docs/cluster.md, "When a host dies
 * mid-transaction"): three hosts, K = 1, two sites each (partitions on
 * hosts {0,1}, {2,0}, {1,2}, led by 0, 2 and 1; host 0 leads partition 0
 * and so coordinates). Transfers keep arriving at the two survivors (the
 * coordinator's host forwards nothing; the others forward to it) while one
 * host is killed with SIGKILL: a participant's host (2), or the
 * coordinator's (0), after which host 1, the new leader of partition 0,
 * coordinates. No transfer waits forever: every one is answered, committed,
 * refused by its procedure, "not run" or OUTCOME_UNKNOWN; transfers commit
 * again after the failover; the copies still paired agree by
 * {@code @Statistics CHECKSUM}; a replicated-table write runs through the
 * coordinator afterwards; the total of every balance is the opening total
 * on both survivors (the prepare step: a transaction the kill interrupts
 * while it commits is committed on every partition or on none).
 * Every process is stopped by its handle.
 */
@Timeout(400)
class ClusterMultiPartitionFailoverTest {
  private static final int ACCOUNTS = 30;
  private static final long OPENING = 1_000;
  /** Answers a transfer may get across a failover (besides success); anything else fails the test. */
  private static final Set<ErrorCode> FAILOVER_ANSWERS = Set.of(ErrorCode.ERROR_CODE_OUTCOME_UNKNOWN,
      ErrorCode.ERROR_CODE_PARTITION_UNAVAILABLE, ErrorCode.ERROR_CODE_NOT_LEADER);

  @TempDir
  Path dir;

  private final List<ServerProcess> hosts = new ArrayList<>();
  private final List<String> addresses = new ArrayList<>();
  private final List<PartitaClient> clients = new ArrayList<>();

  @AfterEach
  void stopEverything() throws InterruptedException {
    clients.forEach(PartitaClient::close);
    for (ServerProcess host : hosts) {
      host.close();
    }
  }

  @Test
  void shouldKeepTheTotalWhenAParticipantsHostIsKilledMidRun() throws Exception {
    transfersThroughAKill(2);
  }

  @Test
  void shouldKeepTheTotalWhenTheCoordinatorsHostIsKilledMidRun() throws Exception {
    transfersThroughAKill(0);
    assertTrue(hosts.get(1).output().contains("this host coordinates from now on"), "host 1 took over");
  }

  /**
   * A transfer of a client session, answered, sent again with the same
   * session and handle after the coordinator's host (0) was killed: host 1,
   * partition 0's new leader and so the new coordinator, answers it from its
   * copy of partition 0's de-duplication table (the transfer's decision item
   * brought the record and its answer there), and it ran once
   * (docs/cluster.md, "Client de-duplication"). Without the record it runs
   * again: the source pays twice.
   */
  @Test
  void shouldRunATransferSentAgainAfterTheCoordinatorsHostWasKilledOnce() throws Exception {
    startBankCluster();
    final PartitaClient all = client(true, addresses.toArray(new String[0]));
    final long from = 1;
    ok(all.call("OpenAccount", from, 1, OPENING, "from"));
    final long routed = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (all.partitionOf("OpenAccount", from) < 0) {
      assertTrue(System.nanoTime() < routed, "the client has the routes");
      Thread.sleep(20);
    }
    long to = 2;
    while (all.partitionOf("OpenAccount", to) == all.partitionOf("OpenAccount", from)) {
      to++;
    }
    ok(all.call("OpenAccount", to, 1, OPENING, "to"));
    final long session = 0x5E55_3B0A_0001L;
    // Sent to host 2, which forwards it to host 0, the coordinator.
    final InvocationResponse first = sessionCall(2, session, 7, "Transfer", from, to, 40L);
    assertEquals(CallStatus.CALL_STATUS_SUCCESS, first.getStatus(), first.toString());
    hosts.get(0).kill();

    final InvocationResponse again = sessionCallOnSurvivors(session, 7, "Transfer", from, to, 40L);
    assertEquals(CallStatus.CALL_STATUS_SUCCESS, again.getStatus(), again.toString());
    assertEquals(first.getResultsList(), again.getResultsList(), "the first answer's results");
    final PartitaClient survivor = client(false, addresses.get(1), addresses.get(2));
    assertEquals(OPENING - 40, balanceOf(survivor, from), "sent again after the coordinator died: run once");
    assertEquals(OPENING + 40, balanceOf(survivor, to));
    final InvocationResponse next = sessionCallOnSurvivors(session, 8, "Transfer", from, to, 40L);
    assertEquals(CallStatus.CALL_STATUS_SUCCESS, next.getStatus(), next.toString());
    assertEquals(OPENING - 80, balanceOf(survivor, from), "a new handle of the session runs");
  }

  /**
   * Transfers in flight through the Java client (one session) when the
   * coordinator's host (0) is paused and then killed: each one's outcome
   * becomes unknown (its connection to host 0 lost, or OUTCOME_UNKNOWN from
   * a host that forwarded it there), and the client sends it again in its
   * session until the new coordinator answers. Every transfer succeeds and
   * the source paid each exactly once.
   */
  @Test
  void shouldSendTransfersOfUnknownOutcomeAgainAndRunEachOnceThroughTheCoordinatorsKill() throws Exception {
    startBankCluster();
    final PartitaClient all = client(true, addresses.toArray(new String[0]));
    ok(all.call("OpenAccount", 1L, 1, OPENING, "from"));
    ok(all.call("OpenAccount", 2L, 1, OPENING, "to"));
    final long routed = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (all.connectedServers().size() < 3 || all.partitionOf("OpenAccount", 1L) < 0) {
      assertTrue(System.nanoTime() < routed, "the client knows every host and its routes");
      Thread.sleep(20);
    }
    FailoverTest.signal(hosts.get(0), "STOP");
    final List<java.util.concurrent.CompletableFuture<ClientResponse>> transfers = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      transfers.add(all.callAsync("Transfer", 1L, 2L, 1L));
    }
    hosts.get(0).kill();
    for (java.util.concurrent.CompletableFuture<ClientResponse> transfer : transfers) {
      ok(transfer.get(90, java.util.concurrent.TimeUnit.SECONDS));
    }
    final PartitaClient survivor = client(false, addresses.get(1), addresses.get(2));
    assertEquals(OPENING - 20, balanceOf(survivor, 1L), "every transfer ran once");
    assertEquals(OPENING + 20, balanceOf(survivor, 2L));
  }

  /** Sends the call on a raw connection of {@code session} to host {@code host}; its answer. */
  private InvocationResponse sessionCall(int host, long session, long handle, String procedure, Object... parameters)
      throws Exception {
    final String[] hostPort = addresses.get(host).split(":");
    try (RawConnection c = new RawConnection(hostPort[0], Integer.parseInt(hostPort[1]))) {
      assertEquals(LoginStatus.LOGIN_STATUS_OK, c.login(LoginRequest.newBuilder().setProtocolVersion(1)
          .setClientName("mp-dedup-session").setClientSession(session).build()).getStatus());
      return c.call(handle, procedure, parameters);
    }
  }

  /**
   * Sends the call of {@code session} to hosts 1 and 2 in turn, as a client
   * sends a call of unknown outcome again, while they answer as a failover
   * does (NOT_LEADER, OUTCOME_UNKNOWN, PARTITION_UNAVAILABLE), within 90 s;
   * the first other answer.
   */
  private InvocationResponse sessionCallOnSurvivors(long session, long handle, String procedure,
      Object... parameters) throws Exception {
    final long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    InvocationResponse last = null;
    while (System.nanoTime() < deadline) {
      for (int host = 1; host <= 2; host++) {
        last = sessionCall(host, session, handle, procedure, parameters);
        final ErrorCode code = ErrorCode.forNumber(last.getErrorCode());
        if (code == null || !FAILOVER_ANSWERS.contains(code)) {
          return last;
        }
      }
      Thread.sleep(100);
    }
    throw new AssertionError("the survivors answered " + procedure + " only as a failover does for 90 s: " + last);
  }

  private static long balanceOf(PartitaClient client, long id) throws InterruptedException {
    return callUntilAnswered(client, "@AdHoc", "SELECT balance FROM accounts WHERE id = " + id).firstLong();
  }

  /** Transfers through the kill of {@code victim}'s host; the total of every balance stays the opening total. */
  private void transfersThroughAKill(int victim) throws Exception {
    startBankCluster();
    final PartitaClient all = client(true, addresses.toArray(new String[0]));
    for (long id = 0; id < ACCOUNTS; id++) {
      ok(all.call("OpenAccount", id, 1, OPENING, "a" + id));
    }
    ok(all.callAsync("@AdHoc", "INSERT INTO regions (region_id, name) VALUES (1, 'north')").join());
    final List<PartitaClient> survivors = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      if (i != victim) {
        survivors.add(client(false, addresses.get(i)));
      }
    }
    final Transfers load = new Transfers(survivors);
    load.start();
    final long started = System.nanoTime();
    while (load.committed.get() < 50 && System.nanoTime() - started < Duration.ofSeconds(60).toNanos()) {
      Thread.sleep(50);
    }
    assertTrue(load.committed.get() >= 50, "transfers committed before the kill: " + load.committed.get());

    final long killed = System.nanoTime();
    hosts.get(victim).kill();
    final long committedAtKill = load.committed.get();
    final long deadline = killed + Duration.ofSeconds(90).toNanos();
    while (load.committed.get() < committedAtKill + 50 && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    final long after = load.committed.get() - committedAtKill;
    System.out.printf("multi-partition failover: host %d killed; %d transfers committed in the %.1f s after%n",
        victim, after, (System.nanoTime() - killed) / 1e9);
    load.stop();
    assertTrue(after >= 50, "transfers committed again after the kill of host " + victim + ": " + after
        + "; answers " + load.answers);
    assertTrue(load.unexpected.isEmpty(), "answers no failover explains: " + load.unexpected);

    final long expected = ACCOUNTS * OPENING;
    for (PartitaClient host : survivors) {
      final ClientResponse sum = callUntilAnswered(host, "@AdHoc", "SELECT SUM(balance) FROM accounts");
      assertEquals(expected, sum.firstLong(), "the total of every balance after " + load.answers);
    }
    // A replicated-table write through the coordinator after the failover (a new one when host 0 was killed,
    // whose merge engine took the replicated tables from its copy of partition 0), read back on both survivors.
    assertEquals(1, callUntilAnswered(survivors.get(0), "@AdHoc",
        "UPDATE regions SET name = 'south' WHERE region_id = 1").firstLong(), "one replicated row updated");
    for (PartitaClient host : survivors) {
      final ResultTable region = callUntilAnswered(host, "@AdHoc", "SELECT name FROM regions WHERE region_id = 1")
          .results().get(0);
      assertTrue(region.advanceRow());
      assertEquals("south", region.getString(0));
    }
    final Map<Integer, List<Long>> checksums = new TreeMap<>();
    for (PartitaClient host : survivors) {
      final ResultTable table = ok(host.callAsync("@Statistics", "CHECKSUM").join()).results().get(0);
      while (table.advanceRow()) {
        checksums.computeIfAbsent((int) table.getLong(0), p -> new ArrayList<>()).add(table.getLong(4));
      }
    }
    assertEquals(3, checksums.size(), "every partition has a surviving copy: " + checksums);
    for (Map.Entry<Integer, List<Long>> copies : checksums.entrySet()) {
      if (copies.getValue().size() == 2) {
        assertEquals(copies.getValue().get(0), copies.getValue().get(1), "partition " + copies.getKey());
      }
    }
  }

  private void startBankCluster() throws Exception {
    addresses.addAll(ClusterMultiPartitionTest.startBankCluster(dir, hosts));
  }

  private PartitaClient client(boolean discoverHosts, String... servers) {
    final PartitaClient client = new PartitaClient(ClientConfig.builder().clientName("mp-failover-test")
        .callTimeout(Duration.ofSeconds(60)).discoverHosts(discoverHosts).build());
    clients.add(client);
    for (String address : servers) {
      client.connect(address);
    }
    return client;
  }

  private static ClientResponse ok(ClientResponse answer) {
    assertTrue(answer.ok(), answer.toString());
    return answer;
  }

  /** Calls until answered other than NOT_LEADER (a host switching coordinators answers it, not run). */
  private static ClientResponse callUntilAnswered(PartitaClient client, String procedure, Object... parameters)
      throws InterruptedException {
    ClientResponse answer = null;
    for (int n = 0; n < 100; n++) {
      answer = client.callAsync(procedure, parameters).join();
      if (answer.errorCode() != ErrorCode.ERROR_CODE_NOT_LEADER) {
        return ok(answer);
      }
      Thread.sleep(100);
    }
    throw new AssertionError(procedure + " answered NOT_LEADER 100 times: " + answer.message());
  }

  /** Transfers between random accounts through the survivors, at most 16 in flight, each answer counted. */
  private static final class Transfers {
    final AtomicLong committed = new AtomicLong();
    final Map<String, AtomicInteger> answers = new ConcurrentHashMap<>();
    final List<String> unexpected = java.util.Collections.synchronizedList(new ArrayList<>());
    private final List<PartitaClient> survivors;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Semaphore inFlight = new Semaphore(16);
    private final Thread thread = new Thread(this::run, "mp-failover-transfers");

    Transfers(List<PartitaClient> survivors) {
      this.survivors = survivors;
    }

    void start() {
      thread.start();
    }

    /** Stops sending and waits for every transfer sent to be answered (each within the client's timeout). */
    void stop() throws InterruptedException {
      running.set(false);
      thread.join();
      inFlight.acquire(16);
    }

    private void run() {
      final java.util.Random random = new java.util.Random(7);
      try {
        for (long i = 0; running.get(); i++) {
          inFlight.acquire();
          final long from = random.nextInt(ACCOUNTS);
          final long to = (from + 1 + random.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
          survivors.get((int) (i % survivors.size())).callAsync("Transfer", from, to, 1L + random.nextInt(20))
              .whenComplete((answer, failure) -> {
                try {
                  count(answer, failure);
                } finally {
                  inFlight.release();
                }
              });
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    private void count(ClientResponse answer, Throwable failure) {
      final String kind;
      if (failure != null) {
        kind = "exception";
        unexpected.add(failure.toString());
      } else if (answer.ok()) {
        kind = "ok";
        committed.incrementAndGet();
      } else if (answer.status() == ClientResponse.Status.USER_ABORT) {
        kind = "abort";
      } else {
        kind = answer.errorCode().name();
        if (!FAILOVER_ANSWERS.contains(answer.errorCode())) {
          unexpected.add(answer.errorCode() + " " + answer.message());
        }
      }
      answers.computeIfAbsent(kind, k -> new AtomicInteger()).incrementAndGet();
    }
  }
}
