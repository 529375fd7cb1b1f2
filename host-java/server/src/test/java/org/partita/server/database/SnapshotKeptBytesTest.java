package org.partita.server.database;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.LongPredicate;
import org.junit.jupiter.api.Test;

/**
 * The memory a snapshot's copy-on-write images take, as the partitions
 * publish it for {@code @Statistics SNAPSHOT}: none before a snapshot, the
 * images of the rows changed after the cut while the stream has not passed
 * them, none once the stream is over.
 */
class SnapshotKeptBytesTest {
  private static final long DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(20);

  /** A sink that takes no chunk until opened, then counts the partitions that finished. */
  private static final class GatedSink implements SnapshotSink {
    private final CountDownLatch finished;
    private volatile boolean open;
    private volatile RuntimeException failure;

    GatedSink(int partitions) {
      finished = new CountDownLatch(partitions);
    }

    @Override
    public boolean cancelled() {
      return false;
    }

    @Override
    public boolean ready(int partition) {
      return open;
    }

    @Override
    public void chunk(int partition, byte[] chunk, long madeNanos, long madeCpuNanos) {}

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

  @Test
  void shouldReportTheImagesKeptWhileASnapshotRuns() throws Exception {
    try (Database db = Database.openEmpty(2)) {
      SqlRows.ok(db, "CREATE TABLE items (id BIGINT NOT NULL PRIMARY KEY, name VARCHAR(100))");
      SqlRows.ok(db, "PARTITION TABLE items ON COLUMN id");
      for (long id = 0; id < 200; id++) {
        SqlRows.ok(db, "INSERT INTO items VALUES (?, ?)", id, "before the cut " + id);
      }
      assertEquals(0, db.snapshotKeptBytes(), "no snapshot, nothing kept");
      final GatedSink sink = new GatedSink(db.partitionCount());
      db.beginSnapshot(sink).get(20, TimeUnit.SECONDS);
      SqlRows.ok(db, "UPDATE items SET name = 'changed after the cut'");
      final long kept = await(db, bytes -> bytes > 0);
      assertTrue(kept >= 200 * Long.BYTES, "every changed row's image is kept: " + kept);
      sink.open = true;
      assertTrue(sink.finished.await(20, TimeUnit.SECONDS), "the streams end once the sink takes chunks");
      assertEquals(null, sink.failure);
      assertEquals(0, await(db, bytes -> bytes == 0), "the images are freed with the stream");
    }
  }

  /** The figure once it satisfies {@code until} (the partitions publish it between their transactions). */
  private static long await(Database db, LongPredicate until) throws InterruptedException {
    final long deadline = System.nanoTime() + DEADLINE_NANOS;
    long bytes = db.snapshotKeptBytes();
    while (!until.test(bytes)) {
      assertTrue(System.nanoTime() < deadline, "the kept bytes stayed at " + bytes);
      Thread.sleep(10); // waiting for the figure to change, not proving that it did not
      bytes = db.snapshotKeptBytes();
    }
    return bytes;
  }
}
