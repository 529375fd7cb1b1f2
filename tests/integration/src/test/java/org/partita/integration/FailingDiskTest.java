package org.partita.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.client.ClientResponse;
import org.partita.client.PartitaClient;

/**
 * fdatasync returning EIO (the power-cut shim fails every sync after the
 * first 40): the server stops with exit code 3 and a message naming the
 * log, without answering the write whose record could not be synced and
 * without retrying; after a power cut (the unsynced writes undone) a
 * restart has exactly the answered writes, plus at most the one in flight.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class FailingDiskTest {
  @TempDir
  Path data;

  @Test
  void aFailedSyncStopsTheServerAndNothingAnsweredIsLost() throws Exception {
    final PowerCut power = new PowerCut(data, Files.createTempFile("partita-eio-", ".journal"));
    final Map<String, String> environment = power.environment(40);
    final List<String> args = List.of("--sites", "2", "--data-dir", data.toString());
    final Set<Long> answered = new HashSet<>();
    long sent = 0;
    try (ServerProcess server = ServerProcess.start(args, environment)) {
      try (PartitaClient client = Clients.connect(server, "eio")) {
        assertTrue(Clients.adHoc(client, "CREATE TABLE t (id BIGINT NOT NULL)").ok());
        assertTrue(Clients.adHoc(client, "PARTITION TABLE t ON COLUMN id").ok());
        for (long id = 0; id < 1000; id++) {
          final ClientResponse r;
          try {
            sent++;
            r = Clients.adHoc(client, "INSERT INTO t VALUES (?)", id);
          } catch (CompletionException e) {
            break; // the server stopped: this write was never answered
          }
          assertTrue(r.ok(), r.toString());
          answered.add(id);
        }
      }
      assertEquals(3, server.awaitExit(60), server.output());
      assertTrue(server.output().contains("command log: cannot write or sync " + data.resolve("commandlog")),
          server.output());
    }
    assertTrue(answered.size() > 10 && sent < 1000, "the disk failed after some writes: " + answered.size());
    power.cut();
    try (ServerProcess server = ServerProcess.start(args)) {
      try (PartitaClient client = Clients.connect(server, "after")) {
        final Set<Long> present = new HashSet<>();
        for (List<Object> row : Clients.rows(Clients.query(client, "SELECT id FROM t"))) {
          present.add(((Number) row.get(0)).longValue());
        }
        assertTrue(present.containsAll(answered), "every answered write survives the failed disk");
        assertTrue(present.size() <= answered.size() + 1, "at most the write in flight is extra: " + present.size()
            + " present, " + answered.size() + " answered");
      }
    }
  }
}
