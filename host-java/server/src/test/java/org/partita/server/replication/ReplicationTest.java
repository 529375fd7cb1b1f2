package org.partita.server.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.Channel;
import io.netty.channel.nio.NioEventLoopGroup;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.client.ClientResponse;
import org.partita.proto.ErrorCode;
import org.partita.server.compiler.CatalogCompiler;
import org.partita.server.compiler.CompiledCatalog;
import org.partita.server.compiler.SourceFile;
import org.partita.server.database.Database;
import org.partita.server.database.QueryLimits;
import org.partita.server.topology.PartitionMap;

/**
 * Two hosts in one process, each a {@link Database} with a site for every
 * copy it holds, replicating over real internal-port connections between
 * 127.0.0.1 and 127.0.0.2 (K = 1, two partitions, each host leading one and
 * replicating the other): acknowledged writes are on both copies (equal
 * checksums at the same last transaction), reads wait for their marker,
 * a call reaching a replica is answered NOT_LEADER, and a deliberately
 * nondeterministic procedure is caught by the write hash: the replica stops
 * naming it and the leader holds the answer.
 */
@Timeout(120)
class ReplicationTest {
  private static final String DDL = """
      CREATE TABLE kv (k BIGINT NOT NULL PRIMARY KEY, v BIGINT);
      PARTITION TABLE kv ON COLUMN k;
      CREATE PROCEDURE Put PARTITION ON TABLE kv COLUMN k PARAMETER 0 AS UPSERT INTO kv (k, v) VALUES (?, ?);
      CREATE PROCEDURE Get PARTITION ON TABLE kv COLUMN k PARAMETER 0 AS SELECT v FROM kv WHERE k = ?;
      CREATE PROCEDURE PARTITION ON TABLE kv COLUMN k FROM CLASS org.partita.server.replication.procs.WriteClock;
      """;

  private final List<NioEventLoopGroup> groups = new ArrayList<>();
  private final List<Channel> listeners = new ArrayList<>();
  private final Replication[] replication = new Replication[2];
  private final Database[] db = new Database[2];
  private PartitionMap map;

  @BeforeEach
  void open() throws Exception {
    map = TestItems.twoHosts();
    final CompiledCatalog catalog = new CatalogCompiler(getClass().getClassLoader())
        .compile(List.of(new SourceFile("kv.sql", DDL)));
    final AtomicReferenceArray<Replication> hosts = new AtomicReferenceArray<>(2);
    final List<InetSocketAddress> addresses = new ArrayList<>();
    for (int h = 0; h < 2; h++) {
      final int host = h;
      final NioEventLoopGroup group = new NioEventLoopGroup(1);
      groups.add(group);
      final Channel listener = TestItems.listen(group, "127.0.0." + (h + 1), () -> hosts.get(host).inboundHandler());
      listeners.add(listener);
      addresses.add((InetSocketAddress) listener.localAddress());
    }
    for (int h = 0; h < 2; h++) {
      replication[h] = new Replication(h, map, addresses, InetAddress.getByName("127.0.0." + (h + 1)),
          groups.get(h));
      hosts.set(h, replication[h]);
    }
    for (int h = 0; h < 2; h++) {
      final Replication r = replication[h];
      db[h] = Database.openHost(catalog, map, h, 1024, r::pipeline, QueryLimits.EMBEDDED);
      r.start(db[h]::offerReplicated);
    }
  }

  @AfterEach
  void close() throws Exception {
    for (int h = 0; h < 2; h++) {
      if (replication[h] != null) {
        replication[h].close();
      }
      if (db[h] != null) {
        db[h].close();
      }
    }
    listeners.forEach(Channel::close);
    for (NioEventLoopGroup group : groups) {
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }

  private Database leaderOf(long key) {
    return db[map.leaderOf(map.partitionOf(key))];
  }

  @Test
  void shouldHaveEveryAcknowledgedWriteOnBothCopies() throws Exception {
    final List<CompletableFuture<ClientResponse>> calls = new ArrayList<>();
    for (long k = 0; k < 400; k++) {
      calls.add(leaderOf(k).call("Put", k, k * 3));
    }
    for (CompletableFuture<ClientResponse> call : calls) {
      final ClientResponse answer = call.get(60, TimeUnit.SECONDS);
      assertTrue(answer.ok(), answer.message());
    }
    for (long k = 0; k < 400; k += 37) {
      final ClientResponse read = leaderOf(k).call("Get", k).get(60, TimeUnit.SECONDS);
      assertTrue(read.ok(), read.message());
      final org.partita.client.ResultTable table = read.results().get(0);
      assertTrue(table.advanceRow(), "key " + k);
      assertEquals(k * 3, table.getLong(0), "key " + k);
    }
    final List<Database.CopyChecksum> host0 = db[0].offerChecksums().get(60, TimeUnit.SECONDS);
    final List<Database.CopyChecksum> host1 = db[1].offerChecksums().get(60, TimeUnit.SECONDS);
    assertEquals(2, host0.size());
    assertEquals(2, host1.size());
    for (int p = 0; p < 2; p++) {
      final Database.CopyChecksum a = host0.get(p);
      final Database.CopyChecksum b = host1.get(p);
      assertEquals(p == 0, a.leader());
      assertEquals(p == 1, b.leader());
      // Every write was acknowledged by the replica before its answer; the reads after them are markers.
      assertEquals(a.checksum(), b.checksum(), "partition " + p + ": both copies hold the same rows");
    }
    assertNull(replication[1].replica(0).stopReason());
    assertNull(replication[0].replica(1).stopReason());
  }

  /**
   * A partition whose other copies a whole-cluster recovery left out starts
   * with one copy: its leader leads it alone, so the rejoin stream that gives
   * the copies back can take its items (with no leader pipeline the stream
   * ended at once, "no longer leads", again and again, and the copies never
   * came back).
   */
  @Test
  void shouldLeadAPartitionLeftWithItsOnlyCopyAloneSoARejoinCanStreamIt() throws Exception {
    final int[] buckets = new int[PartitionMap.BUCKETS];
    final PartitionMap recovered = PartitionMap.of(5, buckets, List.of(new PartitionMap.Replicas(0, 0, List.of(0), 4),
        new PartitionMap.Replicas(1, 1, List.of(1), 4)));
    final NioEventLoopGroup group = new NioEventLoopGroup(1);
    groups.add(group);
    final Replication alone = new Replication(0, recovered, List.of(new InetSocketAddress("127.0.0.1", 1),
        new InetSocketAddress("127.0.0.2", 1)), InetAddress.getByName("127.0.0.1"), group);
    try {
      assertNotNull(alone.leader(0), "host 0 leads partition 0, its only copy");
      assertNull(alone.leader(1), "partition 1 is led by host 1");
    } finally {
      alone.close();
    }
  }

  @Test
  void shouldAnswerNotLeaderForACallReachingAReplica() throws Exception {
    long key = 0;
    while (map.leaderOf(map.partitionOf(key)) != 0) {
      key++;
    }
    final ClientResponse answer = db[1].call("Put", key, 1L).get(10, TimeUnit.SECONDS);
    assertEquals(ErrorCode.ERROR_CODE_NOT_LEADER, answer.errorCode(), answer.message());
  }

  @Test
  void shouldCatchANondeterministicProcedureByItsWriteHash() throws Exception {
    long key = 0;
    while (map.leaderOf(map.partitionOf(key)) != 0) {
      key++;
    }
    assertTrue(db[0].call("Put", key, 5L).get(60, TimeUnit.SECONDS).ok());
    final CompletableFuture<ClientResponse> clock = db[0].call("WriteClock", key);
    final ReplicaSequencer copy = replication[1].replica(0);
    final LeaderPipeline leader = replication[0].leader(0);
    final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while ((copy.stopReason() == null || leader.diverged().isEmpty()) && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    final String reason = copy.stopReason();
    assertNotNull(reason, "the replica did not stop");
    assertTrue(reason.contains("sequence 2") && reason.contains("procedure WriteClock")
        && reason.contains("[" + key + "]") && reason.contains("on its leader (host 0)"), reason);
    assertEquals(List.of(1), leader.diverged());
    assertEquals(2, leader.last());
    assertEquals(1, leader.committed(), "the mismatched transaction is not committed");
    assertFalse(clock.isDone(), "its answer is held");
  }
}
