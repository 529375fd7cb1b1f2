package org.partita.server.database;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.client.ClientResponse;
import org.partita.client.ResultTable;
import org.partita.proto.ErrorCode;
import org.partita.proto.cluster.ForwardedAnswer;
import org.partita.proto.cluster.FragmentAnswer;
import org.partita.server.compiler.CatalogCompiler;
import org.partita.server.compiler.CompiledCatalog;
import org.partita.server.compiler.SourceFile;
import org.partita.server.topology.PartitionMap;
import org.partita.server.txn.ImmediateCommitPipeline;

/**
 * Multi-partition transactions across three hosts meeting a failover
 * (docs/cluster.md, "When a host dies mid-transaction"), without sockets:
 * three databases in one process, each leading one partition and holding a
 * copy of the next host's, connected by an in-memory network in which a
 * host can be made silent (a dead host never answers). The failover is
 * what {@code host.ClusterFollower} does with a map from the metadata
 * group: {@link Database#lead} on the surviving copy, then
 * {@link Database#followMap} on every survivor. Copies are not replicated
 * here (the commit pipelines are immediate), so each test reads only rows
 * of partitions that kept their leader.
 */
@Timeout(120)
class CoordinatorFailoverTest {
  private static final String DDL = """
      CREATE TABLE account (id BIGINT NOT NULL PRIMARY KEY, balance BIGINT NOT NULL, ops BIGINT NOT NULL);
      PARTITION TABLE account ON COLUMN id;
      CREATE PROCEDURE Open PARTITION ON TABLE account COLUMN id PARAMETER 0
        AS INSERT INTO account (id, balance, ops) VALUES (?, ?, 0);
      CREATE PROCEDURE Balance PARTITION ON TABLE account COLUMN id PARAMETER 0
        AS SELECT balance FROM account WHERE id = ?;
      CREATE PROCEDURE FROM CLASS org.partita.server.replication.procs.MoveMoney;
      """;
  private static final long OPENING = 1_000;
  private static final int ACCOUNTS = 12;

  private final Database[] db = new Database[3];
  /** Hosts that never answer again (killed). */
  private final Set<Integer> dead = ConcurrentHashMap.newKeySet();
  /** Hosts whose incoming messages are held (a slow host): they run when released, or never if it dies. */
  private final Set<Integer> held = ConcurrentHashMap.newKeySet();
  private final List<Held> heldMessages = new ArrayList<>();
  /** Counted down when a join reaches host 2. */
  private final CountDownLatch joinedOnTwo = new CountDownLatch(1);
  private PartitionMap map;

  /** Partition p led by host p with its copy on host p+1; {@code leaders}/{@code epochs} override after a failover. */
  private static PartitionMap map(long version, int[] leaders, long[] epochs) {
    final int[] buckets = new int[PartitionMap.BUCKETS];
    for (int b = 0; b < buckets.length; b++) {
      buckets[b] = b % 3;
    }
    final List<PartitionMap.Replicas> partitions = new ArrayList<>();
    for (int p = 0; p < 3; p++) {
      final List<Integer> copies = leaders[p] == p ? List.of(p, (p + 1) % 3) : List.of(leaders[p]);
      partitions.add(new PartitionMap.Replicas(p, leaders[p], copies, epochs[p]));
    }
    return PartitionMap.of(version, buckets, partitions);
  }

  @BeforeEach
  void open() throws Exception {
    map = map(1, new int[] {0, 1, 2}, new long[] {1, 1, 1});
    final CompiledCatalog catalog = new CatalogCompiler(getClass().getClassLoader())
        .compile(List.of(new SourceFile("bank.sql", DDL)));
    for (int h = 0; h < 3; h++) {
      db[h] = Database.openHost(catalog, map, h, 1024, p -> ImmediateCommitPipeline.INSTANCE,
          QueryLimits.EMBEDDED);
    }
    for (int h = 0; h < 3; h++) {
      db[h].connectHosts(HostTransport.of(this::step, this::forward));
    }
    for (long id = 0; id < ACCOUNTS; id++) {
      ok(db[map.leaderOf(map.partitionOf(id))].call("Open", id, OPENING));
    }
  }

  @AfterEach
  void close() throws Exception {
    for (Database d : db) {
      if (d != null) {
        d.close();
      }
    }
  }

  private CompletableFuture<FragmentAnswer> step(int host, org.partita.proto.cluster.FragmentRequest request) {
    final CompletableFuture<FragmentAnswer> answer = new CompletableFuture<>();
    deliver(request.getCoordinatorHostId(), host, answer, () -> {
      if (host == 2 && request.hasJoin()) {
        joinedOnTwo.countDown();
      }
      db[host].serveFragment(request, a -> answerFrom(host, a, answer));
    });
    return answer;
  }

  private CompletableFuture<ForwardedAnswer> forward(int host, org.partita.proto.cluster.ForwardedCall call) {
    final CompletableFuture<ForwardedAnswer> answer = new CompletableFuture<>();
    deliver(call.getFromHostId(), host, answer, () -> db[host].serveForwarded(call,
        a -> answerFrom(host, a, answer)));
    return answer;
  }

  /** A message held for a slow host. */
  private record Held(int from, CompletableFuture<?> answer, Runnable delivery) {}

  /**
   * Delivers a message from {@code from} to {@code to}: one to a dead host is lost (its sender waits); one from
   * a dead host fails at once (what a killed process's own sockets do matters to nobody, and its threads end).
   */
  private synchronized void deliver(int from, int to, CompletableFuture<?> answer, Runnable delivery) {
    if (dead.contains(from)) {
      answer.completeExceptionally(new IllegalStateException("host " + from + " is dead"));
    } else if (dead.contains(to)) {
      return;
    } else if (held.contains(to)) {
      heldMessages.add(new Held(from, answer, delivery));
    } else {
      delivery.run();
    }
  }

  private <T> void answerFrom(int host, T answer, CompletableFuture<T> to) {
    if (!dead.contains(host)) {
      to.complete(answer);
    }
  }

  /** Host {@code host} is killed: it never answers again; what it sent that was held is lost. */
  private synchronized void kill(int host) {
    dead.add(host);
    held.remove(host);
    final List<Held> lost = new ArrayList<>(heldMessages);
    heldMessages.clear();
    for (Held message : lost) {
      if (message.from() == host) {
        message.answer().completeExceptionally(new IllegalStateException("host " + host + " is dead"));
      } else {
        heldMessages.add(message);
      }
    }
  }

  /** What host.ClusterFollower does on every survivor: the copy left alone leads, then every host follows. */
  private void failOver(PartitionMap next) {
    for (int h = 0; h < 3; h++) {
      if (dead.contains(h)) {
        continue;
      }
      for (int p = 0; p < 3; p++) {
        if (next.leaderOf(p) == h && map.leaderOf(p) != h) {
          db[h].lead(p, next.replicas(p).epoch(), ImmediateCommitPipeline.INSTANCE);
        }
      }
    }
    for (int h = 0; h < 3; h++) {
      if (!dead.contains(h)) {
        db[h].followMap(next);
      }
    }
    map = next;
  }

  /** An account on partition {@code p}. */
  private long account(int p) {
    for (long id = 0; ; id++) {
      if (map.partitionOf(id) == p) {
        return id;
      }
    }
  }

  private static ClientResponse ok(CompletableFuture<ClientResponse> call) throws Exception {
    final ClientResponse answer = call.get(60, TimeUnit.SECONDS);
    assertTrue(answer.ok(), answer.toString());
    return answer;
  }

  /** {@link #ok} of {@code call}, made again while it is answered NOT_LEADER (a coordinator starting), 60 s at most. */
  private static ClientResponse okOnceCoordinating(java.util.function.Supplier<CompletableFuture<ClientResponse>> call)
      throws Exception {
    final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    ClientResponse answer = call.get().get(60, TimeUnit.SECONDS);
    while (answer.errorCode() == ErrorCode.ERROR_CODE_NOT_LEADER && System.nanoTime() < deadline) {
      Thread.sleep(5);
      answer = call.get().get(60, TimeUnit.SECONDS);
    }
    assertTrue(answer.ok(), answer.toString());
    return answer;
  }

  private long balance(int host, long id) throws Exception {
    final ResultTable table = ok(db[host].call("Balance", id)).results().get(0);
    assertTrue(table.advanceRow());
    return table.getLong(0);
  }

  @Test
  void shouldRollBackATransactionWhoseParticipantDiedBeforeCommitAndUseTheNewLeaderAfter() throws Exception {
    held.add(1);
    // Reads account on partition 1 first: the coordinator (host 0) waits for host 1, which holds the message.
    final CompletableFuture<ClientResponse> inFlight = db[0].call("MoveMoney", account(1), account(0), 10L);
    assertTrue(joinedOnTwo.await(60, TimeUnit.SECONDS), "the transaction joined partition 2");
    kill(1);
    assertFalse(inFlight.isDone(), "nothing answers for host 1 until the failover");
    failOver(map(2, new int[] {0, 2, 2}, new long[] {1, 2, 1}));
    final ClientResponse answer = inFlight.get(60, TimeUnit.SECONDS);
    assertEquals(ErrorCode.ERROR_CODE_PARTITION_UNAVAILABLE, answer.errorCode(), answer.toString());
    assertTrue(answer.message().contains("did not run"), answer.message());
    assertEquals(OPENING, balance(0, account(0)), "rolled back on partition 0");
    // Later transfers join partition 1's new leader; each host's partitions take work again.
    ok(db[2].call("MoveMoney", account(0), account(2), 5L));
    ok(db[0].call("MoveMoney", account(2), account(0), 2L));
    assertEquals(OPENING - 3, balance(0, account(0)));
    assertEquals(OPENING + 3, balance(2, account(2)));
  }

  @Test
  void shouldMoveTheCoordinatorWithPartitionZeroAndReleaseTheDeadCoordinatorsParts() throws Exception {
    held.add(1);
    final CompletableFuture<ClientResponse> orphaned = db[0].call("MoveMoney", account(1), account(2), 10L);
    assertTrue(joinedOnTwo.await(60, TimeUnit.SECONDS), "the transaction joined partition 2 on host 2");
    // Host 0, the coordinator, dies with that transaction open on host 2 (whose partition 2 waits in it) and a
    // call forwarded to it from host 2 in flight.
    kill(0);
    held.remove(1);
    final CompletableFuture<ClientResponse> forwarded = db[2].call("MoveMoney", account(2), account(1), 1L);
    assertFalse(forwarded.isDone());
    failOver(map(2, new int[] {1, 1, 2}, new long[] {2, 1, 1}));
    final ClientResponse unknown = forwarded.get(60, TimeUnit.SECONDS);
    assertEquals(ErrorCode.ERROR_CODE_OUTCOME_UNKNOWN, unknown.errorCode(), unknown.toString());
    // Host 2 rolled its orphaned part back and released it: partition 2 serves, its balance untouched.
    assertEquals(OPENING, balance(2, account(2)));
    // Host 1 coordinates now: calls reaching host 2 are forwarded there, calls reaching host 1 run there. Until
    // its coordinator started (once partition 0's copy of the replicated tables is taken) they are answered
    // NOT_LEADER, not run, and a client sends them again.
    okOnceCoordinating(() -> db[2].call("MoveMoney", account(1), account(2), 4L));
    ok(db[1].call("MoveMoney", account(2), account(1), 1L));
    assertEquals(OPENING - 3, balance(1, account(1)));
    assertEquals(OPENING + 3, balance(2, account(2)));
    // A statement over every partition, forwarded to host 1 (partition 0's copy there holds no row: the copies
    // are not replicated in this test).
    long expected = 0;
    for (long id = 0; id < ACCOUNTS; id++) {
      expected += map.partitionOf(id) == 0 ? 0 : 1;
    }
    final ClientResponse count = ok(db[2].adHoc("SELECT COUNT(*) FROM account"));
    assertTrue(count.results().get(0).advanceRow());
    assertEquals(expected, count.results().get(0).getLong(0));
    assertFalse(orphaned.get(60, TimeUnit.SECONDS).ok(), "the dead coordinator's own call failed with it");
  }
}
