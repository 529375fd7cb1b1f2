package org.partita.client.internal;

import java.math.BigDecimal;
import java.time.Instant;
import org.partita.client.PartitionHash;
import org.partita.client.ValueType;

/**
 * The partition a call parameter routes to, computed as the server does
 * (docs/partition-hash.md): the value is first converted to the canonical
 * form of the partitioning column's type — integer types and TIMESTAMP hash
 * as a 64-bit integer, VARCHAR as its UTF-8 text, VARBINARY as its bytes —
 * then hashed. A value the client cannot convert exactly is not routed
 * ({@link #UNROUTABLE}); the server converts or rejects it. Stateless.
 */
public final class PartitionKey {
  /** Returned when a value has no partition the client can compute. */
  public static final int UNROUTABLE = -1;

  private static final double TWO_63 = 0x1p63;

  private PartitionKey() {}

  /**
   * The partition of {@code value} for a partitioning column of type number
   * {@code typeCode} (plan.proto ValueType) among {@code partitionCount}
   * partitions, or {@link #UNROUTABLE}. NULL routes to partition 0.
   */
  public static int partition(Object value, int typeCode, int partitionCount) {
    if (value == null) {
      return 0;
    }
    final ValueType type = ValueType.fromCode(typeCode);
    if (type == null) {
      return UNROUTABLE;
    }
    if (type.isInteger()) {
      return integerPartition(value, partitionCount);
    }
    return switch (type) {
      case VARCHAR -> value instanceof String s
          ? PartitionHash.partitionOfHash(PartitionHash.hashString(s), partitionCount) : UNROUTABLE;
      case VARBINARY -> value instanceof byte[] b
          ? PartitionHash.partitionOfHash(PartitionHash.hashBytes(b), partitionCount) : UNROUTABLE;
      case TIMESTAMP -> value instanceof Instant t ? timestampPartition(t, partitionCount)
          : integerPartition(value, partitionCount);
      default -> UNROUTABLE;
    };
  }

  private static int timestampPartition(Instant t, int partitionCount) {
    try {
      return PartitionHash.partitionOfHash(PartitionHash.hashLong(CallEncoder.micros(t)), partitionCount);
    } catch (ArithmeticException e) {
      return UNROUTABLE;
    }
  }

  private static int integerPartition(Object value, int partitionCount) {
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
    return PartitionHash.partitionOfHash(PartitionHash.hashLong(v), partitionCount);
  }
}
