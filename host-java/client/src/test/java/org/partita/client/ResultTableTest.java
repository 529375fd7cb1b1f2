package org.partita.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ResultTableTest {
  /** Little-endian encoder of the result format, for hand-made tables. */
  private static final class Bytes {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    Bytes u8(int v) {
      out.write(v);
      return this;
    }

    Bytes u16(int v) {
      return u8(v & 0xFF).u8(v >>> 8 & 0xFF);
    }

    Bytes i32(int v) {
      return u16(v & 0xFFFF).u16(v >>> 16);
    }

    Bytes i64(long v) {
      return i32((int) v).i32((int) (v >>> 32));
    }

    Bytes raw(byte[] b) {
      out.write(b, 0, b.length);
      return this;
    }

    Bytes text(String s) {
      final byte[] b = s.getBytes(StandardCharsets.UTF_8);
      return i32(b.length).raw(b);
    }

    Bytes column(ValueType type, String name) {
      final byte[] b = name.getBytes(StandardCharsets.UTF_8);
      return u8(type.code()).u16(b.length).raw(b);
    }

    Bytes row(Bytes body) {
      final byte[] b = body.bytes();
      return i32(b.length).raw(b);
    }

    /** Prefixes the table_size. */
    Bytes table(Bytes body) {
      final byte[] b = body.bytes();
      return i32(b.length).raw(b);
    }

    byte[] bytes() {
      return out.toByteArray();
    }
  }

  // ID BIGINT, NAME VARCHAR, PRICE DECIMAL, AT TIMESTAMP, N TINYINT, X FLOAT, B VARBINARY
  private static byte[] sampleTable() {
    final Bytes body = new Bytes().u16(7)
        .column(ValueType.BIGINT, "ID").column(ValueType.VARCHAR, "NAME").column(ValueType.DECIMAL, "PRICE")
        .column(ValueType.TIMESTAMP, "AT").column(ValueType.TINYINT, "N").column(ValueType.FLOAT, "X")
        .column(ValueType.VARBINARY, "B")
        .i32(2);
    body.row(new Bytes().u8(0).i64(1).text("anné").i64(12_500_000_000_000L).i64(0).i64(1_500_000L).u8(-3 & 0xFF)
        .i64(Double.doubleToLongBits(2.5)).i32(2).u8(0xAB).u8(0x01));
    // Second row: NAME, PRICE and B NULL (bits 1, 2, 6).
    body.row(new Bytes().u8(0b0100_0110).i64(-7).i64(-1L).u8(0).i64(Double.doubleToLongBits(-0.5)));
    return new Bytes().table(body).bytes();
  }

  private static ResultTable sample() {
    return ResultTable.read(ByteBuffer.wrap(sampleTable()));
  }

  @Test
  void shouldReadHeaderAndRowsWithTypedGetters() {
    final ResultTable t = sample();
    assertEquals(7, t.columnCount());
    assertEquals(2, t.rowCount());
    assertEquals("PRICE", t.columnName(2));
    assertEquals(ValueType.TIMESTAMP, t.columnType(3));
    assertTrue(t.advanceRow());
    assertEquals(1, t.getLong(0));
    assertFalse(t.wasNull());
    assertEquals("anné", t.getString("NAME"));
    assertEquals(new BigDecimal("12.500000000000"), t.getDecimal(2));
    assertEquals(1_500_000L, t.getTimestampMicros("AT"));
    assertEquals(-3, t.getLong("N"));
    assertEquals(2.5, t.getDouble("X"));
    assertArrayEquals(new byte[] {(byte) 0xAB, 1}, t.getBytes("B"));
    assertEquals(Instant.ofEpochSecond(1, 500_000_000), t.getObject("AT"));
    assertTrue(t.advanceRow());
    assertEquals(-7, t.getLong("id"));
    assertNull(t.getString(1));
    assertTrue(t.wasNull());
    assertNull(t.getDecimal(2));
    assertEquals(-1, t.getTimestampMicros(3));
    assertFalse(t.wasNull());
    assertNull(t.getObject(6));
    assertFalse(t.advanceRow());
    t.resetRowPosition();
    assertTrue(t.advanceRow());
    assertEquals(1, t.getLong(0));
  }

  @Test
  void shouldReadDecimalsBeyondSixtyFourBits() {
    final BigDecimal big = new BigDecimal("-12345678901234567890123456.123456789012");
    final java.math.BigInteger unscaled = big.unscaledValue();
    final Bytes body = new Bytes().u16(1).column(ValueType.DECIMAL, "D").i32(1)
        .row(new Bytes().u8(0).i64(unscaled.longValue()).i64(unscaled.shiftRight(64).longValue()));
    final ResultTable t = ResultTable.read(ByteBuffer.wrap(new Bytes().table(body).bytes()));
    t.advanceRow();
    assertEquals(big, t.getDecimal(0));
  }

  @Test
  void shouldRejectGettersOfAnotherType() {
    final ResultTable t = sample();
    t.advanceRow();
    final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> t.getLong(1));
    assertTrue(e.getMessage().contains("NAME"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> t.getString(0));
    assertThrows(IllegalArgumentException.class, () -> t.getLong("MISSING"));
  }

  @Test
  void shouldRequireACurrentRow() {
    final ResultTable t = sample();
    assertThrows(IllegalStateException.class, () -> t.getLong(0));
  }

  @Test
  void shouldFormatAsAlignedText() {
    final Bytes body = new Bytes().u16(2).column(ValueType.BIGINT, "ID").column(ValueType.VARCHAR, "NAME").i32(2)
        .row(new Bytes().u8(0).i64(10).text("a"))
        .row(new Bytes().u8(2).i64(2));
    final ResultTable t = ResultTable.read(ByteBuffer.wrap(new Bytes().table(body).bytes()));
    assertEquals("ID NAME\n-- ----\n10 a\n2  NULL\n", t.toString());
  }

  @Test
  void shouldParseAResultSetOfSeveralTablesFromADirectBuffer() {
    final byte[] table = sampleTable();
    final Bytes set = new Bytes().i32(2).raw(table).raw(table);
    final byte[] bytes = set.bytes();
    final ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length + 3);
    direct.put(new byte[3]).put(bytes).flip().position(3);
    final ResultTable[] tables = ResultTables.parse(direct.order(ByteOrder.BIG_ENDIAN));
    assertEquals(2, tables.length);
    assertEquals(3, direct.position());
    tables[1].advanceRow();
    assertEquals("anné", tables[1].getString(1));
  }

  @Test
  void shouldRejectEveryTruncation() {
    final byte[] set = new Bytes().i32(1).raw(sampleTable()).bytes();
    for (int n = 0; n < set.length; n++) {
      final ByteBuffer prefix = ByteBuffer.wrap(set, 0, n);
      assertThrows(ResultFormatException.class, () -> ResultTables.parse(prefix), "prefix of " + n);
    }
  }

  @Test
  void shouldRejectTrailingBytesNamingTheOffset() {
    final byte[] set = new Bytes().i32(1).raw(sampleTable()).u8(0).bytes();
    final ResultFormatException e =
        assertThrows(ResultFormatException.class, () -> ResultTables.parse(ByteBuffer.wrap(set)));
    assertEquals(set.length - 1, e.offset());
    assertTrue(e.getMessage().contains("byte " + (set.length - 1)), e.getMessage());
  }

  @Test
  void shouldRejectUnknownTypeAndRowsThatDisagreeWithTheirSize() {
    final byte[] badType = new Bytes().table(new Bytes().u16(1).u8(99).u16(0).i32(0)).bytes();
    final ResultFormatException e =
        assertThrows(ResultFormatException.class, () -> ResultTable.read(ByteBuffer.wrap(badType)));
    assertEquals(6, e.offset());
    // A BIGINT row of 5 bytes (bitmap + 4): the value runs past the row.
    final byte[] shortRow = new Bytes().table(new Bytes().u16(1).column(ValueType.BIGINT, "A").i32(1)
        .row(new Bytes().u8(0).i32(7))).bytes();
    assertThrows(ResultFormatException.class, () -> ResultTable.read(ByteBuffer.wrap(shortRow)));
    // A string length far past the row.
    final byte[] longString = new Bytes().table(new Bytes().u16(1).column(ValueType.VARCHAR, "S").i32(1)
        .row(new Bytes().u8(0).i32(-1))).bytes();
    assertThrows(ResultFormatException.class, () -> ResultTable.read(ByteBuffer.wrap(longString)));
    // A row count larger than the bytes could hold.
    final byte[] manyRows = new Bytes().table(new Bytes().u16(0).i32(Integer.MAX_VALUE)).bytes();
    assertThrows(ResultFormatException.class, () -> ResultTable.read(ByteBuffer.wrap(manyRows)));
  }
  private static Bytes oneColumnTable(int rows) {
    final Bytes body = new Bytes().u16(1).column(ValueType.BIGINT, "Total").i32(rows);
    for (int r = 0; r < rows; r++) {
      body.row(r == 1 ? new Bytes().u8(1) : new Bytes().u8(0).i64(100 + r));
    }
    return new Bytes().table(body);
  }

  @Test
  void shouldReadOneColumnTablesOfZeroOneAndSeveralRows() {
    final ResultTable none = ResultTable.read(ByteBuffer.wrap(oneColumnTable(0).bytes()));
    assertEquals(0, none.rowCount());
    assertFalse(none.advanceRow());
    assertEquals("Total", none.columnName(0));
    final ResultTable one = ResultTable.read(ByteBuffer.wrap(oneColumnTable(1).bytes()));
    assertTrue(one.advanceRow());
    assertEquals(100, one.getLong("TOTAL"));
    assertThrows(IndexOutOfBoundsException.class, () -> one.getLong(1));
    assertFalse(one.advanceRow());
    final ResultTable three = ResultTable.read(ByteBuffer.wrap(oneColumnTable(3).bytes()));
    three.advanceToRow(2);
    assertEquals(102, three.getLong(0));
    three.advanceToRow(1);
    assertEquals(0, three.getLong(0));
    assertTrue(three.wasNull());
    three.advanceToRow(0);
    assertEquals(100, three.getLong(0));
    assertFalse(three.wasNull());
    assertThrows(IndexOutOfBoundsException.class, () -> three.advanceToRow(3));
    assertEquals("Total\n-----\n100\nNULL\n102\n", three.toString());
  }

  /** A little-endian buffer holding one result set of {@code tables}. */
  private static ByteBuffer resultSet(byte[]... tables) {
    final Bytes set = new Bytes().i32(tables.length);
    for (byte[] t : tables) {
      set.raw(t);
    }
    return ByteBuffer.wrap(set.bytes()).order(java.nio.ByteOrder.LITTLE_ENDIAN);
  }

  @Test
  void shouldRepointReusedTablesAtTheNextResultSetOfAsManyTables() {
    final ByteBuffer first = resultSet(oneColumnTable(1).bytes(), sampleTable());
    final ResultTable[] tables = ResultTables.parseShared(null, first, 0, first.limit());
    tables[0].advanceRow();
    tables[1].advanceRow();
    assertEquals("NAME", tables[1].columnName(1));
    tables[1].getString(1);

    final ByteBuffer second = resultSet(sampleTable(), oneColumnTable(3).bytes());
    final ResultTable zero = tables[0];
    final ResultTable[] again = ResultTables.parseShared(tables, second, 0, second.limit());
    assertSame(tables, again);
    assertSame(zero, again[0]);
    // Each table reads its new bytes from before its first row, names and value offsets included.
    assertEquals(7, again[0].columnCount());
    assertEquals("ID", again[0].columnName(0));
    assertTrue(again[0].advanceRow());
    assertEquals("anné", again[0].getString("NAME"));
    assertEquals(3, again[1].rowCount());
    assertEquals("Total", again[1].columnName(0));
    again[1].advanceToRow(2);
    assertEquals(102, again[1].getLong(0));
  }

  @Test
  void shouldMakeNewTablesWhenTheReusedOnesAreNotAsMany() {
    final ByteBuffer one = resultSet(oneColumnTable(1).bytes());
    final ResultTable[] reuse = ResultTables.parseShared(null, one, 0, one.limit());
    final ByteBuffer two = resultSet(oneColumnTable(0).bytes(), oneColumnTable(2).bytes());
    final ResultTable[] tables = ResultTables.parseShared(reuse, two, 0, two.limit());
    assertEquals(2, tables.length);
    assertTrue(reuse[0].advanceRow());
    assertEquals(100, reuse[0].getLong(0));
  }

  @Test
  void shouldGiveEachViewItsOwnCursorOverTheSameBytes() {
    final ResultTable t = ResultTable.read(ByteBuffer.wrap(oneColumnTable(3).bytes()));
    final ResultTable view = t.view();
    assertTrue(t.advanceRow());
    assertTrue(t.advanceRow());
    assertTrue(view.advanceRow());
    assertEquals(100, view.getLong(0));
    assertEquals(1, t.activeRowIndex());
    assertEquals(0, t.getLong(0));
    assertTrue(t.wasNull());
    assertEquals(100, view.getLong(0));
    assertFalse(view.wasNull());
    assertEquals(t.bytes(), view.bytes());
    assertEquals("Total", view.columnName(0));
  }

  @Test
  void shouldGiveEachTableOfAResultSetExactlyItsOwnBytes() {
    final byte[] first = oneColumnTable(1).bytes();
    final byte[] second = sampleTable();
    final byte[] third = oneColumnTable(0).bytes();
    final byte[] set = new Bytes().i32(3).raw(first).raw(second).raw(third).bytes();
    for (ByteBuffer source : new ByteBuffer[] {ByteBuffer.wrap(set), ByteBuffer.allocateDirect(set.length).put(set).flip()}) {
      final ResultTable[] tables = ResultTables.parse(source);
      assertEquals(3, tables.length);
      final byte[][] expected = {first, second, third};
      for (int i = 0; i < 3; i++) {
        final ByteBuffer bytes = tables[i].bytes();
        assertTrue(bytes.isReadOnly());
        assertEquals(0, bytes.position());
        assertEquals(expected[i].length, tables[i].byteSize());
        final byte[] copy = new byte[bytes.remaining()];
        bytes.get(copy);
        assertArrayEquals(expected[i], copy, "table " + i);
      }
      tables[1].advanceRow();
      assertEquals("anné", tables[1].getString("NAME"));
      assertEquals("Total", tables[2].columnName(0));
    }
  }
}
