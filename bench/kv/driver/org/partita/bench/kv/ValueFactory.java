package org.partita.bench.kv;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The values the driver writes: {@code size} bytes, the write's sequence
 * number in the first 8 (big-endian), then random bytes taken from a fixed
 * pool at an offset that depends on the sequence number. A value is thus a
 * function of its sequence number: the driver keeps only sequence numbers
 * and can rebuild, and compare, any value it wrote. Immutable; thread-safe.
 */
public final class ValueFactory {
  /** The sequence number's bytes: the smallest value size accepted. */
  public static final int MIN_SIZE = Long.BYTES;
  /** The widest value the schema's {@code store.value VARBINARY(1048576)} holds. */
  public static final int MAX_SIZE = 1 << 20;
  private static final int POOL_EXTRA = 4096;

  private final int size;
  private final byte[] pool;

  /** @throws IllegalArgumentException unless {@code MIN_SIZE <= size <= MAX_SIZE} */
  public ValueFactory(int size, long seed) {
    if (size < MIN_SIZE || size > MAX_SIZE) {
      throw new IllegalArgumentException("--value-size must be between " + MIN_SIZE + " (the write's sequence "
          + "number) and " + MAX_SIZE + " bytes (the width of store.value), got " + size);
    }
    this.size = size;
    this.pool = new byte[size + POOL_EXTRA];
    final SplittableRandom random = new SplittableRandom(seed);
    for (int i = 0; i < pool.length; i++) {
      pool[i] = (byte) random.nextInt(256);
    }
  }

  public int size() {
    return size;
  }

  /** The value of write number {@code sequence}. */
  public byte[] value(long sequence) {
    final byte[] value = new byte[size];
    final int offset = (int) Long.remainderUnsigned(sequence * 0x9E3779B97F4A7C15L, POOL_EXTRA);
    System.arraycopy(pool, offset + MIN_SIZE, value, MIN_SIZE, size - MIN_SIZE);
    ByteBuffer.wrap(value).putLong(0, sequence);
    return value;
  }

  /** The sequence number embedded in {@code value}, or -1 when it is too short to hold one. */
  public static long sequenceOf(byte[] value) {
    return value == null || value.length < MIN_SIZE ? -1 : ByteBuffer.wrap(value).getLong(0);
  }

  /** Whether {@code value} is exactly the value of write number {@code sequence}. */
  public boolean isValueOf(byte[] value, long sequence) {
    return value != null && Arrays.equals(value, value(sequence));
  }
}
