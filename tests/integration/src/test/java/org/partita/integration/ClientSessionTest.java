package org.partita.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.client.PartitaClient;
import org.partita.client.proto.CallStatus;
import org.partita.client.proto.InvocationResponse;
import org.partita.client.proto.LoginStatus;
import org.partita.proto.ErrorCode;

/**
 * Client sessions and de-duplication on one real server, over raw frames
 * (docs/wire-protocol.md, "Client sessions"; docs/cluster.md, "Client
 * de-duplication"): a call sent again with the same session and handle on
 * a new connection (as after a lost connection) is answered with the first
 * answer and not run again; another session, or no session, runs it; a
 * call whose record left the table is refused with OUTCOME_UNKNOWN and not
 * run. Each write inserts a row into a table without a key, so a second
 * run shows as a second row.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ClientSessionTest {
  /** DedupTable.DEFAULT_CAPACITY: the records a partition copy keeps. */
  private static final int TABLE_CAPACITY = 8 * 1024;

  private static ServerProcess server;
  private static Path schema;
  private static PartitaClient reader;

  @BeforeAll
  static void start() throws Exception {
    schema = Files.createTempFile("client-session-", ".sql");
    Files.writeString(schema, EntriesSchema.DDL);
    server = ServerProcess.start(List.of("--schema", schema.toString(), "--sites", "2"));
    reader = Clients.connect(server, "session-test-reader");
  }

  @AfterAll
  static void stop() throws Exception {
    if (reader != null) {
      reader.close();
    }
    if (server != null) {
      server.close();
    }
    Files.deleteIfExists(schema);
  }

  @Test
  void aCallSentAgainInItsSessionIsAnsweredOnceAndOtherSessionsRunTheirs() throws Exception {
    final long key = 11;
    final InvocationResponse first;
    try (RawConnection a = session(0x5E55_1011L)) {
      first = a.call(7, "AddEntry", key, "first");
      assertTrue(ok(first), first.toString());
    }
    try (RawConnection again = session(0x5E55_1011L)) {
      final InvocationResponse retried = again.call(7, "AddEntry", key, "first");
      assertTrue(ok(retried), retried.toString());
      assertEquals(first.getResultsList(), retried.getResultsList(), "the first answer's results");
      assertEquals(1, count(key), "sent again in its session on a new connection: not run again");
    }
    try (RawConnection other = session(0x5E55_2022L)) {
      assertTrue(ok(other.call(7, "AddEntry", key, "first")));
      assertEquals(2, count(key), "the same handle in another session is another call");
    }
    try (RawConnection none = new RawConnection(server.clientPort())) {
      assertEquals(LoginStatus.LOGIN_STATUS_OK, none.login(1).getStatus());
      assertTrue(ok(none.call(7, "AddEntry", key, "first")));
      assertTrue(ok(none.call(7, "AddEntry", key, "first")));
      assertEquals(4, count(key), "without a session every call runs");
    }
  }

  @Test
  void aCallWhoseRecordLeftTheTableIsRefusedNotRunAgain() throws Exception {
    final long key = 23;
    try (RawConnection c = session(0x5E55_3033L)) {
      // One more write than the table keeps, all on one partition: the first call's record leaves.
      final int writes = TABLE_CAPACITY + 1;
      for (int sent = 0; sent < writes; sent += 256) {
        final int batch = Math.min(256, writes - sent);
        for (int i = 1; i <= batch; i++) {
          c.invoke(sent + i, "AddEntry", key, "n");
        }
        for (int i = 0; i < batch; i++) {
          final InvocationResponse r = c.read().getResponse();
          assertTrue(ok(r), r.toString());
        }
      }
      final InvocationResponse oldest = c.call(1, "AddEntry", key, "n");
      assertEquals(ErrorCode.ERROR_CODE_OUTCOME_UNKNOWN_VALUE, oldest.getErrorCode(), oldest.toString());
      assertTrue(oldest.getMessage().contains("de-duplication table"), oldest.getMessage());
      final InvocationResponse kept = c.call(writes, "AddEntry", key, "n");
      assertTrue(ok(kept), "the newest record is still kept: " + kept);
      assertEquals(writes, count(key), "neither call sent again ran");
    }
  }

  private static RawConnection session(long session) throws IOException {
    return RawConnection.session("127.0.0.1", server.clientPort(), "session-test", session);
  }

  private static boolean ok(InvocationResponse r) {
    return r.getStatus() == CallStatus.CALL_STATUS_SUCCESS;
  }

  /** Rows of {@code key}. */
  private static long count(long key) {
    return reader.call("CountEntries", key).firstLong();
  }
}
