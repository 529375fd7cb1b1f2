package org.partita.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.client.ClientConfig;
import org.partita.client.ClientResponse;
import org.partita.client.PartitaClient;
import org.partita.client.ResultTable;
import org.partita.proto.ErrorCode;

/**
 * Schema changes on a cluster of real {@code partita start --cluster}
 * processes (docs/cluster.md, "Schema changes across hosts"): three hosts
 * with K = 1 and two sites each, deposits running on every host the whole
 * time (through a client that routes each call to its partition's
 * leader). DDL sent to a host that does not coordinate creates a partitioned
 * table, a procedure on it, and an index and a view over a table that holds
 * rows; every
 * host then plans, runs and routes at the new catalog, each partition's two
 * copies hold the same rows, and no deposit is lost. DDL that does not
 * compile changes nothing on any host. The change is switched on for
 * these hosts ({@code -Dpartita.clusterSchemaChanges=on}): restarts and
 * rejoins after one are not built yet. The processes are stopped by their
 * handles after the test.
 */
@Timeout(300)
class ClusterSchemaChangeTest {
  private static final int ACCOUNTS = 30;
  private static final long OPENING = 1_000;

  @TempDir
  Path dir;

  private final List<ServerProcess> hosts = new ArrayList<>();
  private final List<PartitaClient> clients = new ArrayList<>();

  @AfterEach
  void stopEverything() throws InterruptedException {
    clients.forEach(PartitaClient::close);
    for (ServerProcess host : hosts) {
      host.close();
    }
  }

  private PartitaClient client(boolean discoverHosts, String... addresses) {
    final PartitaClient client = new PartitaClient(ClientConfig.builder().clientName("cluster-ddl-test")
        .callTimeout(Duration.ofSeconds(60)).discoverHosts(discoverHosts).build());
    clients.add(client);
    for (String address : addresses) {
      client.connect(address);
    }
    return client;
  }

  private static ClientResponse ok(ClientResponse answer) {
    assertTrue(answer.ok(), answer.toString());
    return answer;
  }

  @Test
  void shouldChangeTheSchemaOnEveryHostUnderLoadWithKOne() throws Exception {
    // Schema changes across hosts are off by default (a host restarted after one does not rebuild its catalog yet).
    final List<String> addresses = ClusterMultiPartitionTest.startBankCluster(dir, hosts,
        Map.of("JDK_JAVA_OPTIONS", "-Dpartita.clusterSchemaChanges=on"));
    final PartitaClient all = client(true, addresses.toArray(new String[0]));
    final List<PartitaClient> each = new ArrayList<>();
    for (String address : addresses) {
      each.add(client(false, address));
    }
    for (long id = 0; id < ACCOUNTS; id++) {
      ok(all.call("OpenAccount", id, (int) (1 + id % 2), OPENING, "a" + id));
    }

    // Deposits on every host while the schema changes; each one acknowledged must be in the total.
    final AtomicBoolean depositing = new AtomicBoolean(true);
    final AtomicLong acknowledged = new AtomicLong();
    final List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
    final CompletableFuture<Void> load = CompletableFuture.runAsync(() -> {
      for (int i = 0; depositing.get(); i++) {
        final ClientResponse answer = all.callAsync("Deposit", 1L, (long) ((i * 11) % ACCOUNTS)).join();
        if (answer.ok()) {
          acknowledged.incrementAndGet();
        } else if (answer.errorCode() != ErrorCode.ERROR_CODE_CATALOG_CHANGED) {
          failures.add(answer.toString());
        }
      }
    });

    // Host 0 coordinates: DDL sent to hosts 1 and 2 is forwarded to it.
    ok(each.get(1).callAsync("@AdHoc", "CREATE TABLE notes (id BIGINT NOT NULL PRIMARY KEY,"
        + " account_id BIGINT NOT NULL, body VARCHAR(40))").join());
    ok(each.get(2).callAsync("@AdHoc", "PARTITION TABLE notes ON COLUMN id").join());
    ok(each.get(1).callAsync("@AdHoc", "CREATE PROCEDURE NoteBody PARTITION ON TABLE notes COLUMN id AS"
        + " SELECT body FROM notes WHERE id = ?").join());
    ok(each.get(0).callAsync("@AdHoc", "CREATE PROCEDURE AddNote PARTITION ON TABLE notes COLUMN id AS"
        + " INSERT INTO notes (id, account_id, body) VALUES (?, ?, ?)").join());
    ok(each.get(2).callAsync("@AdHoc", "CREATE INDEX accounts_by_balance ON accounts (balance)").join());
    ok(each.get(0).callAsync("@AdHoc", "CREATE VIEW accounts_per_region (region_id, accounts) AS"
        + " SELECT region_id, COUNT(*) FROM accounts GROUP BY region_id").join());
    final ClientResponse broken = each.get(1).callAsync("@AdHoc", "CREATE TABLE notes (x INTEGER)").join();
    assertEquals(ErrorCode.ERROR_CODE_SQL_ERROR, broken.errorCode(), broken.toString());

    // The routing client learns the new procedure's partitioning from the catalog and sends each to its leader.
    for (long id = 0; id < 40; id++) {
      ok(all.callAsync("AddNote", id, id % ACCOUNTS, "note " + id).join());
    }
    depositing.set(false);
    load.join();
    assertEquals(List.of(), failures, "deposits failed other than CATALOG_CHANGED");

    for (int i = 0; i < 3; i++) {
      final PartitaClient host = each.get(i);
      assertEquals(40, ok(host.callAsync("@AdHoc", "SELECT COUNT(*) FROM notes").join()).firstLong(), "host " + i);
      final ResultTable note = ok(all.callAsync("NoteBody", 17L).join()).results().get(0);
      assertTrue(note.advanceRow(), "the new procedure runs on its partition's leader");
      assertEquals("note 17", note.getString(0));
      assertEquals(ACCOUNTS, ok(host.callAsync("@AdHoc", "SELECT SUM(accounts) FROM accounts_per_region").join())
          .firstLong(), "host " + i + ": the view made over rows already there counts them");
      assertEquals(ACCOUNTS * OPENING + acknowledged.get(), ok(host.callAsync("@AdHoc",
          "SELECT SUM(balance) FROM accounts").join()).firstLong(), "host " + i + ": every acknowledged deposit");
    }
    ClusterMultiPartitionTest.assertCopiesEqual(each);
  }
}
