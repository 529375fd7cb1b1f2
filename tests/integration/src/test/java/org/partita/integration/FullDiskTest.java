package org.partita.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.client.ClientResponse;
import org.partita.client.PartitaClient;

/**
 * The command log on a disk that fills up (a 4 MiB tmpfs with 1 MiB of ballast; skipped where
 * this process may not mount one): the server stops with exit code 3 and a
 * message naming the file when it cannot write its log, never answers a
 * write it could not log, and after space is freed a restart has every
 * write it answered (docs/durability.md, "A failed write").
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class FullDiskTest {
  @TempDir
  Path dir;

  private static int run(String... command) throws Exception {
    final Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    p.getInputStream().readAllBytes();
    return p.waitFor(30, TimeUnit.SECONDS) ? p.exitValue() : -1;
  }

  @Test
  void aFullDiskStopsTheServerWithoutLosingAnAnsweredWrite() throws Exception {
    final Path mount = dir.resolve("small");
    Files.createDirectories(mount);
    Assumptions.assumeTrue(run("mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", mount.toString()) == 0,
        "cannot mount a small tmpfs here");
    try {
      final Path data = mount.resolve("data");
      final Path ballast = Files.write(mount.resolve("ballast"), new byte[1 << 20]);
      final Set<Long> answered = new HashSet<>();
      try (ServerProcess server = ServerProcess.start(List.of("--sites", "2", "--data-dir", data.toString(),
          "--log-segment-mb", "1"))) {
        try (PartitaClient client = Clients.connect(server, "fill")) {
          assertTrue(Clients.adHoc(client, "CREATE TABLE t (id BIGINT NOT NULL, pad VARCHAR(200))").ok());
          assertTrue(Clients.adHoc(client, "PARTITION TABLE t ON COLUMN id").ok());
          final String pad = "p".repeat(200);
          for (long id = 0; id < 100_000 && server.isAlive(); id++) {
            final ClientResponse r;
            try {
              r = Clients.adHoc(client, "INSERT INTO t VALUES (?, ?)", id, pad);
            } catch (java.util.concurrent.CompletionException e) {
              break; // the connection went down with the server: this write was never answered
            }
            if (r.ok()) {
              answered.add(id);
            }
          }
        }
        assertEquals(3, server.awaitExit(60), server.output());
        assertTrue(server.output().contains("command log: cannot write or sync"), server.output());
        assertTrue(server.output().contains(data.resolve("commandlog").toString()), server.output());
      }
      assertTrue(answered.size() > 1000, "the disk filled only after many writes: " + answered.size());
      // Free space, as an operator would; the segment being preallocated when the disk filled is not part of the log.
      Files.delete(ballast);
      try (ServerProcess server = ServerProcess.start(List.of("--sites", "2", "--data-dir", data.toString(),
          "--log-segment-mb", "1"))) {
        try (PartitaClient client = Clients.connect(server, "check")) {
          final Set<Long> present = new HashSet<>();
          for (List<Object> row : Clients.rows(Clients.query(client, "SELECT id FROM t"))) {
            present.add(((Number) row.get(0)).longValue());
          }
          assertTrue(present.containsAll(answered), "every answered write survives");
          assertTrue(present.size() <= answered.size() + 1, "at most the write in flight is extra");
        }
      }
    } finally {
      run("umount", mount.toString());
    }
  }
}
