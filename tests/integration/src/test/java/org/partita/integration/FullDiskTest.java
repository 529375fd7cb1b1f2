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
import org.partita.proto.ErrorCode;

/**
 * The command log on a disk that fills up (a 4 MiB tmpfs with 1 MiB of
 * ballast; skipped where this process may not mount one): once the log
 * cannot preallocate its next segment, every new transaction is answered
 * DISK_FULL naming the log and not run, except reads of one partition,
 * which are answered without a record of their own, while the server stays
 * up and its statistics answer; once space is freed it admits transactions again by
 * itself; and after kill -9 a restart has every write it answered and none
 * it refused (docs/durability.md, "A full disk").
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
  void aFullDiskRefusesNewTransactionsUntilSpaceIsFreed() throws Exception {
    final Path mount = dir.resolve("small");
    Files.createDirectories(mount);
    Assumptions.assumeTrue(run("mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", mount.toString()) == 0,
        "cannot mount a small tmpfs here");
    try {
      final Path data = mount.resolve("data");
      final Path ballast = Files.write(mount.resolve("ballast"), new byte[1 << 20]);
      final List<String> args = List.of("--sites", "2", "--data-dir", data.toString(), "--log-segment-mb", "1");
      final Set<Long> answered = new HashSet<>();
      final Set<Long> refused = new HashSet<>();
      final String pad = "p".repeat(200);
      long id = 0;
      try (ServerProcess server = ServerProcess.start(args);
           PartitaClient client = Clients.connect(server, "fill")) {
        assertTrue(Clients.adHoc(client, "CREATE TABLE t (id BIGINT NOT NULL, pad VARCHAR(200))").ok());
        assertTrue(Clients.adHoc(client, "PARTITION TABLE t ON COLUMN id").ok());
        ClientResponse r = null;
        for (; id < 100_000; id++) {
          r = Clients.adHoc(client, "INSERT INTO t VALUES (?, ?)", id, pad);
          if (!r.ok()) {
            break;
          }
          answered.add(id);
        }
        assertEquals(ErrorCode.ERROR_CODE_DISK_FULL, r.errorCode(), r.toString());
        assertTrue(r.message().contains("disk is full") && r.message().contains(
            data.resolve("commandlog").toString()), r.message());
        refused.add(id++);
        assertTrue(answered.size() > 1000, "the disk filled only after many writes: " + answered.size());
        final ClientResponse multiPartition = Clients.adHoc(client, "DELETE FROM t");
        assertEquals(ErrorCode.ERROR_CODE_DISK_FULL, multiPartition.errorCode(), multiPartition.toString());
        for (long answeredId : List.of(0L, id / 2, id - 2)) {  // reads of one partition need no record of their own
          final ClientResponse read = Clients.adHoc(client, "SELECT id, pad FROM t WHERE id = ?", answeredId);
          assertTrue(read.ok(), "a single-partition read is answered on a full disk: " + read);
          assertEquals(List.of(List.of(answeredId, pad)), Clients.rows(read.results().get(0)));
        }
        final ClientResponse missing = Clients.adHoc(client, "SELECT id FROM t WHERE id = ?", id - 1);
        assertTrue(missing.ok() && Clients.rows(missing.results().get(0)).isEmpty(), "the refused insert is absent: "
            + missing);
        final ClientResponse readAll = Clients.adHoc(client, "SELECT COUNT(*) FROM t");
        assertEquals(ErrorCode.ERROR_CODE_DISK_FULL, readAll.errorCode(), "a multi-partition read still needs a"
            + " record: " + readAll);
        assertTrue(client.callAsync("@Statistics", "COMMANDLOG").join().ok(), "statistics answer on a full disk");
        assertTrue(server.isAlive());

        // Free space, as an operator would: the server finds it by itself.
        Files.delete(ballast);
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
          r = Clients.adHoc(client, "INSERT INTO t VALUES (?, ?)", id, pad);
          if (r.ok()) {
            answered.add(id++);
            break;
          }
          assertEquals(ErrorCode.ERROR_CODE_DISK_FULL, r.errorCode(), r.toString());
          refused.add(id++);
          assertTrue(System.nanoTime() < deadline, "still refused 60 s after space was freed: " + r);
          Thread.sleep(50); // waiting for the state to change, not proving that it did not
        }
        for (int more = 0; more < 100; more++, id++) {
          assertTrue(Clients.adHoc(client, "INSERT INTO t VALUES (?, ?)", id, pad).ok());
          answered.add(id);
        }
        server.kill();
      }
      try (ServerProcess server = ServerProcess.start(args);
           PartitaClient client = Clients.connect(server, "check")) {
        final Set<Long> present = new HashSet<>();
        for (List<Object> row : Clients.rows(Clients.query(client, "SELECT id FROM t"))) {
          present.add(((Number) row.get(0)).longValue());
        }
        assertEquals(answered, present, "every answered write, and only those, survive");
        assertTrue(refused.stream().noneMatch(present::contains));
      }
    } finally {
      run("umount", mount.toString());
    }
  }
}
