package org.partita.server.engine;

import java.nio.ByteBuffer;

/**
 * The JNI entry points of {@code libpartita_jni.so} ({@code ee/src/jni/native_engine.cc};
 * protocol in docs/jni.md). Natives only: {@link PartitionEngine} is the object a
 * site uses.
 *
 * <p>Every method throws {@link EngineException} on failure, including for a
 * closed or made-up handle and for a call from a thread other than the one that
 * called {@link #open}: an engine belongs to one site thread.
 */
final class NativeEngine {
  static {
    NativeLibrary.load();
  }

  private NativeEngine() {}

  /**
   * Opens an engine over a serialized {@code partita.proto.Catalog}; returns its handle.
   * {@code queryMemoryBytes} bounds each statement's intermediate results (0 = unbounded).
   */
  static native long open(byte[] catalog, int partitionId, int partitionCount, long queryMemoryBytes);

  /**
   * Asks the batch running on the engine's thread to stop (Engine::RequestCancel): it fails
   * with CANCELLED within a few thousand rows and rolls back. The one call any thread may make;
   * a no-op for a closed handle, which it reports by returning false.
   */
  static native boolean cancel(long handle);

  /**
   * Registers the direct buffers (any byte order; the formats are little-endian).
   * The caller keeps both referenced until the next setBuffers or close.
   */
  static native void setBuffers(long handle, ByteBuffer request, ByteBuffer response);

  /**
   * Runs the batch in the first {@code requestLength} bytes of the request buffer.
   * Writes the response at offset 0 of the response buffer: the transaction's u64
   * write hash (little-endian), then the result set. Returns the response's length
   * L (8 + the result set's), or -L when it does not fit: grow the buffer,
   * setBuffers, then {@link #fetchPendingResult}.
   */
  static native long execute(long handle, int requestLength);

  /** Copies the results kept by the last execute; same return values as execute. */
  static native long fetchPendingResult(long handle);

  /** Applies a new serialized catalog keeping the data (Engine::UpdateCatalog); no open transaction. */
  static native void updateCatalog(long handle, byte[] catalog);

  static native void commit(long handle);

  static native void rollback(long handle);

  static native boolean inTransaction(long handle);

  /** A serialized {@code partita.proto.TableStatsList}. */
  static native byte[] tableStats(long handle);

  /** Fixes a snapshot cut of every table (Engine::BeginSnapshot); no open transaction. */
  static native void beginSnapshot(long handle);

  /** The next chunk of the active snapshot, about maxBytes of rows; null when the stream is over. */
  static native byte[] nextSnapshotChunk(long handle, int maxBytes);

  /** Abandons the active snapshot; no-op without one. */
  static native void abortSnapshot(long handle);

  /** Bytes of cut images the active snapshot keeps (rows changed ahead of its scan). */
  static native long snapshotKeptBytes(long handle);

  /** Loads one chunk of a snapshot stream into this engine's tables (Engine::LoadSnapshotChunk). */
  static native void loadSnapshotChunk(long handle, byte[] chunk);

  /** Rolls back any open transaction and frees the engine; the handle is dead afterwards. */
  static native void close(long handle);
}
