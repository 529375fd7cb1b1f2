package org.partita.server.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.client.ClientResponse;
import org.partita.server.compiler.CatalogCompiler;
import org.partita.server.compiler.CompiledCatalog;
import org.partita.server.compiler.SourceFile;
import org.partita.server.database.Database;
import org.partita.server.database.QueryLimits;
import org.partita.server.database.SnapshotCut;
import org.partita.server.durability.SnapshotManifest;
import org.partita.server.durability.SnapshotWriter;
import org.partita.server.txn.ClientSessions;
import org.partita.server.txn.ImmediateCommitPipeline;
import org.partita.server.txn.Invocation;

/**
 * A snapshot into files keeps each partition's client de-duplication table
 * at its cut, and recovery loads it (docs/cluster.md, "Client
 * de-duplication"): a call of a client session that wrote before the cut,
 * sent again after a recovery from the snapshot, is answered from the table
 * and not run again. A snapshot without tables (written before snapshots
 * kept them) still loads, with empty tables; a damaged table fails the load
 * naming its partition and file.
 */
class SnapshotDedupTableTest {
  private static final String SCHEMA = """
      CREATE TABLE counter (id BIGINT NOT NULL PRIMARY KEY, n BIGINT NOT NULL);
      PARTITION TABLE counter ON COLUMN id;
      """;
  private static final String BUMP = "UPDATE counter SET n = n + 1 WHERE id = ?";
  private static final long SESSION = ClientSessions.id("", 7);
  private static final int PARTITIONS = 2;

  @TempDir
  Path dir;

  /** The schema's tables, empty, in {@code epoch} (a restart begins an epoch after the snapshot's). */
  private static Database open(long epoch) throws Exception {
    final CompiledCatalog catalog = new CatalogCompiler(SnapshotDedupTableTest.class.getClassLoader())
        .compile(List.of(new SourceFile("schema.sql", SCHEMA)));
    return Database.open(catalog, PARTITIONS, 1024, 64, ImmediateCommitPipeline.INSTANCE, QueryLimits.EMBEDDED,
        epoch);
  }

  /** Call {@code sequence} of the session: bumps counter {@code id}. */
  private static ClientResponse bump(Database db, long sequence, long id) throws Exception {
    final CompletableFuture<ClientResponse> answer = new CompletableFuture<>();
    final Object[] parameters = {id};
    assertTrue(db.offerAdHoc(Invocation.of("@AdHoc", new Object[] {BUMP, id}, SESSION, sequence), BUMP, parameters,
        answer::complete));
    return answer.get(20, TimeUnit.SECONDS);
  }

  private static long count(Database db, long id) {
    final ClientResponse r = db.adHocSync("SELECT n FROM counter WHERE id = ?", id);
    assertTrue(r.ok(), r::toString);
    final var table = r.results().get(0);
    table.resetRowPosition();
    assertTrue(table.advanceRow());
    return table.getLong(0);
  }

  /** Counters 1 and 2 (one on each partition), each bumped once by the session (calls 1 and 2). */
  private static Database withSessionWrites() throws Exception {
    final Database db = open(1);
    for (long id = 1; id <= 2; id++) {
      assertTrue(db.adHocSync("INSERT INTO counter VALUES (?, 0)", id).ok());
      assertTrue(bump(db, id, id).ok());
    }
    return db;
  }

  /** Takes a snapshot of {@code db} into {@code target}, as the host's snapshot service does. */
  private static SnapshotManifest snapshot(Database db, Path target) throws Exception {
    final SnapshotWriter writer = SnapshotWriter.start(target, PARTITIONS);
    final SnapshotService.Session session = new SnapshotService.Session(writer, System.nanoTime());
    final SnapshotCut cut = db.beginSnapshot(session).get(20, TimeUnit.SECONDS);
    writer.cut(cut.lastRun(), cut.catalogVersion(), cut.engineCatalog(), cut.schemaChanges());
    return writer.done().get(20, TimeUnit.SECONDS);
  }

  /** A snapshot of {@link #withSessionWrites}, taken as the host's snapshot service does; its directory. */
  private Path snapshotOfSessionWrites() throws Exception {
    final Path snapshot = dir.resolve("snapshot-1");
    try (Database original = withSessionWrites()) {
      snapshot(original, snapshot);
    }
    return snapshot;
  }

  /** Recovery's load of {@code snapshot} into {@code db}, as a start with a data directory does. */
  private static void recover(Database db, Path snapshot) throws Exception {
    final SnapshotManifest manifest = SnapshotManifest.read(snapshot);
    SnapshotRecovery.load(db, new SnapshotRecovery.Choice(new SnapshotRecovery.Chosen(snapshot, manifest, null),
        List.of()));
  }

  @Test
  void shouldAnswerACallSentAgainAfterRecoveryFromTheTableTheSnapshotKept() throws Exception {
    final Path snapshot = snapshotOfSessionWrites();
    final SnapshotManifest manifest = SnapshotManifest.read(snapshot);
    for (int p = 0; p < PARTITIONS; p++) {
      assertTrue(manifest.holdsDedupTable(p), "the manifest names partition " + p + "'s table: " + manifest);
    }
    try (Database recovered = open(2)) {
      recover(recovered, snapshot);
      for (long id = 1; id <= 2; id++) {
        final ClientResponse again = bump(recovered, id, id);
        assertTrue(again.ok(), again::toString);
        assertEquals(1, count(recovered, id), "call " + id + " sent again is answered from the table, not run");
      }
      assertTrue(bump(recovered, 3, 1).ok());
      assertEquals(2, count(recovered, 1), "the session's next call runs");
    }
  }

  @Test
  void shouldLoadASnapshotWithoutTablesWithEmptyOnes() throws Exception {
    final Path snapshot = snapshotOfSessionWrites();
    rewrite(snapshot, f -> {
      if (!f.name().startsWith("dedup-")) {
        return f;
      }
      Files.delete(snapshot.resolve(f.name()));  // as a snapshot written before tables were kept
      return null;
    });
    try (Database recovered = open(2)) {
      recover(recovered, snapshot);
      assertEquals(1, count(recovered, 1), "the rows loaded");
      assertTrue(bump(recovered, 1, 1).ok());
      assertEquals(2, count(recovered, 1), "with no table, a call sent again from before the cut runs as new");
    }
  }

  @Test
  void shouldNameThePartitionAndFileOfATableThatDoesNotLoad() throws Exception {
    final Path snapshot = snapshotOfSessionWrites();
    final Path table = snapshot.resolve(SnapshotManifest.dedupFile(1));
    final byte[] bytes = Files.readAllBytes(table);
    final byte[] cut = Arrays.copyOf(bytes, bytes.length - 5);
    Files.write(table, cut);
    // The manifest agrees with the file: only decoding it finds it cut short.
    rewrite(snapshot, f -> f.name().equals(table.getFileName().toString())
        ? new SnapshotManifest.FileEntry(f.name(), cut.length, crc(cut), 0) : f);
    try (Database recovered = open(2)) {
      final StartupException e = assertThrows(StartupException.class, () -> recover(recovered, snapshot));
      assertTrue(e.getMessage().contains("partition 1, de-duplication table file " + snapshot.resolve("dedup-1.bin")
          + ": de-duplication table: truncated"), e.getMessage());
      assertFalse(e.getMessage().contains("partition 0,"), e.getMessage());
    }
  }

  /** A file entry of a manifest rewritten: another entry, or null to leave it out. */
  private interface EntryChange {
    SnapshotManifest.FileEntry apply(SnapshotManifest.FileEntry entry) throws IOException;
  }

  /** Writes the manifest of {@code snapshot} again with each file entry changed by {@code change}. */
  private static void rewrite(Path snapshot, EntryChange change) throws Exception {
    final SnapshotManifest manifest = SnapshotManifest.read(snapshot);
    final List<SnapshotManifest.FileEntry> files = new ArrayList<>();
    for (SnapshotManifest.FileEntry f : manifest.files()) {
      final SnapshotManifest.FileEntry changed = change.apply(f);
      if (changed != null) {
        files.add(changed);
      }
    }
    new SnapshotManifest(manifest.createdMillis(), manifest.catalogVersion(), manifest.cuts(), files)
        .writeTo(snapshot);
  }

  private static int crc(byte[] bytes) {
    final CRC32C crc = new CRC32C();
    crc.update(ByteBuffer.wrap(bytes));
    return (int) crc.getValue();
  }
}
