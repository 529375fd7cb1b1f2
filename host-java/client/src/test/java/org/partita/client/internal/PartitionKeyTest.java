package org.partita.client.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.partita.client.PartitionHash;
import org.partita.client.ValueType;

class PartitionKeyTest {
  private static final int BIGINT = ValueType.BIGINT.code();

  @Test
  void shouldHashEveryIntegerTypeAsALong() {
    // 6175551234 is in partition 5 of 8 (tests/vectors/partition_hash.tsv).
    assertEquals(5, PartitionKey.partition(6175551234L, BIGINT, 8));
    assertEquals(PartitionKey.partition(42L, ValueType.TINYINT.code(), 12), PartitionKey.partition((byte) 42, BIGINT, 12));
    assertEquals(PartitionKey.partition(42L, BIGINT, 12), PartitionKey.partition(42, ValueType.SMALLINT.code(), 12));
  }

  @Test
  void shouldConvertExactDecimalsAndWholeFloatsForIntegerColumns() {
    final int expected = PartitionKey.partition(42L, BIGINT, 12);
    assertEquals(expected, PartitionKey.partition(new BigDecimal("42.000"), BIGINT, 12));
    assertEquals(expected, PartitionKey.partition(42.0, BIGINT, 12));
  }

  @Test
  void shouldNotRouteValuesTheClientCannotConvertExactly() {
    assertEquals(PartitionKey.UNROUTABLE, PartitionKey.partition(new BigDecimal("4.5"), BIGINT, 4));
    assertEquals(PartitionKey.UNROUTABLE, PartitionKey.partition(4.5, BIGINT, 4));
    assertEquals(PartitionKey.UNROUTABLE, PartitionKey.partition(1e30, BIGINT, 4));
    assertEquals(PartitionKey.UNROUTABLE, PartitionKey.partition("42", BIGINT, 4));
    assertEquals(PartitionKey.UNROUTABLE, PartitionKey.partition(42L, ValueType.VARCHAR.code(), 4));
    assertEquals(PartitionKey.UNROUTABLE, PartitionKey.partition("ab", ValueType.VARBINARY.code(), 4));
    assertEquals(PartitionKey.UNROUTABLE, PartitionKey.partition(1.0, ValueType.FLOAT.code(), 4));
    assertEquals(PartitionKey.UNROUTABLE, PartitionKey.partition(1L, 99, 4));
  }

  @Test
  void shouldHashTimestampsAsMicroseconds() {
    final int timestamp = ValueType.TIMESTAMP.code();
    final Instant t = Instant.ofEpochSecond(1_700_000_000L, 123_456_000);
    final int expected = PartitionHash.partitionOfHash(PartitionHash.hashLong(1_700_000_000_123_456L), 12);
    assertEquals(expected, PartitionKey.partition(t, timestamp, 12));
    assertEquals(expected, PartitionKey.partition(1_700_000_000_123_456L, timestamp, 12));
    assertEquals(PartitionKey.UNROUTABLE, PartitionKey.partition(Instant.MAX, timestamp, 12));
  }

  @Test
  void shouldHashStringsAndBytesByTheirColumnType() {
    // "Partita" is in partition 8 of 12; the empty VARBINARY in partition 4 of 8.
    assertEquals(8, PartitionKey.partition("Partita", ValueType.VARCHAR.code(), 12));
    assertEquals(4, PartitionKey.partition(new byte[0], ValueType.VARBINARY.code(), 8));
  }

  @Test
  void shouldSendNullToPartitionZero() {
    assertEquals(0, PartitionKey.partition(null, BIGINT, 8));
  }
}
