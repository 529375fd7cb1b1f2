package org.partita.server.database;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.partita.server.durability.SnapshotCorruptException;
import org.partita.server.durability.SnapshotStore;

/**
 * Loading a snapshot whose streams carry the views' rows, from partition
 * files read back with their checksums: the views come back as they were,
 * and a view chunk the engine refuses (its frame intact, its rows cut short)
 * fails the load with a message naming the partition, the file and the
 * offset of the chunk.
 */
class SnapshotLoadTest {
  private static final String[] SCHEMA = {
      "CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY, g VARCHAR(4) NOT NULL)",
      "PARTITION TABLE t ON COLUMN id",
      "CREATE VIEW per_g (g, c, total) AS SELECT g, COUNT(*), SUM(id) FROM t GROUP BY g",
  };
  private static final String VIEW = "SELECT g, c, total FROM per_g ORDER BY g";

  @TempDir
  Path dir;

  /** Collects every partition's chunks in order. */
  private static final class CollectingSink implements SnapshotSink {
    private final List<List<byte[]>> chunks = new ArrayList<>();
    private final CountDownLatch finished;
    private volatile RuntimeException failure;

    CollectingSink(int partitions) {
      for (int p = 0; p < partitions; p++) {
        chunks.add(Collections.synchronizedList(new ArrayList<>()));
      }
      finished = new CountDownLatch(partitions);
    }

    @Override
    public boolean cancelled() {
      return false;
    }

    @Override
    public boolean ready(int partition) {
      return true;
    }

    @Override
    public void chunk(int partition, byte[] chunk, long madeNanos, long madeCpuNanos) {
      chunks.get(partition).add(chunk);
    }

    @Override
    public void finished(int partition) {
      finished.countDown();
    }

    @Override
    public void failed(int partition, RuntimeException error) {
      failure = error;
      finished.countDown();
    }
  }

  private static Database open() throws Exception {
    final Database db = Database.openEmpty(2);
    for (String ddl : SCHEMA) {
      SqlRows.ok(db, ddl);
    }
    return db;
  }

  private static List<List<byte[]>> snapshotOf(Database db) throws Exception {
    final CollectingSink sink = new CollectingSink(db.partitionCount());
    db.beginSnapshot(sink).get(20, TimeUnit.SECONDS);
    assertTrue(sink.finished.await(20, TimeUnit.SECONDS), "every partition's stream ends");
    assertNull(sink.failure);
    return sink.chunks;
  }

  /** Writes a partition file as the snapshot writer does (magic, then [u32 length][u32 CRC32C][chunk] frames). */
  private Path write(String name, List<byte[]> chunks) throws IOException {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write("PSNAP001".getBytes(StandardCharsets.US_ASCII));
    for (byte[] chunk : chunks) {
      final CRC32C crc = new CRC32C();
      crc.update(chunk);
      out.write(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putInt(chunk.length)
          .putInt((int) crc.getValue()).array());
      out.write(chunk);
    }
    final Path file = dir.resolve(name);
    Files.write(file, out.toByteArray());
    return file;
  }

  private static long loadFiles(Database db, List<Path> files) throws IOException, SnapshotCorruptException {
    final List<SnapshotStore.ChunkReader> readers = new ArrayList<>();
    final List<SnapshotSource> sources = new ArrayList<>();
    try {
      for (Path file : files) {
        final SnapshotStore.ChunkReader reader = new SnapshotStore.ChunkReader(file);
        readers.add(reader);
        sources.add(new SnapshotSource() {
          @Override
          public byte[] next() throws IOException {
            return reader.next();
          }

          @Override
          public String lastChunkAt(long chunkNumber) {
            return reader.lastChunkAt();
          }
        });
      }
      return db.loadSnapshot(sources, Collections.nCopies(files.size(), null));
    } finally {
      for (SnapshotStore.ChunkReader r : readers) {
        r.close();
      }
    }
  }

  private static Database withRows() throws Exception {
    final Database db = open();
    for (long id = 0; id < 300; id++) {
      SqlRows.ok(db, "INSERT INTO t VALUES (?, ?)", id, "g" + id % 7);
    }
    SqlRows.ok(db, "DELETE FROM t WHERE id < 20");
    return db;
  }

  @Test
  void shouldLoadTheViewsRowsAsTheyWereAtTheCut() throws Exception {
    try (Database original = withRows(); Database copy = open()) {
      final List<List<byte[]>> chunks = snapshotOf(original);
      final List<String> tablesOfPartition0 = chunks.get(0).stream().map(SnapshotChunks::table).toList();
      assertTrue(tablesOfPartition0.contains("PER_G"), "the view has chunks of its own: " + tablesOfPartition0);
      loadFiles(copy, List.of(write("p0", chunks.get(0)), write("p1", chunks.get(1))));
      assertEquals(SqlRows.rows(original, VIEW), SqlRows.rows(copy, VIEW));
      assertEquals(SqlRows.rows(original, "SELECT g, COUNT(*), SUM(id) FROM t GROUP BY g ORDER BY g"),
          SqlRows.rows(copy, VIEW), "the view equals a recomputation from the table");
    }
  }

  @Test
  void shouldNameTheFileAndOffsetOfAViewChunkTheEngineRefuses() throws Exception {
    try (Database original = withRows(); Database copy = open()) {
      final List<List<byte[]>> chunks = snapshotOf(original);
      final List<byte[]> damaged = new ArrayList<>(chunks.get(0));
      long offset = 8;  // the magic
      int at = -1;
      for (int i = 0; i < damaged.size() && at < 0; i++) {
        if (SnapshotChunks.table(damaged.get(i)).equals("PER_G")) {
          at = i;
        } else {
          offset += 8 + damaged.get(i).length;
        }
      }
      assertTrue(at >= 0, "partition 0 has a chunk of the view");
      final byte[] view = damaged.get(at);
      damaged.set(at, Arrays.copyOf(view, view.length - 3));  // cut short in its last row; the frame's CRC is right
      final Path file = write("p0", damaged);
      final RuntimeException e = assertThrows(RuntimeException.class,
          () -> loadFiles(copy, List.of(file, write("p1", chunks.get(1)))));
      assertTrue(e.getMessage().contains("partition 0, file " + file + ", offset " + offset + ": "), e.getMessage());
      assertTrue(e.getMessage().contains("snapshot chunk 0 of table PER_G: the row ends early"), e.getMessage());
    }
  }
}
