package org.partita.server.engine;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Encodes one batch request (docs/engine-formats.md "Batch request") straight
 * into a direct, little-endian buffer, without allocating per call or per value
 * (except what a {@link BigDecimal} needs). Use:
 *
 * <pre>{@code
 * writer.begin(true, txnTimestampMicros)
 *       .addCall(insertId).addBigInt(1).addVarchar("ann").addInteger(10)
 *       .addCall(selectId).addBigInt(1);
 * ByteBuffer results = engine.execute();
 * }</pre>
 *
 * Parameters belong to the call added last. Dependency tables (inputs of RECEIVE
 * plan nodes) follow the last call. The buffer grows as needed; owned by one
 * {@link PartitionEngine} and confined to its site thread.
 */
public final class BatchRequestWriter {
  private static final int FLAG_FINAL = 1;
  private static final int FLAG_DEPENDENCIES = 2;
  private static final int FLAG_TIME_LIMIT = 4;
  private static final int FLAG_PREFETCH_KEY = 8;
  /** A BIGINT prefetch key: its type byte and value. */
  private static final int PREFETCH_KEY_BYTES = 1 + 8;
  private static final int HEADER_SIZE = 1 + 8 + 4 + 2;
  private static final int MAX_COUNT = 0xFFFF;
  private static final int AD_HOC_STATEMENT = -1;
  public static final int DECIMAL_SCALE = 12;
  private static final BigInteger DECIMAL_MAX_UNSCALED = BigInteger.TEN.pow(38).subtract(BigInteger.ONE);

  // proto ValueType numbers (ValueType.code()).
  private static final byte NULL = 1;
  private static final byte TINYINT = 2;
  private static final byte SMALLINT = 3;
  private static final byte INTEGER = 4;
  private static final byte BIGINT = 5;
  private static final byte FLOAT = 6;
  private static final byte DECIMAL = 7;
  private static final byte VARCHAR = 8;
  private static final byte VARBINARY = 9;
  private static final byte TIMESTAMP = 10;

  private ByteBuffer buffer;
  private boolean begun;
  private int callCountAt;
  private int callCount;
  private int paramCountAt = -1;
  private int paramCount;
  private int dependencyCountAt = -1;
  private int dependencyCount;
  /** True while the request is one given whole to {@link #load}. */
  private boolean loaded;
  /** The length of the request {@link #finish} completed last. */
  private int lastLength;

  BatchRequestWriter(int initialCapacity) {
    buffer = ByteBuffer.allocateDirect(Math.max(initialCapacity, HEADER_SIZE)).order(ByteOrder.LITTLE_ENDIAN);
  }

  /**
   * Starts a new request, discarding anything written before.
   *
   * @param finalBatch commit the transaction when every call succeeds
   * @param txnTimestampMicros the transaction's timestamp (CURRENT_TIMESTAMP), µs since the epoch
   */
  public BatchRequestWriter begin(boolean finalBatch, long txnTimestampMicros) {
    return begin(finalBatch, txnTimestampMicros, 0);
  }

  /**
   * Starts a new request with a time limit: the engine fails the batch with
   * TRANSACTION_TIMEOUT, rolling the transaction back, once it has run
   * {@code timeLimitMillis} (docs/engine-formats.md, flags bit 2).
   *
   * @param timeLimitMillis milliseconds from the batch's start; 0 = none
   */
  public BatchRequestWriter begin(boolean finalBatch, long txnTimestampMicros, int timeLimitMillis) {
    if (timeLimitMillis < 0) {
      throw new IllegalArgumentException("a time limit is positive (or 0 for none), found " + timeLimitMillis);
    }
    buffer.clear();
    loaded = false;
    final int flags = (finalBatch ? FLAG_FINAL : 0) | (timeLimitMillis > 0 ? FLAG_TIME_LIMIT : 0);
    buffer.put((byte) flags).putLong(txnTimestampMicros);
    if (timeLimitMillis > 0) {
      buffer.putInt(timeLimitMillis);
    }
    callCountAt = buffer.position();
    buffer.putShort((short) 0);
    begun = true;
    callCount = 0;
    paramCountAt = -1;
    paramCount = 0;
    dependencyCountAt = -1;
    dependencyCount = 0;
    return this;
  }

  /**
   * Has the request begun last carry {@code key} as its prefetch key
   * (docs/engine-formats.md, flags bit 3): the integer partitioning value of
   * the call expected to run next, whose index slots the engine then
   * fetches into cache. Changes no result. REQUIRES: right after begin,
   * before the first call.
   */
  public BatchRequestWriter prefetchKey(long key) {
    requireBegun();
    if (callCount != 0 || paramCountAt >= 0 || buffer.position() != callCountAt + 2
        || (buffer.get(0) & FLAG_PREFETCH_KEY) != 0) {
      throw new IllegalStateException("the prefetch key goes right after begin, once");
    }
    ensure(PREFETCH_KEY_BYTES);
    buffer.put(0, (byte) (buffer.get(0) | FLAG_PREFETCH_KEY));
    buffer.position(callCountAt);
    buffer.put(BIGINT).putLong(key);
    callCountAt = buffer.position();
    buffer.putShort((short) 0);
    return this;
  }

  /** Adds a call of the catalog statement {@code statementId}; its parameters follow. */
  public BatchRequestWriter addCall(int statementId) {
    startCall(4);
    buffer.putInt(statementId);
    return endCallHeader();
  }

  /**
   * Adds an ad-hoc call: a serialized {@code partita.proto.Statement} (plan,
   * parameter_types, read_only) that the engine compiles, runs once and discards.
   */
  public BatchRequestWriter addAdHocCall(byte[] serializedStatement) {
    startCall(8 + serializedStatement.length);
    buffer.putInt(AD_HOC_STATEMENT).putInt(serializedStatement.length).put(serializedStatement);
    return endCallHeader();
  }

  public BatchRequestWriter addNull() {
    param(1).put(NULL);
    return this;
  }

  public BatchRequestWriter addTinyInt(byte value) {
    param(2).put(TINYINT).put(value);
    return this;
  }

  public BatchRequestWriter addSmallInt(short value) {
    param(3).put(SMALLINT).putShort(value);
    return this;
  }

  public BatchRequestWriter addInteger(int value) {
    param(5).put(INTEGER).putInt(value);
    return this;
  }

  public BatchRequestWriter addBigInt(long value) {
    param(9).put(BIGINT).putLong(value);
    return this;
  }

  public BatchRequestWriter addFloat(double value) {
    param(9).put(FLOAT).putDouble(value);
    return this;
  }

  /** Microseconds since 1970-01-01 00:00:00 UTC. */
  public BatchRequestWriter addTimestamp(long micros) {
    param(9).put(TIMESTAMP).putLong(micros);
    return this;
  }

  /**
   * A DECIMAL: {@code value} at scale 12 as a 128-bit unscaled count; NULL for null.
   *
   * @throws IllegalArgumentException if it has more than 12 fraction digits or 26 integer digits
   */
  public BatchRequestWriter addDecimal(BigDecimal value) {
    if (value == null) {
      return addNull();
    }
    final BigInteger unscaled;
    try {
      unscaled = value.setScale(DECIMAL_SCALE, RoundingMode.UNNECESSARY).unscaledValue();
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("DECIMAL parameter " + value + " has more than 12 fraction digits", e);
    }
    if (unscaled.abs().compareTo(DECIMAL_MAX_UNSCALED) > 0) {
      throw new IllegalArgumentException("DECIMAL parameter " + value + " is out of range (38 digits, scale 12)");
    }
    final long low = unscaled.longValue();
    final long high = unscaled.bitLength() < 64 ? (low >> 63) : unscaled.shiftRight(64).longValue();
    param(17).put(DECIMAL).putLong(low).putLong(high);
    return this;
  }

  /** A VARCHAR, encoded as UTF-8 without an intermediate array; NULL for null. */
  public BatchRequestWriter addVarchar(String value) {
    if (value == null) {
      return addNull();
    }
    final int chars = value.length();
    param(5 + 3 * chars).put(VARCHAR);
    final int lengthAt = buffer.position();
    buffer.putInt(0);
    final int start = buffer.position();
    Utf8.encode(value, buffer);
    buffer.putInt(lengthAt, buffer.position() - start);
    return this;
  }

  /** A VARBINARY; NULL for null. */
  public BatchRequestWriter addVarbinary(byte[] value) {
    if (value == null) {
      return addNull();
    }
    param(5 + value.length).put(VARBINARY).putInt(value.length).put(value);
    return this;
  }

  /**
   * Adds an input table of RECEIVE plan nodes: the bytes of {@code table} from its
   * position to its limit, one table in the result-table format (as a partition
   * returned it). Dependencies follow the last call.
   */
  public BatchRequestWriter addDependency(int dependencyId, ByteBuffer table) {
    requireBegun();
    if (dependencyCountAt < 0) {
      closeCall();
      ensure(2);
      buffer.put(0, (byte) (buffer.get(0) | FLAG_DEPENDENCIES));
      dependencyCountAt = buffer.position();
      buffer.putShort((short) 0);
    }
    if (dependencyCount == MAX_COUNT) {
      throw new IllegalStateException("a batch carries at most " + MAX_COUNT + " dependency tables");
    }
    final int length = table.remaining();
    ensure(8 + length);
    buffer.putInt(dependencyId).putInt(length).put(table.duplicate());
    dependencyCount++;
    return this;
  }

  /**
   * A writer owned by no engine: it builds a request to send to another
   * host ({@link #toByteArray}). Confined to the thread that uses it.
   */
  public static BatchRequestWriter detached() {
    return new BatchRequestWriter(1024);
  }

  /** Completes the request written since {@code begin} and returns a copy of its bytes. */
  public byte[] toByteArray() {
    final int length = finish();
    final byte[] out = new byte[length];
    buffer.get(0, out);
    return out;
  }

  /**
   * Makes {@code request}, a whole request another host wrote
   * ({@link #toByteArray}), the next one; the engine checks it as it checks
   * any (a malformed one fails with BAD_REQUEST naming the offset).
   */
  public BatchRequestWriter load(byte[] request) {
    buffer.clear();
    begun = true;
    dependencyCountAt = -1;
    paramCountAt = -1;
    ensure(request.length);
    buffer.put(request);
    loaded = true;
    return this;
  }

  /**
   * A copy of the request the engine ran last, without its time limit
   * (flags bit 2) or prefetch key (bit 3): what a replica runs again, as
   * recovery does, with no limit, and a hint that was only this copy's.
   * REQUIRES: right after {@code execute}, before the next begin.
   */
  public byte[] lastRequestWithoutLimitOrHint() {
    final byte flags = buffer.get(0);
    final int dropped = ((flags & FLAG_TIME_LIMIT) != 0 ? 4 : 0)
        + ((flags & FLAG_PREFETCH_KEY) != 0 ? PREFETCH_KEY_BYTES : 0);
    final byte[] out = new byte[lastLength - dropped];
    out[0] = (byte) (flags & ~(FLAG_TIME_LIMIT | FLAG_PREFETCH_KEY));
    buffer.get(1, out, 1, 8);
    buffer.get(1 + 8 + dropped, out, 9, lastLength - 9 - dropped);
    return out;
  }

  /** Completes the request; returns its length in bytes. */
  int finish() {
    if (loaded) {
      loaded = false;
      begun = false;
      lastLength = buffer.position();
      return lastLength;
    }
    requireBegun();
    closeCall();
    buffer.putShort(callCountAt, (short) callCount);
    if (dependencyCountAt >= 0) {
      buffer.putShort(dependencyCountAt, (short) dependencyCount);
    }
    begun = false;
    lastLength = buffer.position();
    return lastLength;
  }

  /** The current request buffer (replaced when it grows). */
  ByteBuffer buffer() {
    return buffer;
  }

  private void startCall(int bytes) {
    requireBegun();
    if (dependencyCountAt >= 0) {
      throw new IllegalStateException("calls come before the dependency tables");
    }
    if (callCount == MAX_COUNT) {
      throw new IllegalStateException("a batch holds at most " + MAX_COUNT + " calls");
    }
    closeCall();
    ensure(bytes + 2);
  }

  private BatchRequestWriter endCallHeader() {
    paramCountAt = buffer.position();
    buffer.putShort((short) 0);
    paramCount = 0;
    callCount++;
    return this;
  }

  private void closeCall() {
    if (paramCountAt >= 0) {
      buffer.putShort(paramCountAt, (short) paramCount);
      paramCountAt = -1;
    }
  }

  private ByteBuffer param(int bytes) {
    if (paramCountAt < 0) {
      throw new IllegalStateException(begun ? "parameters follow a call: addCall first" : "begin a batch first");
    }
    if (paramCount == MAX_COUNT) {
      throw new IllegalStateException("a call takes at most " + MAX_COUNT + " parameters");
    }
    ensure(bytes);
    paramCount++;
    return buffer;
  }

  private void requireBegun() {
    if (!begun) {
      throw new IllegalStateException("begin a batch first");
    }
  }

  private void ensure(int bytes) {
    if (buffer.remaining() >= bytes) {
      return;
    }
    final long needed = (long) buffer.position() + bytes;
    if (needed > Integer.MAX_VALUE - 8) {
      throw new IllegalStateException("batch request larger than 2 GiB");
    }
    final int capacity = (int) Math.min(Integer.MAX_VALUE - 8, Math.max(needed, 2L * buffer.capacity()));
    final ByteBuffer grown = ByteBuffer.allocateDirect(capacity).order(ByteOrder.LITTLE_ENDIAN);
    buffer.flip();
    grown.put(buffer);
    buffer = grown;
  }
}
