package org.partita.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.client.ClientResponse;
import org.partita.client.PartitaClient;
import org.partita.client.proto.CallStatus;
import org.partita.client.proto.InvocationResponse;

/**
 * A snapshot keeps the client de-duplication tables, on one real server
 * (docs/cluster.md, "Client de-duplication"; docs/durability.md,
 * "Snapshots"): a session's write W is answered, a snapshot is taken, W is
 * sent again in its session (answered from the table, not run), then the
 * server is killed with SIGKILL and recovers from the snapshot and the log
 * after its cut, which holds the call sent again. W's row is there exactly
 * once (replay finds W's record in the table the snapshot kept), and W sent
 * once more after the recovery is answered from the table too.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SnapshotDedupTest {
  private static final long SESSION = 0x5E55_D0D0L;
  private static final long KEY = 31;
  private static final long HANDLE = 9;

  @TempDir
  Path dir;

  private ServerProcess start() throws Exception {
    return ServerProcess.start(List.of("--schema", EntriesSchema.writeTo(dir).toString(), "--sites", "2",
        "--data-dir", dir.resolve("data").toString()));
  }

  @Test
  void aCallSentAgainAfterTheSnapshotRunsOnceThroughKillAndRecovery() throws Exception {
    final InvocationResponse first;
    try (ServerProcess server = start()) {
      try (RawConnection c = session(server)) {
        first = c.call(HANDLE, "AddEntry", KEY, "w");
        assertTrue(ok(first), first.toString());
      }
      try (PartitaClient admin = Clients.connect(server, "snapshot-dedup")) {
        final ClientResponse saved = admin.callAsync("@SnapshotSave").get(120, TimeUnit.SECONDS);
        assertTrue(saved.ok(), saved.toString());
      }
      try (RawConnection again = session(server)) {
        final InvocationResponse retried = again.call(HANDLE, "AddEntry", KEY, "w");
        assertTrue(ok(retried), retried.toString());
        assertEquals(first.getResultsList(), retried.getResultsList(), "answered with the first answer");
      }
      assertEquals(1, count(server), "sent again after the snapshot: answered from the table, not run");
      server.kill();
    }
    try (ServerProcess recovered = start()) {
      assertTrue(recovered.output().contains("recovery: loading snapshot"), recovered.output());
      assertEquals(1, count(recovered), "W's row once: replay answered the call sent again from the loaded table");
      try (RawConnection again = session(recovered)) {
        final InvocationResponse retried = again.call(HANDLE, "AddEntry", KEY, "w");
        assertTrue(ok(retried), retried.toString());
        assertEquals(first.getResultsList(), retried.getResultsList(), "answered with the first answer");
      }
      assertEquals(1, count(recovered), "sent again after the recovery: answered from the table, not run");
      assertEquals(0, recovered.terminate(60));
    }
  }

  private static RawConnection session(ServerProcess server) throws IOException {
    return RawConnection.session("127.0.0.1", server.clientPort(), "snapshot-dedup", SESSION);
  }

  private static boolean ok(InvocationResponse r) {
    return r.getStatus() == CallStatus.CALL_STATUS_SUCCESS;
  }

  /** Rows of {@link #KEY}. */
  private static long count(ServerProcess server) throws Exception {
    try (PartitaClient reader = Clients.connect(server, "snapshot-dedup-reader")) {
      return reader.call("CountEntries", KEY).firstLong();
    }
  }
}
