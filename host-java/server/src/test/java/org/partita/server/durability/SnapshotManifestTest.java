package org.partita.server.durability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.server.txn.TxnId;

class SnapshotManifestTest {
  @TempDir
  Path dir;

  private static SnapshotManifest sample() {
    return new SnapshotManifest(1_764_000_000_000L, 1, Arrays.asList(new TxnId(0, 2, 1733), null),
        List.of(new SnapshotManifest.FileEntry("partition-0.snap", 52, 0x9a3b0c1d, 3),
            new SnapshotManifest.FileEntry("partition-1.snap", 8, -7, 0)));
  }

  @Test
  void shouldReadBackWhatItWrote() throws Exception {
    sample().writeTo(dir);
    assertEquals(sample(), SnapshotManifest.read(dir));
    assertTrue(!Files.exists(dir.resolve("MANIFEST.tmp")));
  }

  @Test
  void shouldRefuseAManifestWhoseChecksumDoesNotMatch() throws Exception {
    sample().writeTo(dir);
    final Path file = dir.resolve(SnapshotManifest.NAME);
    Files.writeString(file, Files.readString(file).replace("1733", "1734"), StandardCharsets.UTF_8);
    final SnapshotCorruptException e = assertThrows(SnapshotCorruptException.class, () -> SnapshotManifest.read(dir));
    assertTrue(e.getMessage().contains("MANIFEST: its checksum does not match"), e.getMessage());
  }

  @Test
  void shouldSayWhetherTheCatalogCanBeRebuilt() {
    assertTrue(sample().rebuildsCatalog(), "version 1: the starting schema");
    final SnapshotManifest older = new SnapshotManifest(1L, 4, sample().cuts(), sample().files());
    assertTrue(!older.rebuildsCatalog(), "version 4 without its schema changes");
  }

  @Test
  void shouldWriteAClusterHostsCopiesOnlyAndReadThemBack() throws Exception {
    final Path snapshot = dir.resolve("snapshot-copies");
    final SnapshotWriter writer = SnapshotWriter.start(snapshot, 3, List.of(0, 2));
    writer.chunk(2, "rows of 2".getBytes(StandardCharsets.UTF_8));
    writer.finished(0);
    writer.finished(2);
    writer.cut(Arrays.asList(new TxnId(0, 1, 9), null, new TxnId(2, 1, 4)), 1, new byte[] {7}, List.of());
    final SnapshotManifest manifest = writer.done().get();
    assertEquals(List.of(0, 2), manifest.copies());
    assertTrue(!manifest.holdsEveryPartition());
    assertTrue(Files.exists(snapshot.resolve(SnapshotManifest.partitionFile(2))));
    assertTrue(!Files.exists(snapshot.resolve(SnapshotManifest.partitionFile(1))), "no file for a copy not held");
    final SnapshotManifest read = SnapshotManifest.read(snapshot);
    assertEquals(manifest, read);
    SnapshotStore.verify(snapshot, read);
    assertTrue(Files.readString(snapshot.resolve(SnapshotManifest.NAME)).contains("\ncopies 0 2\n"));
    assertTrue(sample().holdsEveryPartition());
    sample().writeTo(dir);
    assertTrue(!Files.readString(dir.resolve(SnapshotManifest.NAME)).contains("copies"),
        "a snapshot of every partition is written as before");
  }

  @Test
  void shouldRefuseCopiesOutOfRange() throws Exception {
    assertThrows(IllegalArgumentException.class, () -> SnapshotWriter.start(dir.resolve("s"), 2, List.of(2)));
    assertThrows(IllegalArgumentException.class, () -> SnapshotWriter.start(dir.resolve("s"), 2, List.of()));
    new SnapshotManifest(1L, 1, sample().cuts(), sample().files(), List.of(1)).writeTo(dir);
    final Path file = dir.resolve(SnapshotManifest.NAME);
    final String text = Files.readString(file);
    final String body = text.substring(0, text.lastIndexOf("crc ")).replace("copies 1", "copies 5");
    final java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(body.getBytes(StandardCharsets.UTF_8));
    Files.writeString(file, body + "crc " + String.format("%08x", (int) crc.getValue()) + "\n");
    final SnapshotCorruptException e = assertThrows(SnapshotCorruptException.class, () -> SnapshotManifest.read(dir));
    assertTrue(e.getMessage().contains("copies [5]"), e.getMessage());
  }

  @Test
  void shouldRefuseSomethingElse() throws Exception {
    Files.writeString(dir.resolve(SnapshotManifest.NAME), "hello\n");
    final SnapshotCorruptException e = assertThrows(SnapshotCorruptException.class, () -> SnapshotManifest.read(dir));
    assertTrue(e.getMessage().contains("not a Partita snapshot manifest"), e.getMessage());
  }

  @Test
  void shouldFindAFlippedByteInAChunk() throws Exception {
    final Path snapshot = dir.resolve("snapshot-1");
    final SnapshotWriter writer = SnapshotWriter.start(snapshot, 1);
    writer.chunk(0, "first chunk".getBytes(StandardCharsets.UTF_8));
    writer.chunk(0, "second chunk".getBytes(StandardCharsets.UTF_8));
    writer.finished(0);
    writer.cut(Arrays.asList((TxnId) null), 3, new byte[] {1, 2, 3}, List.of("CREATE TABLE a (x BIGINT)",
        "CREATE INDEX a_x ON a (x)"));
    final SnapshotManifest manifest = writer.done().get();
    SnapshotStore.verify(snapshot, manifest);
    assertTrue(manifest.rebuildsCatalog());
    assertEquals(List.of("CREATE TABLE a (x BIGINT)", "CREATE INDEX a_x ON a (x)"),
        SchemaChangesFile.read(snapshot.resolve(SchemaChangesFile.NAME)));
    final Path file = snapshot.resolve(SnapshotManifest.partitionFile(0));
    try (SnapshotStore.ChunkReader reader = new SnapshotStore.ChunkReader(file)) {
      assertEquals("first chunk", new String(reader.next(), StandardCharsets.UTF_8));
      assertEquals("second chunk", new String(reader.next(), StandardCharsets.UTF_8));
      assertEquals(null, reader.next());
    }
    final byte[] bytes = Files.readAllBytes(file);
    bytes[bytes.length - 3] ^= 1;
    Files.write(file, bytes);
    assertThrows(SnapshotCorruptException.class, () -> SnapshotStore.verify(snapshot, manifest));
    try (SnapshotStore.ChunkReader reader = new SnapshotStore.ChunkReader(file)) {
      reader.next();
      final Exception e = assertThrows(java.io.IOException.class, reader::next);
      assertTrue(e.getMessage().contains("offset 27: a chunk whose checksum does not match"), e.getMessage());
    }
  }
}
