package org.partita.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ResultTableBuilderTest {
  private static ResultTableBuilder allTypes() {
    return new ResultTableBuilder()
        .column("T", ValueType.TINYINT)
        .column("S", ValueType.SMALLINT)
        .column("I", ValueType.INTEGER)
        .column("B", ValueType.BIGINT)
        .column("F", ValueType.FLOAT)
        .column("D", ValueType.DECIMAL)
        .column("V", ValueType.VARCHAR)
        .column("X", ValueType.VARBINARY)
        .column("TS", ValueType.TIMESTAMP)
        .column("BOOL", ValueType.BOOLEAN);
  }

  private static IllegalArgumentException rejected(ValueType type, Object value) {
    final ResultTableBuilder b = new ResultTableBuilder().column("C", type);
    return assertThrows(IllegalArgumentException.class, () -> b.row(value));
  }

  @Test
  void shouldRoundTripEveryType() {
    final ResultTable t = allTypes()
        .row((byte) -7, (short) 300, 70_000, 1L << 40, 2.5, new BigDecimal("-12.5"), "héllo",
            new byte[] {1, 2, 3}, Instant.ofEpochSecond(1, 2000), true)
        .build();
    assertEquals(1, t.rowCount());
    assertTrue(t.advanceRow());
    assertEquals(-7, t.getLong("T"));
    assertEquals(300, t.getLong("S"));
    assertEquals(70_000, t.getLong("I"));
    assertEquals(1L << 40, t.getLong("B"));
    assertEquals(2.5, t.getDouble("F"));
    assertEquals(0, new BigDecimal("-12.5").compareTo(t.getDecimal("D")));
    assertEquals("héllo", t.getString("V"));
    assertArrayEquals(new byte[] {1, 2, 3}, t.getBytes("X"));
    assertEquals(1_000_002L, t.getTimestampMicros("TS"));
    assertEquals(Boolean.TRUE, t.getObject("BOOL"));
  }

  @Test
  void shouldReadNullInEveryColumn() {
    final ResultTable t = allTypes().row(new Object[10]).build();
    assertTrue(t.advanceRow());
    for (int c = 0; c < t.columnCount(); c++) {
      assertNull(t.getObject(c), "column " + c);
      assertTrue(t.wasNull(), "column " + c);
    }
  }

  @Test
  void shouldKeepColumnNamesTypesAndRowOrder() {
    final ResultTable t = new ResultTableBuilder().column("NAME", ValueType.VARCHAR).column("N", ValueType.BIGINT)
        .row("a", 1L).row(null, 2).row("c", null).build();
    assertEquals("NAME", t.columnName(0));
    assertEquals(ValueType.BIGINT, t.columnType(1));
    assertEquals(3, t.rowCount());
    t.advanceToRow(1);
    assertNull(t.getString(0));
    assertEquals(2, t.getLong(1));
    t.advanceToRow(2);
    assertEquals(0, t.getLong(1));
    assertTrue(t.wasNull());
  }

  @Test
  void shouldRoundTripDecimalsAtTheLimitsOfScaleAndPrecision() {
    final BigDecimal largest = new BigDecimal("99999999999999999999999999.999999999999");
    final ResultTable t = new ResultTableBuilder().column("D", ValueType.DECIMAL)
        .row(largest).row(largest.negate()).row(new BigDecimal("0.000000000001")).row(new BigDecimal("1.0000000000005"))
        .row(7).row(0.25).build();
    t.advanceRow();
    assertEquals(largest, t.getDecimal(0));
    t.advanceRow();
    assertEquals(largest.negate(), t.getDecimal(0));
    t.advanceRow();
    assertEquals(new BigDecimal("0.000000000001"), t.getDecimal(0));
    t.advanceRow();
    assertEquals(new BigDecimal("1.000000000001"), t.getDecimal(0), "rounded half-up to scale 12");
    t.advanceRow();
    assertEquals(0, BigDecimal.valueOf(7).compareTo(t.getDecimal(0)));
    t.advanceRow();
    assertEquals(0, new BigDecimal("0.25").compareTo(t.getDecimal(0)));
  }

  @Test
  void shouldRejectDecimalOfMoreThan38Digits() {
    final IllegalArgumentException e = rejected(ValueType.DECIMAL, new BigDecimal("1E26"));
    assertTrue(e.getMessage().contains("38 digits"), e.getMessage());
  }

  @Test
  void shouldRejectNonFiniteDecimal() {
    rejected(ValueType.DECIMAL, Double.NaN);
    rejected(ValueType.DECIMAL, Double.POSITIVE_INFINITY);
  }

  @Test
  void shouldRejectTextInANumericColumn() {
    final IllegalArgumentException e = rejected(ValueType.DECIMAL, "12.5");
    assertTrue(e.getMessage().contains("column 0 (C, DECIMAL)"), e.getMessage());
    assertTrue(e.getMessage().contains("String"), e.getMessage());
  }

  @Test
  void shouldRejectNumberInAVarcharColumnNamingRowAndColumn() {
    final ResultTableBuilder b = new ResultTableBuilder().column("ID", ValueType.BIGINT)
        .column("NAME", ValueType.VARCHAR).row(1L, "ok");
    final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.row(2L, 42));
    assertTrue(e.getMessage().startsWith("row 1 column 1 (NAME, VARCHAR) cannot hold Integer 42"), e.getMessage());
  }

  @Test
  void shouldRejectIntegerOutOfItsColumnsRange() {
    rejected(ValueType.TINYINT, 128);
    rejected(ValueType.SMALLINT, 40_000);
    rejected(ValueType.INTEGER, 1L << 31);
    rejected(ValueType.BIGINT, BigInteger.ONE.shiftLeft(63));
  }

  @Test
  void shouldRejectFractionInAnIntegerColumn() {
    final IllegalArgumentException e = rejected(ValueType.INTEGER, 3.7);
    assertTrue(e.getMessage().contains("Double 3.7"), e.getMessage());
  }

  @Test
  void shouldRejectWrongTypesForTheOtherColumns() {
    rejected(ValueType.FLOAT, "1.5");
    rejected(ValueType.VARBINARY, "bytes");
    rejected(ValueType.TIMESTAMP, "2020-01-01");
    rejected(ValueType.TIMESTAMP, Instant.MAX);
    rejected(ValueType.BOOLEAN, 1);
  }

  @Test
  void shouldRejectRowWithTooFewOrTooManyValues() {
    final ResultTableBuilder b = new ResultTableBuilder().column("A", ValueType.BIGINT).column("B", ValueType.BIGINT);
    final IllegalArgumentException few = assertThrows(IllegalArgumentException.class, () -> b.row(1L));
    assertEquals("row 0 has 1 value(s), table has 2 column(s)", few.getMessage());
    assertThrows(IllegalArgumentException.class, () -> b.row(1L, 2L, 3L));
  }

  @Test
  void shouldRejectColumnAfterFirstRow() {
    final ResultTableBuilder b = new ResultTableBuilder().column("A", ValueType.BIGINT).row(1L);
    assertThrows(IllegalStateException.class, () -> b.column("B", ValueType.BIGINT));
  }

  @Test
  void shouldRejectNullAsAColumnType() {
    assertThrows(IllegalArgumentException.class, () -> new ResultTableBuilder().column("A", ValueType.NULL));
  }

  @Test
  void shouldNotSeeLaterChangesToARowArray() {
    final Object[] values = {1L};
    final ResultTableBuilder b = new ResultTableBuilder().column("A", ValueType.BIGINT).row(values);
    values[0] = 2L;
    final ResultTable t = b.build();
    t.advanceRow();
    assertEquals(1, t.getLong(0));
  }

  @Test
  void shouldBuildATableWithoutRowsThatReadsBackFromItsBytes() {
    final ResultTable t = new ResultTableBuilder().column("A", ValueType.VARCHAR).build();
    final ByteBuffer bytes = t.bytes();
    final ResultTable again = ResultTable.read(bytes);
    assertEquals(0, again.rowCount());
    assertEquals("A", again.columnName(0));
    assertFalse(again.advanceRow());
    assertEquals(t.byteSize(), again.byteSize());
  }

  @Test
  void shouldCopyItsBytesAtAnIndexLeavingPositionsAndCursorAlone() {
    final ResultTable t = new ResultTableBuilder().column("A", ValueType.BIGINT).row(3L).row(4L).build();
    t.advanceRow();
    final ByteBuffer dst = ByteBuffer.allocate(t.byteSize() + 3);
    dst.position(1);
    t.copyTo(dst, 2);
    assertEquals(1, dst.position());
    final byte[] copied = new byte[t.byteSize()];
    dst.get(2, copied);
    final byte[] expected = new byte[t.byteSize()];
    t.bytes().get(expected);
    assertArrayEquals(expected, copied);
    assertEquals(3L, t.getLong(0));
    assertThrows(IndexOutOfBoundsException.class, () -> t.copyTo(dst, 4));
  }

  @Test
  void shouldReadShortAndLongStringsFromDirectMemory() {
    final String longer = "é".repeat(40);  // 80 bytes: past the scratch array
    final ResultTable built = new ResultTableBuilder().column("S", ValueType.VARCHAR).row("MA").row(longer).row("")
        .row((Object) null).row("TX").build();
    final ByteBuffer direct = ByteBuffer.allocateDirect(built.byteSize());
    built.copyTo(direct, 0);
    final ResultTable t = ResultTable.read(direct);
    final java.util.List<String> read = new java.util.ArrayList<>();
    while (t.advanceRow()) {
      read.add(t.getString(0));
    }
    assertEquals(java.util.Arrays.asList("MA", longer, "", null, "TX"), read);
  }
}
