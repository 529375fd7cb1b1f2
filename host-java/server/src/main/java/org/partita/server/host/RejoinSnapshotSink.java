package org.partita.server.host;

import org.partita.server.database.SnapshotSink;
import org.partita.server.replication.RejoinStream;

/**
 * The leader's site's snapshot sink for one rejoin stream (docs/cluster.md,
 * "Rejoin"): hands the chunks to the {@link RejoinStream}, which sends them
 * to the joining host, and lets the site make a chunk only when the stream
 * takes one (the joining host's window). The stream is set at the cut, on
 * the site thread, before the site asks for any chunk.
 *
 * <p>Thread model: the partition's site thread.
 */
final class RejoinSnapshotSink implements SnapshotSink {
  private volatile RejoinStream stream;

  void streamTo(RejoinStream target) {
    stream = target;
  }

  @Override
  public boolean cancelled() {
    final RejoinStream s = stream;
    return s != null && s.cancelled();
  }

  @Override
  public boolean ready(int partition) {
    final RejoinStream s = stream;
    return s != null && s.takesChunk();
  }

  @Override
  public void chunk(int partition, byte[] chunk, long madeNanos, long madeCpuNanos) {
    stream.chunk(chunk, madeNanos, madeCpuNanos);
  }

  @Override
  public void finished(int partition) {
    stream.snapshotFinished();
  }

  @Override
  public void failed(int partition, RuntimeException error) {
    stream.snapshotFailed(String.valueOf(error.getMessage()));
  }
}
