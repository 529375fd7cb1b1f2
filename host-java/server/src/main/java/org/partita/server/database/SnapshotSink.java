package org.partita.server.database;

/**
 * Where the partitions' snapshot streams go (the host's snapshot writer).
 * Each site calls it on its own thread, between its transactions, for its
 * partition only: {@link #ready} before making a chunk, then {@link #chunk}
 * with it; at the end {@link #finished} or {@link #failed}, exactly once.
 *
 * <p>Thread model: called by every site thread concurrently; implementations
 * are thread-safe.
 */
public interface SnapshotSink {
  /** Whether the snapshot was given up (failed elsewhere): the site then abandons its stream. */
  boolean cancelled();

  /** Whether the sink takes another chunk of {@code partition} now (false: the site tries again later). */
  boolean ready(int partition);

  /**
   * The next chunk of {@code partition}'s stream (docs/engine-formats.md
   * "Snapshot stream"); the sink owns it. {@code madeNanos} is how long the
   * site spent making it between two transactions: the pause the snapshot
   * put on the partition for this chunk; {@code madeCpuNanos} the site
   * thread's CPU time in it (the wall time less any time the thread was
   * not running, which on a loaded machine is most of a long pause).
   */
  void chunk(int partition, byte[] chunk, long madeNanos, long madeCpuNanos);

  /**
   * {@code partition}'s client de-duplication table at the cut (the copy's
   * {@code DedupTable} form, docs/durability.md "Snapshots"), given once on
   * the site thread at the cut, before the first chunk; the sink owns it. A
   * sink that keeps no table (a rejoin stream, which carries it on its own)
   * ignores it.
   */
  default void dedupTable(int partition, byte[] encoded) {}

  /** Every chunk of {@code partition} was given. */
  void finished(int partition);

  /** {@code partition}'s stream stopped with {@code error}; no more chunks of it come. */
  void failed(int partition, RuntimeException error);
}
