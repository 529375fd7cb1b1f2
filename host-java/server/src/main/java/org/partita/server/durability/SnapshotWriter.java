package org.partita.server.durability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32C;
import org.partita.server.txn.TxnId;

/**
 * Writes one snapshot into a new directory (docs/durability.md,
 * "Snapshots"): the partitions hand it chunks from their site threads; its
 * own I/O thread frames each with a CRC32C into the partition's file. When
 * every partition has finished and the cut is known it fsyncs the files,
 * writes each partition's client de-duplication table, the catalog and its
 * schema changes, and writes the manifest last (fsynced, renamed into
 * place, the directory fsynced): only then is the snapshot complete.
 * A failure (a partition's, or an I/O error such as a full disk) fails the
 * snapshot and removes its directory; nothing else is touched.
 *
 * <p>Thread model: {@link #ready}, {@link #chunk}, {@link #finished},
 * {@link #failed} and {@link #cut} from any thread; the files are written
 * by the writer's thread only.
 */
public final class SnapshotWriter {
  /** Chunk bytes queued for the disk beyond which partitions wait before making more. */
  static final long MAX_QUEUED_BYTES = 16L << 20;

  private sealed interface Op permits Chunk, Dedup, Finished, Failed, Cut {}

  private record Chunk(int partition, byte[] bytes) implements Op {}

  private record Dedup(int partition, byte[] encoded) implements Op {}

  private record Finished(int partition) implements Op {}

  private record Failed(int partition, RuntimeException error) implements Op {}

  private record Cut(List<TxnId> cuts, long catalogVersion, byte[] engineCatalog, List<String> schemaChanges)
      implements Op {}

  private final Path directory;
  private final int partitions;
  /** The partitions whose chunks this snapshot holds (every one, but on a cluster host its copies only). */
  private final List<Integer> copies;
  private final long createdMillis = System.currentTimeMillis();
  private final LinkedBlockingQueue<Op> queue = new LinkedBlockingQueue<>();
  private final AtomicLong queuedBytes = new AtomicLong();
  private final AtomicLong writtenBytes = new AtomicLong();
  private final CompletableFuture<SnapshotManifest> done = new CompletableFuture<>();
  // Writer-thread state.
  private final FileChannel[] files;
  private final CRC32C[] fileCrcs;
  private final long[] fileBytes;
  private final long[] chunks;
  /** By partition, its de-duplication table at the cut (null: none given). */
  private final byte[][] dedupTables;
  private int finishedPartitions;
  private Cut cut;

  private SnapshotWriter(Path directory, int partitions, List<Integer> copies) throws IOException {
    this.directory = directory;
    this.partitions = partitions;
    this.copies = List.copyOf(copies);
    this.files = new FileChannel[partitions];
    this.fileCrcs = new CRC32C[partitions];
    this.fileBytes = new long[partitions];
    this.chunks = new long[partitions];
    this.dedupTables = new byte[partitions][];
    for (int p : this.copies) {
      files[p] = FileChannel.open(directory.resolve(SnapshotManifest.partitionFile(p)), StandardOpenOption.CREATE_NEW,
          StandardOpenOption.WRITE);
      fileCrcs[p] = new CRC32C();
      write(p, ByteBuffer.wrap(SnapshotFormat.MAGIC));
    }
  }

  /**
   * Creates {@code directory} (it must not exist; its parent is created) and
   * starts the writer's thread.
   *
   * @throws IOException when the directory exists or cannot be made
   */
  public static SnapshotWriter start(Path directory, int partitions) throws IOException {
    return start(directory, partitions, SnapshotManifest.every(partitions));
  }

  /**
   * As {@link #start(Path, int)}, for a snapshot that holds the chunks of
   * {@code copies} only (a cluster host's copies, docs/durability.md, "On a
   * cluster"): only their files are written, and the manifest names them.
   *
   * @throws IllegalArgumentException when {@code copies} is empty or names a partition out of range
   */
  public static SnapshotWriter start(Path directory, int partitions, List<Integer> copies) throws IOException {
    if (copies.isEmpty() || copies.stream().anyMatch(p -> p < 0 || p >= partitions)) {
      throw new IllegalArgumentException("a snapshot of " + partitions + " partition(s) cannot hold copies "
          + copies);
    }
    Files.createDirectories(directory.getParent());
    Files.createDirectory(directory);
    SegmentFiles.syncDirectory(directory.getParent());
    final SnapshotWriter writer;
    try {
      writer = new SnapshotWriter(directory, partitions, copies);
    } catch (IOException e) {
      SnapshotStore.deleteDirectory(directory);
      throw e;
    }
    final Thread thread = new Thread(writer::run, "partita-snapshot-writer");
    thread.setDaemon(true);
    thread.start();
    return writer;
  }

  public Path directory() {
    return directory;
  }

  /** Completes with the manifest once the snapshot is durable, or with the reason it failed. */
  public CompletableFuture<SnapshotManifest> done() {
    return done;
  }

  /** Bytes written to the snapshot's files so far. */
  public long writtenBytes() {
    return writtenBytes.get();
  }

  /** Whether the writer takes another chunk now. */
  public boolean ready() {
    return queuedBytes.get() < MAX_QUEUED_BYTES;
  }

  /** Whether the snapshot has failed (the partitions should stop streaming). */
  public boolean cancelled() {
    return done.isCompletedExceptionally();
  }

  public void chunk(int partition, byte[] bytes) {
    queuedBytes.addAndGet(bytes.length);
    queue.add(new Chunk(partition, bytes));
  }

  /**
   * {@code partition}'s client de-duplication table at the cut, written as
   * its own file ({@link SnapshotManifest#dedupFile}) once every chunk is.
   */
  public void dedupTable(int partition, byte[] encoded) {
    queue.add(new Dedup(partition, encoded));
  }

  public void finished(int partition) {
    queue.add(new Finished(partition));
  }

  public void failed(int partition, RuntimeException error) {
    queue.add(new Failed(partition, error));
  }

  /**
   * The cut, once every partition has fixed it: the last transaction of
   * each partition, the catalog then, and the schema changes (DDL of
   * versions 2 .. {@code catalogVersion}) that made that catalog.
   */
  public void cut(List<TxnId> cuts, long catalogVersion, byte[] engineCatalog, List<String> schemaChanges) {
    queue.add(new Cut(cuts, catalogVersion, engineCatalog, List.copyOf(schemaChanges)));
  }

  private void run() {
    try {
      while (finishedPartitions < copies.size() || cut == null) {
        final Op op = queue.take();
        if (op instanceof Chunk c) {
          writeChunk(c);
        } else if (op instanceof Dedup d) {
          dedupTables[d.partition()] = d.encoded();
        } else if (op instanceof Finished) {
          finishedPartitions++;
        } else if (op instanceof Failed f) {
          throw new IllegalStateException((f.partition() < 0 ? "" : "partition " + f.partition() + " failed to"
              + " stream: ") + f.error().getMessage(), f.error());
        } else {
          cut = (Cut) op;
        }
      }
      done.complete(complete());
    } catch (IOException e) {
      fail(new UncheckedIOException("writing snapshot " + directory + ": " + e.getMessage(), e));
    } catch (RuntimeException e) {
      fail(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      fail(new IllegalStateException("the snapshot writer was interrupted"));
    }
  }

  private void writeChunk(Chunk c) throws IOException {
    queuedBytes.addAndGet(-c.bytes().length);
    final CRC32C crc = new CRC32C();
    crc.update(c.bytes());
    final ByteBuffer header = ByteBuffer.allocate(SnapshotFormat.FRAME_HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN)
        .putInt(c.bytes().length).putInt((int) crc.getValue()).flip();
    write(c.partition(), header);
    write(c.partition(), ByteBuffer.wrap(c.bytes()));
    chunks[c.partition()]++;
    CrashPoint.reach("snapshot.chunk-written");
  }

  private void write(int partition, ByteBuffer bytes) throws IOException {
    fileCrcs[partition].update(bytes.duplicate());
    final int n = bytes.remaining();
    while (bytes.hasRemaining()) {
      files[partition].write(bytes);
    }
    fileBytes[partition] += n;
    writtenBytes.addAndGet(n);
  }

  /** Every chunk is written: sync the files, write the catalog, then the manifest. */
  private SnapshotManifest complete() throws IOException {
    final List<SnapshotManifest.FileEntry> entries = new ArrayList<>();
    for (int p : copies) {
      files[p].force(true);
      files[p].close();
      entries.add(new SnapshotManifest.FileEntry(SnapshotManifest.partitionFile(p), fileBytes[p],
          (int) fileCrcs[p].getValue(), chunks[p]));
      if (dedupTables[p] != null) {
        entries.add(writeWhole(SnapshotManifest.dedupFile(p), dedupTables[p]));
      }
    }
    entries.add(0, writeWhole(SchemaChangesFile.NAME, SchemaChangesFile.encode(cut.schemaChanges())));
    entries.add(0, writeWhole(SnapshotManifest.CATALOG_FILE, cut.engineCatalog()));
    CrashPoint.reach("snapshot.files-synced");
    final SnapshotManifest manifest = new SnapshotManifest(createdMillis, cut.catalogVersion(), cut.cuts(), entries,
        copies);
    manifest.writeTo(directory);
    return manifest;
  }

  /** Writes {@code bytes} as file {@code name} of the snapshot, fsynced; its manifest entry. */
  private SnapshotManifest.FileEntry writeWhole(String name, byte[] bytes) throws IOException {
    try (FileChannel channel = FileChannel.open(directory.resolve(name), StandardOpenOption.CREATE_NEW,
        StandardOpenOption.WRITE)) {
      final ByteBuffer buffer = ByteBuffer.wrap(bytes);
      while (buffer.hasRemaining()) {
        channel.write(buffer);
      }
      channel.force(true);
    }
    final CRC32C crc = new CRC32C();
    crc.update(bytes);
    return new SnapshotManifest.FileEntry(name, bytes.length, (int) crc.getValue(), 0);
  }

  private void fail(RuntimeException e) {
    for (FileChannel f : files) {
      try {
        if (f != null) {
          f.close();
        }
      } catch (IOException ignored) {
        // The directory is removed next.
      }
    }
    SnapshotStore.deleteDirectory(directory);
    done.completeExceptionally(e);
  }
}
