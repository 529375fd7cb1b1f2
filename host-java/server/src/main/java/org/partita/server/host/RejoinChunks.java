package org.partita.server.host;

import java.io.IOException;
import java.util.concurrent.LinkedBlockingQueue;
import org.partita.server.database.SnapshotSource;

/**
 * A rejoin snapshot's chunks as they arrive from the partition's leader
 * (docs/cluster.md, "Rejoin"), read by the joining copy's site as they come:
 * {@link #next} waits for the next chunk. The leader's window bounds how many
 * wait here. {@link #close} ends a replaced attempt's load: its site's next
 * read fails.
 *
 * <p>Thread-safe: the internal port's event loop adds, the copy's site reads.
 */
final class RejoinChunks implements SnapshotSource {
  private static final byte[] END = new byte[0];
  private static final byte[] CLOSED = new byte[0];

  private final LinkedBlockingQueue<byte[]> queue = new LinkedBlockingQueue<>();
  private final int partition;

  RejoinChunks(int partition) {
    this.partition = partition;
  }

  /** The next chunk of the stream. Never blocks. */
  void add(byte[] chunk) {
    queue.add(chunk);
  }

  /** Every chunk was added. */
  void end() {
    queue.add(END);
  }

  /** The attempt was replaced: a read waiting or to come fails. */
  void close() {
    queue.add(CLOSED);
  }

  @Override
  public byte[] next() throws IOException {
    final byte[] chunk;
    try {
      chunk = queue.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting for the rejoin snapshot of partition " + partition, e);
    }
    if (chunk == CLOSED) {
      queue.add(CLOSED);
      throw new IOException("the rejoin of partition " + partition + " started over");
    }
    return chunk == END ? null : chunk;
  }

  @Override
  public String lastChunkAt(long chunkNumber) {
    return "chunk " + chunkNumber + " of partition " + partition + "'s rejoin stream";
  }
}
