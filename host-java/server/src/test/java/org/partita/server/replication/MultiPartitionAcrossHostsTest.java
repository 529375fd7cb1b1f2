package org.partita.server.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import org.partita.client.ResultTable;
import org.partita.proto.ErrorCode;
import org.partita.server.cluster.InternalConnector;
import org.partita.server.compiler.CatalogCompiler;
import org.partita.server.compiler.CompiledCatalog;
import org.partita.server.compiler.SourceFile;
import org.partita.server.database.Database;
import org.partita.server.database.HostTransport;
import org.partita.server.database.QueryLimits;
import org.partita.server.topology.PartitionMap;

/**
 * Two hosts in one process with K = 1 (each leads one partition and
 * replicates the other), their databases connected for multi-partition
 * work over real internal-port connections between 127.0.0.1 and
 * 127.0.0.2 (docs/cluster.md, "Multi-partition transactions"). Host 0
 * leads partition 0 and so coordinates; host 1 forwards. Transfers between
 * accounts on both partitions, sent to both hosts among single-partition
 * writes, keep the total; both copies of each partition end equal; a write
 * to a replicated table reaches every copy; a count over every partition is
 * answered on either host; a procedure's clock value, computed once on the
 * coordinator, is the same on every copy; a schema change is refused with
 * its reason.
 */
@Timeout(120)
class MultiPartitionAcrossHostsTest {
  private static final String DDL = """
      CREATE TABLE account (id BIGINT NOT NULL PRIMARY KEY, balance BIGINT NOT NULL, ops BIGINT NOT NULL);
      PARTITION TABLE account ON COLUMN id;
      CREATE TABLE branch (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR(20));
      CREATE PROCEDURE Open PARTITION ON TABLE account COLUMN id PARAMETER 0
        AS INSERT INTO account (id, balance, ops) VALUES (?, ?, 0);
      CREATE PROCEDURE Touch PARTITION ON TABLE account COLUMN id PARAMETER 0
        AS UPDATE account SET ops = ops + 1 WHERE id = ?;
      CREATE PROCEDURE FROM CLASS org.partita.server.replication.procs.MoveMoney;
      CREATE PROCEDURE FROM CLASS org.partita.server.replication.procs.StampEverywhere;
      """;
  private static final int ACCOUNTS = 20;
  private static final long OPENING = 1_000;

  private final List<NioEventLoopGroup> groups = new ArrayList<>();
  private final List<Channel> listeners = new ArrayList<>();
  private final Replication[] replication = new Replication[2];
  private final MultiPartitionLinks[] links = new MultiPartitionLinks[2];
  private final Database[] db = new Database[2];
  private PartitionMap map;

  @BeforeEach
  void open() throws Exception {
    map = TestItems.twoHosts();
    final CompiledCatalog catalog = new CatalogCompiler(getClass().getClassLoader())
        .compile(List.of(new SourceFile("bank.sql", DDL)));
    final AtomicReferenceArray<MultiPartitionLinks> hosts = new AtomicReferenceArray<>(2);
    final List<InetSocketAddress> addresses = new ArrayList<>();
    for (int h = 0; h < 2; h++) {
      final int host = h;
      final NioEventLoopGroup group = new NioEventLoopGroup(1);
      groups.add(group);
      final Channel listener = TestItems.listen(group, "127.0.0." + (h + 1),
          () -> hosts.get(host).inboundHandler(replication[host]));
      listeners.add(listener);
      addresses.add((InetSocketAddress) listener.localAddress());
    }
    for (int h = 0; h < 2; h++) {
      final InternalConnector connector = InternalConnector.plain(groups.get(h),
          InetAddress.getByName("127.0.0." + (h + 1)));
      replication[h] = new Replication(h, map, addresses, connector, groups.get(h));
      links[h] = new MultiPartitionLinks(h, addresses, connector, groups.get(h));
      hosts.set(h, links[h]);
    }
    for (int h = 0; h < 2; h++) {
      final Replication r = replication[h];
      db[h] = Database.openHost(catalog, map, h, 1024, r::pipeline, QueryLimits.EMBEDDED);
      r.start(db[h]::offerReplicated);
      final MultiPartitionLinks l = links[h];
      db[h].connectHosts(HostTransport.of(l::send, l::forward));
      l.serve(db[h]::serveFragment, db[h]::serveForwarded);
    }
    for (long id = 0; id < ACCOUNTS; id++) {
      ok(leaderOf(id).call("Open", id, OPENING));
    }
  }

  @AfterEach
  void close() throws Exception {
    for (int h = 0; h < 2; h++) {
      if (links[h] != null) {
        links[h].close();
      }
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

  private static ClientResponse ok(CompletableFuture<ClientResponse> call) throws Exception {
    final ClientResponse answer = call.get(60, TimeUnit.SECONDS);
    assertTrue(answer.ok(), answer.toString());
    return answer;
  }

  private static long firstLong(ClientResponse answer) {
    final ResultTable table = answer.results().get(0);
    assertTrue(table.advanceRow(), answer.toString());
    return table.getLong(0);
  }

  @Test
  void shouldKeepTheTotalAndBothCopiesEqualUnderTransfersAndSinglePartitionWrites() throws Exception {
    long other = 1;
    while (map.partitionOf(other) == map.partitionOf(0)) {
      other++;
    }
    final List<CompletableFuture<ClientResponse>> transfers = new ArrayList<>();
    final List<CompletableFuture<ClientResponse>> touches = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      final long from = i % ACCOUNTS;
      final long to = (i * 7 + 3) % ACCOUNTS;
      // Every other transfer reaches host 1, which forwards it to host 0, the coordinator's.
      transfers.add(db[i % 2].call("MoveMoney", from, to, (long) (i % 13)));
      touches.add(leaderOf(i % ACCOUNTS).call("Touch", (long) (i % ACCOUNTS)));
    }
    // A transfer the source cannot pay aborts everywhere.
    final ClientResponse refused = db[1].call("MoveMoney", 0L, other, 1_000_000L).get(60, TimeUnit.SECONDS);
    assertEquals(ClientResponse.Status.USER_ABORT, refused.status(), refused.toString());
    for (CompletableFuture<ClientResponse> t : transfers) {
      ok(t);
    }
    for (CompletableFuture<ClientResponse> t : touches) {
      ok(t);
    }
    for (int h = 0; h < 2; h++) {
      assertEquals(ACCOUNTS * OPENING, firstLong(ok(db[h].adHoc("SELECT SUM(balance) FROM account"))),
          "host " + h + ": the total is invariant");
      assertEquals(200, firstLong(ok(db[h].adHoc("SELECT SUM(ops) FROM account"))), "host " + h);
    }
    assertCopiesEqual();
  }

  @Test
  void shouldWriteAReplicatedTableOnEveryCopyFromEitherHost() throws Exception {
    ok(db[1].adHoc("INSERT INTO branch (id, name) VALUES (1, 'north')"));
    ok(db[0].adHoc("INSERT INTO branch (id, name) VALUES (2, 'south')"));
    for (int h = 0; h < 2; h++) {
      final ClientResponse read = ok(db[h].adHoc("SELECT name FROM branch WHERE id = 1"));
      assertTrue(read.results().get(0).advanceRow(), "host " + h);
      assertEquals("north", read.results().get(0).getString(0), "host " + h);
      assertEquals(2, firstLong(ok(db[h].adHoc("SELECT COUNT(*) FROM branch"))), "host " + h);
    }
    assertCopiesEqual();
  }

  @Test
  void shouldGiveReplicasTheValuesAProcedureComputedOnceOnTheCoordinator() throws Exception {
    ok(db[1].call("StampEverywhere"));
    final long stamp = firstLong(ok(db[0].adHoc("SELECT MIN(ops) FROM account")));
    assertEquals(stamp, firstLong(ok(db[1].adHoc("SELECT MAX(ops) FROM account"))), "one value everywhere");
    assertCopiesEqual();
  }

  @Test
  void shouldRefuseASchemaChangeOnEitherHostWithItsReason() throws Exception {
    for (int h = 0; h < 2; h++) {
      final ClientResponse answer = db[h].adHoc("CREATE TABLE t" + h + " (k BIGINT NOT NULL)")
          .get(60, TimeUnit.SECONDS);
      assertEquals(ErrorCode.ERROR_CODE_BAD_REQUEST, answer.errorCode(), answer.toString());
      assertTrue(answer.message().contains("schema changes") && answer.message().contains("across hosts"),
          answer.message());
    }
    // The refusal changed nothing: multi-partition work still runs.
    assertEquals(ACCOUNTS, firstLong(ok(db[1].adHoc("SELECT COUNT(*) FROM account"))));
  }

  private void assertCopiesEqual() throws Exception {
    final List<Database.CopyChecksum> host0 = db[0].offerChecksums().get(60, TimeUnit.SECONDS);
    final List<Database.CopyChecksum> host1 = db[1].offerChecksums().get(60, TimeUnit.SECONDS);
    for (int p = 0; p < 2; p++) {
      assertEquals(host0.get(p).checksum(), host1.get(p).checksum(), "partition " + p + ": both copies equal");
    }
    assertNull(replication[1].replica(0).stopReason());
    assertNull(replication[0].replica(1).stopReason());
  }
}
