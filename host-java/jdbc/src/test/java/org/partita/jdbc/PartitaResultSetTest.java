package org.partita.jdbc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.sql.ResultSetMetaData;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.partita.client.ResultTable;
import org.partita.client.ResultTableBuilder;
import org.partita.client.ValueType;

class PartitaResultSetTest {
  /** 2026-11-24T01:02:03.123456Z in µs. */
  private static final long MICROS = 1_795_482_123_123_456L;

  private static ResultTable everyType() {
    return new ResultTableBuilder().column("B", ValueType.BIGINT).column("I", ValueType.INTEGER)
        .column("S", ValueType.SMALLINT).column("T", ValueType.TINYINT).column("F", ValueType.FLOAT)
        .column("D", ValueType.DECIMAL).column("V", ValueType.VARCHAR).column("X", ValueType.VARBINARY)
        .column("TS", ValueType.TIMESTAMP)
        .row(5_000_000_000L, 7, (short) 300, (byte) -4, 2.25, new BigDecimal("1.5"), "42", new byte[] {9}, MICROS)
        .row(null, null, null, null, null, null, null, null, null)
        .build();
  }

  @Test
  void shouldReadEveryTypeAsJdbcMapsIt() throws SQLException {
    final PartitaResultSet rs = new PartitaResultSet(null, everyType(), 0);
    assertTrue(rs.next());
    assertEquals(5_000_000_000L, rs.getObject(1));
    assertEquals(7, rs.getObject("i"));
    assertEquals(300, rs.getObject(3));
    assertEquals(-4, rs.getObject(4));
    assertEquals(2.25, rs.getObject(5));
    assertEquals(new BigDecimal("1.500000000000"), rs.getObject(6));
    assertEquals("42", rs.getObject(7));
    assertArrayEquals(new byte[] {9}, (byte[]) rs.getObject(8));
    final Timestamp ts = (Timestamp) rs.getObject(9);
    assertEquals(Instant.parse("2026-11-24T01:02:03.123456Z"), ts.toInstant());
    assertEquals(123_456_000, ts.getNanos());
    assertEquals(Instant.parse("2026-11-24T01:02:03.123456Z"), rs.getObject(9, Instant.class));
  }

  @Test
  void shouldConvertBetweenTypesOrSayWhyNot() throws SQLException {
    final PartitaResultSet rs = new PartitaResultSet(null, everyType(), 0);
    rs.next();
    assertEquals(42, rs.getInt("V"), "text holding a number");
    assertEquals("1.500000000000", rs.getString("D"));
    assertEquals(2, rs.getLong("F"));
    assertEquals("09", rs.getString("X"));
    assertEquals("2026-11-24", rs.getTimestamp("TS").toInstant().toString().substring(0, 10));
    assertEquals("22003", assertThrows(SQLDataException.class, () -> rs.getInt("B")).getSQLState());
    assertEquals("22003", assertThrows(SQLDataException.class, () -> rs.getByte("S")).getSQLState());
    assertEquals("22018", assertThrows(SQLDataException.class, () -> rs.getTimestamp("I")).getSQLState());
    assertEquals("22018", assertThrows(SQLDataException.class, () -> rs.getBytes("B")).getSQLState());
  }

  @Test
  void shouldReadNullsAsZeroFalseOrNullWithWasNull() throws SQLException {
    final PartitaResultSet rs = new PartitaResultSet(null, everyType(), 0);
    rs.next();
    rs.next();
    for (int c = 1; c <= 9; c++) {
      assertNull(rs.getObject(c));
      assertTrue(rs.wasNull());
    }
    assertEquals(0, rs.getLong(1));
    assertEquals(0.0, rs.getDouble(5));
    assertFalse(rs.getBoolean(2));
    assertNull(rs.getBigDecimal(6));
    assertNull(rs.getString(7));
    assertFalse(rs.next());
    assertTrue(rs.isAfterLast());
  }

  @Test
  void shouldDescribeColumns() throws SQLException {
    final ResultSetMetaData meta = new PartitaResultSet(null, everyType(), 0).getMetaData();
    assertEquals(9, meta.getColumnCount());
    assertEquals(Types.BIGINT, meta.getColumnType(1));
    assertEquals(Types.DOUBLE, meta.getColumnType(5));
    assertEquals(Types.DECIMAL, meta.getColumnType(6));
    assertEquals(12, meta.getScale(6));
    assertEquals("TIMESTAMP", meta.getColumnTypeName(9));
    assertEquals("java.lang.Integer", meta.getColumnClassName(4));
    assertEquals("07009", assertThrows(SQLException.class, () -> meta.getColumnType(10)).getSQLState());
  }

  @Test
  void shouldStopAtMaxRowsAndRefuseScrollingAndUpdates() throws SQLException {
    final PartitaResultSet rs = new PartitaResultSet(null, everyType(), 1);
    assertTrue(rs.isBeforeFirst());
    assertTrue(rs.next());
    assertTrue(rs.isLast());
    assertFalse(rs.next());
    assertThrows(SQLFeatureNotSupportedException.class, rs::previous);
    assertThrows(SQLFeatureNotSupportedException.class, () -> rs.updateLong(1, 5));
    rs.close();
    assertEquals("HY010", assertThrows(SQLException.class, rs::next).getSQLState());
  }
}
