package org.partita.server.engine;

import com.google.protobuf.InvalidProtocolBufferException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.partita.proto.ErrorCode;
import org.partita.proto.TableStatsList;

/**
 * One partition's native engine as its site thread sees it: opens the engine,
 * owns the direct request and response buffers shared with it, encodes
 * batches through {@link #request()} and runs them with {@link #execute()}.
 *
 * <p>Thread model: confined to the thread that opened it (the engine refuses
 * calls from any other), except {@link #cancel()}, which any thread may call.
 *
 * <p>Errors: every engine failure is an {@link EngineException}; a failed batch
 * has rolled the whole transaction back.
 *
 * <p>The response buffer holds {@code [u64 write hash][result set]}
 * (docs/jni.md): {@link #execute()} returns a view of the result set alone and
 * {@link #writeHash()} reads the hash, so both come back in one JNI call.
 */
public final class PartitionEngine implements AutoCloseable {
  /** Initial request buffer size; it grows as batches need. */
  public static final int DEFAULT_REQUEST_CAPACITY = 64 * 1024;
  /** Initial response buffer size; it grows when a result set does not fit. */
  public static final int DEFAULT_RESPONSE_CAPACITY = 256 * 1024;
  /** Bytes before the result set in the response buffer: the u64 write hash. */
  static final int RESPONSE_HEADER_BYTES = 8;
  /**
   * Per-statement bound on intermediate results when none is given: 1 GiB, a small share of a
   * machine that holds its data in memory (the server's --query-memory sets it).
   */
  public static final long DEFAULT_QUERY_MEMORY_BYTES = 1L << 30;

  private final long handle;
  private final int partitionId;
  private final BatchRequestWriter writer;
  private ByteBuffer registeredRequest;
  private ByteBuffer response;
  private ByteBuffer responseView;
  private long writeHash;
  private boolean closed;

  private PartitionEngine(long handle, int partitionId, int requestCapacity, int responseCapacity) {
    this.handle = handle;
    this.partitionId = partitionId;
    this.writer = new BatchRequestWriter(requestCapacity);
    setResponseBuffer(ByteBuffer.allocateDirect(responseCapacity));
  }

  /** Opens an engine over a serialized {@code partita.proto.Catalog}, with the default buffer sizes. */
  public static PartitionEngine open(byte[] catalog, int partitionId, int partitionCount) {
    return open(catalog, partitionId, partitionCount, DEFAULT_REQUEST_CAPACITY, DEFAULT_RESPONSE_CAPACITY);
  }

  /** Opens an engine with the given initial buffer sizes (bytes; the response buffer at least 8). */
  public static PartitionEngine open(
      byte[] catalog, int partitionId, int partitionCount, int requestCapacity, int responseCapacity) {
    return open(catalog, partitionId, partitionCount, requestCapacity, responseCapacity,
        DEFAULT_QUERY_MEMORY_BYTES);
  }

  /**
   * Opens an engine with the given initial buffer sizes and per-statement memory bound on
   * intermediate results (bytes; 0 = unbounded): past it a statement fails with
   * QUERY_MEMORY_LIMIT and its transaction rolls back.
   */
  public static PartitionEngine open(byte[] catalog, int partitionId, int partitionCount, int requestCapacity,
      int responseCapacity, long queryMemoryBytes) {
    if (queryMemoryBytes < 0) {
      throw new IllegalArgumentException("query memory is positive (or 0 for unbounded), found " + queryMemoryBytes);
    }
    final long handle = NativeEngine.open(catalog, partitionId, partitionCount, queryMemoryBytes);
    try {
      return new PartitionEngine(handle, partitionId, requestCapacity, responseCapacity);
    } catch (RuntimeException | Error e) {
      NativeEngine.close(handle);
      throw e;
    }
  }

  public int partitionId() {
    return partitionId;
  }

  /** The writer of the next batch: call {@code begin(...)} on it, add calls, then {@link #execute()}. */
  public BatchRequestWriter request() {
    return writer;
  }

  /**
   * Runs the batch written through {@link #request()}.
   *
   * @return the serialized result set (docs/engine-formats.md), read-only and
   *     little-endian, from position 0 to its length; valid until the next
   *     execute (the same view object is reused)
   * @throws EngineException on any error; the transaction was rolled back
   */
  public ByteBuffer execute() {
    final int length = writer.finish();
    if (writer.buffer() != registeredRequest) {
      registeredRequest = writer.buffer();
      NativeEngine.setBuffers(handle, registeredRequest, response);
    }
    long result = NativeEngine.execute(handle, length);
    while (result < 0) {
      growResponse(-result);
      result = NativeEngine.fetchPendingResult(handle);
    }
    writeHash = response.getLong(0);
    responseView.clear().limit((int) result - RESPONSE_HEADER_BYTES);
    return responseView;
  }

  /**
   * The write hash of the open (or just committed) transaction after the last
   * successful {@link #execute()}: a 64-bit hash of every row it wrote so far,
   * in order (table, kind of write, row values), the same on every replica that
   * ran the same transactions; 0 when it wrote nothing. Replicas compare it.
   * Meaningless after an execute that threw.
   */
  public long writeHash() {
    return writeHash;
  }

  /** Applies a new catalog keeping the data (docs/engine.md "UpdateCatalog"). REQUIRES: no open transaction. */
  public void updateCatalog(byte[] catalog) {
    NativeEngine.updateCatalog(handle, catalog);
  }

  /** Commits the open transaction (after non-final batches); no-op without one. */
  public void commit() {
    NativeEngine.commit(handle);
  }

  /** Rolls back the open transaction (a user abort); no-op without one. */
  public void rollback() {
    NativeEngine.rollback(handle);
  }

  public boolean inTransaction() {
    return NativeEngine.inTransaction(handle);
  }

  /**
   * Fixes a snapshot cut of every table now (docs/engine.md "Snapshots"): afterwards
   * {@link #nextSnapshotChunk(int)} yields the rows as of this moment while transactions go on.
   * REQUIRES: no open transaction (else EngineException BAD_REQUEST), no snapshot active.
   */
  public void beginSnapshot() {
    NativeEngine.beginSnapshot(handle);
  }

  /**
   * The next chunk of the active snapshot (docs/engine-formats.md "Snapshot stream"), holding about
   * {@code maxBytes} of rows; call it between transactions.
   *
   * @return the chunk, or null once the stream is over (the snapshot has then ended)
   */
  public byte[] nextSnapshotChunk(int maxBytes) {
    return NativeEngine.nextSnapshotChunk(handle, maxBytes);
  }

  /** Abandons the active snapshot, freeing what it kept; no-op without one. */
  public void abortSnapshot() {
    NativeEngine.abortSnapshot(handle);
  }

  /** Bytes the active snapshot keeps for rows changed ahead of its scan (0 without one). */
  public long snapshotKeptBytes() {
    return NativeEngine.snapshotKeptBytes(handle);
  }

  /**
   * Loads one chunk of a snapshot stream taken with the same catalog into this engine's tables,
   * building indexes and views; each table's chunks in order, the first into an empty table.
   *
   * @throws EngineException BAD_REQUEST naming the table and fault; the chunk loaded nothing
   */
  public void loadSnapshotChunk(byte[] chunk) {
    NativeEngine.loadSnapshotChunk(handle, chunk);
  }

  /** Rows and memory of every table of this partition. */
  public TableStatsList tableStats() {
    try {
      return TableStatsList.parseFrom(NativeEngine.tableStats(handle));
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("the engine returned malformed table stats", e);
    }
  }

  /**
   * Asks the batch running now to stop: {@link #execute()} then throws an EngineException with
   * ERROR_CODE_CANCELLED and the transaction is rolled back. A request made while no batch runs is
   * forgotten when the next batch starts.
   *
   * <p>Thread-safe: the one method any thread may call, at any time, even after close (then it
   * does nothing and returns false).
   *
   * @return whether the engine was open to receive the request
   */
  public boolean cancel() {
    return NativeEngine.cancel(handle);
  }

  /** Rolls back any open transaction and frees the engine. Idempotent. */
  @Override
  public void close() {
    if (!closed) {
      closed = true;
      NativeEngine.close(handle);
    }
  }

  /** The native handle (for tests of the bridge). */
  long handle() {
    return handle;
  }

  private void growResponse(long needed) {
    if (needed > Integer.MAX_VALUE - 8) {
      throw new EngineException(
          ErrorCode.ERROR_CODE_RESULT_TOO_LARGE_VALUE,
          "result set of " + needed + " bytes exceeds a Java buffer");
    }
    final long capacity = Math.max(needed, Math.min(Integer.MAX_VALUE - 8, 2L * response.capacity()));
    setResponseBuffer(ByteBuffer.allocateDirect((int) capacity));
    registeredRequest = writer.buffer();
    NativeEngine.setBuffers(handle, registeredRequest, response);
  }

  private void setResponseBuffer(ByteBuffer buffer) {
    response = buffer.order(ByteOrder.LITTLE_ENDIAN);
    responseView = response.duplicate().position(RESPONSE_HEADER_BYTES).slice().asReadOnlyBuffer()
        .order(ByteOrder.LITTLE_ENDIAN);
  }
}
