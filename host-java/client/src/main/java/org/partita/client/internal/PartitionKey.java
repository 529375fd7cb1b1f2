package org.partita.client.internal;

import java.math.BigDecimal;
import java.time.Instant;
import org.partita.client.PartitionHash;
import org.partita.client.ValueType;

/**
 * The bucket a call parameter routes to, computed as the server does
 * (docs/partition-hash.md); the topology's bucket table then names its
 * partition. The value is first converted to the canonical
 * form of the partitioning column's type — integer types and TIMESTAMP hash
 * as a 64-bit integer, VARCHAR as its UTF-8 text, VARBINARY as its bytes —
 * then hashed. A value the client cannot convert exactly is not routed
 * ({@link #UNROUTABLE}); the server converts or rejects it. Stateless.
 */
public final class PartitionKey {
  /** Returned when a value has no partition the client can compute. */
  public static final int UNROUTABLE = -1;
  /** The "bucket" of NULL: it always routes to partition 0. */
  public static final int NULL_VALUE = -2;

  private static final double TWO_63 = 0x1p63;

  private PartitionKey() {}

  /**
   * The bucket (0 to {@link PartitionHash#BUCKETS} - 1) of {@code value} for
   * a partitioning column of type number {@code typeCode} (plan.proto
   * ValueType), {@link #NULL_VALUE} for null (which always routes to
   * partition 0), or {@link #UNROUTABLE}.
   */
  public static int bucket(Object value, int typeCode) {
    if (value == null) {
      return NULL_VALUE;
    }
    final ValueType type = ValueType.fromCode(typeCode);
    if (type == null) {
      return UNROUTABLE;
    }
    if (type.isInteger()) {
      return integerBucket(value);
    }
    return switch (type) {
      case VARCHAR -> value instanceof String s ? PartitionHash.bucket(PartitionHash.hashString(s)) : UNROUTABLE;
      case VARBINARY -> value instanceof byte[] b ? PartitionHash.bucket(PartitionHash.hashBytes(b)) : UNROUTABLE;
      case TIMESTAMP -> value instanceof Instant t ? timestampBucket(t) : integerBucket(value);
      default -> UNROUTABLE;
    };
  }

  /**
   * The partition of {@code value} among {@code partitionCount} partitions
   * with the default bucket table (bucket mod partitionCount), or
   * {@link #UNROUTABLE}. NULL routes to partition 0.
   */
  public static int partition(Object value, int typeCode, int partitionCount) {
    final int bucket = bucket(value, typeCode);
    return bucket == NULL_VALUE ? 0 : bucket == UNROUTABLE ? UNROUTABLE : bucket % partitionCount;
  }

  private static int timestampBucket(Instant t) {
    try {
      return PartitionHash.bucket(PartitionHash.hashLong(CallEncoder.micros(t)));
    } catch (ArithmeticException e) {
      return UNROUTABLE;
    }
  }

  private static int integerBucket(Object value) {
    final long v;
    if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
      v = ((Number) value).longValue();
    } else if (value instanceof BigDecimal d) {
      try {
        v = d.longValueExact();
      } catch (ArithmeticException e) {
        return UNROUTABLE;
      }
    } else if (value instanceof Double || value instanceof Float) {
      final double d = ((Number) value).doubleValue();
      if (d != Math.rint(d) || Math.abs(d) >= TWO_63) {
        return UNROUTABLE;
      }
      v = (long) d;
    } else {
      return UNROUTABLE;
    }
    return PartitionHash.bucket(PartitionHash.hashLong(v));
  }
}
