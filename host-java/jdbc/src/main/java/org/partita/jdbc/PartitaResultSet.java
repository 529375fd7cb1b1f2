package org.partita.jdbc;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Date;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Calendar;
import java.util.Map;
import org.partita.client.ResultTable;

/**
 * A forward-only, read-only result set over one result table of an answer
 * (the whole table is in memory). Column indexes are 1-based; labels match
 * exactly, else ignoring case. Types: {@link Values}. Calendars are not used:
 * a TIMESTAMP is an instant.
 *
 * <p>Thread model: not thread-safe, as JDBC result sets are used.
 */
public final class PartitaResultSet extends UnsupportedResultSetMethods {
  private static final String INVALID_CURSOR = "24000";

  private final PartitaStatement statement;
  private final ResultTable table;
  private final long maxRows;
  private int row = -1;
  private boolean wasNull;
  private boolean closed;

  /** A result set of {@code statement} (null for metadata tables) over {@code table}; 0 = every row. */
  PartitaResultSet(PartitaStatement statement, ResultTable table, long maxRows) {
    this.statement = statement;
    this.table = table;
    this.maxRows = maxRows;
    table.resetRowPosition();
  }

  private int rows() {
    return maxRows > 0 ? (int) Math.min(maxRows, table.rowCount()) : table.rowCount();
  }

  @Override
  public boolean next() throws SQLException {
    checkOpen();
    if (row + 1 >= rows()) {
      row = rows();
      return false;
    }
    row++;
    table.advanceToRow(row);
    return true;
  }

  /** The 0-based column of {@code index}, the cursor checked to be on a row. */
  private int column(int index) throws SQLException {
    checkOpen();
    if (index < 1 || index > table.columnCount()) {
      throw new SQLException("column index " + index + " is outside 1.." + table.columnCount(),
          SqlStates.INVALID_INDEX);
    }
    if (row < 0 || row >= rows()) {
      throw new SQLException("the cursor is " + (row < 0 ? "before the first row (call next())" : "after the last row"),
          INVALID_CURSOR);
    }
    return index - 1;
  }

  /** Reads the value's nullness for wasNull() and returns the 0-based column. */
  private int read(int index) throws SQLException {
    final int c = column(index);
    wasNull = Values.isNull(table, c);
    return c;
  }

  @Override
  public boolean wasNull() throws SQLException {
    checkOpen();
    return wasNull;
  }

  @Override
  public int findColumn(String label) throws SQLException {
    checkOpen();
    try {
      return table.columnIndex(label) + 1;
    } catch (IllegalArgumentException e) {
      throw new SQLException("no column labelled '" + label + "'; columns: " + columnList(), SqlStates.COLUMN_NOT_FOUND);
    }
  }

  private String columnList() {
    final StringBuilder b = new StringBuilder();
    for (int c = 0; c < table.columnCount(); c++) {
      b.append(c == 0 ? "" : ", ").append(table.columnName(c));
    }
    return b.toString();
  }

  // ---- getters by index ----

  @Override
  public String getString(int index) throws SQLException {
    return Values.getString(table, read(index));
  }

  @Override
  public String getNString(int index) throws SQLException {
    return getString(index);
  }

  @Override
  public boolean getBoolean(int index) throws SQLException {
    final int c = read(index);
    if (wasNull) {
      return false;
    }
    if (table.columnType(c) == org.partita.client.ValueType.VARCHAR) {
      final String s = table.getString(c).trim();
      return s.equalsIgnoreCase("true") || s.equals("1");
    }
    return Values.getDecimal(table, c).signum() != 0;
  }

  @Override
  public byte getByte(int index) throws SQLException {
    return (byte) Values.getLong(table, read(index), Byte.MIN_VALUE, Byte.MAX_VALUE, "TINYINT (byte)");
  }

  @Override
  public short getShort(int index) throws SQLException {
    return (short) Values.getLong(table, read(index), Short.MIN_VALUE, Short.MAX_VALUE, "SMALLINT (short)");
  }

  @Override
  public int getInt(int index) throws SQLException {
    return (int) Values.getLong(table, read(index), Integer.MIN_VALUE, Integer.MAX_VALUE, "INTEGER (int)");
  }

  @Override
  public long getLong(int index) throws SQLException {
    return Values.getLong(table, read(index), Long.MIN_VALUE, Long.MAX_VALUE, "BIGINT (long)");
  }

  @Override
  public float getFloat(int index) throws SQLException {
    return (float) getDouble(index);
  }

  @Override
  public double getDouble(int index) throws SQLException {
    final int c = read(index);
    return wasNull ? 0 : Values.getDouble(table, c);
  }

  @Override
  public BigDecimal getBigDecimal(int index) throws SQLException {
    return Values.getDecimal(table, read(index));
  }

  @Override
  @Deprecated
  public BigDecimal getBigDecimal(int index, int scale) throws SQLException {
    final BigDecimal d = getBigDecimal(index);
    return d == null ? null : d.setScale(scale, RoundingMode.HALF_UP);
  }

  @Override
  public byte[] getBytes(int index) throws SQLException {
    return Values.getBytes(table, read(index));
  }

  @Override
  public Timestamp getTimestamp(int index) throws SQLException {
    return Values.getTimestamp(table, read(index));
  }

  @Override
  public Timestamp getTimestamp(int index, Calendar cal) throws SQLException {
    return getTimestamp(index);
  }

  @Override
  public Date getDate(int index) throws SQLException {
    final Timestamp t = getTimestamp(index);
    return t == null ? null : new Date(t.getTime());
  }

  @Override
  public Date getDate(int index, Calendar cal) throws SQLException {
    return getDate(index);
  }

  @Override
  public Time getTime(int index) throws SQLException {
    final Timestamp t = getTimestamp(index);
    return t == null ? null : new Time(t.getTime());
  }

  @Override
  public Time getTime(int index, Calendar cal) throws SQLException {
    return getTime(index);
  }

  @Override
  public Object getObject(int index) throws SQLException {
    return Values.getObject(table, read(index));
  }

  @Override
  public Object getObject(int index, Map<String, Class<?>> map) throws SQLException {
    return getObject(index);
  }

  /** Reads the value as {@code type}: a boxed number, BigDecimal, String, byte[], Timestamp or java.time type. */
  @Override
  public <T> T getObject(int index, Class<T> type) throws SQLException {
    final Object v = objectAs(index, type);
    return wasNull ? null : type.cast(v);
  }

  private Object objectAs(int index, Class<?> type) throws SQLException {
    if (type == Long.class) {
      return getLong(index);
    } else if (type == Integer.class) {
      return getInt(index);
    } else if (type == Short.class) {
      return getShort(index);
    } else if (type == Byte.class) {
      return getByte(index);
    } else if (type == Double.class) {
      return getDouble(index);
    } else if (type == Float.class) {
      return getFloat(index);
    } else if (type == Boolean.class) {
      return getBoolean(index);
    } else if (type == BigDecimal.class) {
      return getBigDecimal(index);
    } else if (type == String.class) {
      return getString(index);
    } else if (type == byte[].class) {
      return getBytes(index);
    }
    return temporalAs(index, type);
  }

  private Object temporalAs(int index, Class<?> type) throws SQLException {
    final Timestamp t = getTimestamp(index);
    if (t == null) {
      return null;
    }
    if (type == Timestamp.class || type == java.util.Date.class) {
      return t;
    } else if (type == Instant.class) {
      return t.toInstant();
    } else if (type == OffsetDateTime.class) {
      return t.toInstant().atOffset(ZoneOffset.UTC);
    } else if (type == LocalDateTime.class) {
      return LocalDateTime.ofInstant(t.toInstant(), ZoneId.systemDefault());
    }
    throw SqlStates.unsupported("getObject(" + index + ", " + type.getName() + ")",
        "readable types are boxed numbers, BigDecimal, String, byte[], Timestamp, Instant, OffsetDateTime,"
            + " LocalDateTime");
  }

  // ---- getters by label ----

  @Override
  public String getString(String label) throws SQLException {
    return getString(findColumn(label));
  }

  @Override
  public String getNString(String label) throws SQLException {
    return getString(findColumn(label));
  }

  @Override
  public boolean getBoolean(String label) throws SQLException {
    return getBoolean(findColumn(label));
  }

  @Override
  public byte getByte(String label) throws SQLException {
    return getByte(findColumn(label));
  }

  @Override
  public short getShort(String label) throws SQLException {
    return getShort(findColumn(label));
  }

  @Override
  public int getInt(String label) throws SQLException {
    return getInt(findColumn(label));
  }

  @Override
  public long getLong(String label) throws SQLException {
    return getLong(findColumn(label));
  }

  @Override
  public float getFloat(String label) throws SQLException {
    return getFloat(findColumn(label));
  }

  @Override
  public double getDouble(String label) throws SQLException {
    return getDouble(findColumn(label));
  }

  @Override
  public BigDecimal getBigDecimal(String label) throws SQLException {
    return getBigDecimal(findColumn(label));
  }

  @Override
  @Deprecated
  public BigDecimal getBigDecimal(String label, int scale) throws SQLException {
    return getBigDecimal(findColumn(label), scale);
  }

  @Override
  public byte[] getBytes(String label) throws SQLException {
    return getBytes(findColumn(label));
  }

  @Override
  public Date getDate(String label) throws SQLException {
    return getDate(findColumn(label));
  }

  @Override
  public Date getDate(String label, Calendar cal) throws SQLException {
    return getDate(findColumn(label));
  }

  @Override
  public Time getTime(String label) throws SQLException {
    return getTime(findColumn(label));
  }

  @Override
  public Time getTime(String label, Calendar cal) throws SQLException {
    return getTime(findColumn(label));
  }

  @Override
  public Timestamp getTimestamp(String label) throws SQLException {
    return getTimestamp(findColumn(label));
  }

  @Override
  public Timestamp getTimestamp(String label, Calendar cal) throws SQLException {
    return getTimestamp(findColumn(label));
  }

  @Override
  public Object getObject(String label) throws SQLException {
    return getObject(findColumn(label));
  }

  @Override
  public Object getObject(String label, Map<String, Class<?>> map) throws SQLException {
    return getObject(findColumn(label));
  }

  @Override
  public <T> T getObject(String label, Class<T> type) throws SQLException {
    return getObject(findColumn(label), type);
  }

  // ---- position and state ----

  @Override
  public ResultSetMetaData getMetaData() throws SQLException {
    checkOpen();
    return new PartitaResultSetMetaData(table);
  }

  @Override
  public boolean isBeforeFirst() throws SQLException {
    checkOpen();
    return row < 0 && rows() > 0;
  }

  @Override
  public boolean isAfterLast() throws SQLException {
    checkOpen();
    return row >= rows() && rows() > 0;
  }

  @Override
  public boolean isFirst() throws SQLException {
    checkOpen();
    return row == 0 && rows() > 0;
  }

  @Override
  public boolean isLast() throws SQLException {
    checkOpen();
    return row == rows() - 1 && rows() > 0;
  }

  @Override
  public int getRow() throws SQLException {
    checkOpen();
    return row >= 0 && row < rows() ? row + 1 : 0;
  }

  @Override
  public int getType() throws SQLException {
    checkOpen();
    return TYPE_FORWARD_ONLY;
  }

  @Override
  public int getConcurrency() throws SQLException {
    checkOpen();
    return CONCUR_READ_ONLY;
  }

  @Override
  public int getHoldability() throws SQLException {
    checkOpen();
    return HOLD_CURSORS_OVER_COMMIT;
  }

  @Override
  public int getFetchDirection() throws SQLException {
    checkOpen();
    return FETCH_FORWARD;
  }

  @Override
  public void setFetchDirection(int direction) throws SQLException {
    checkOpen();
    if (direction != FETCH_FORWARD) {
      throw SqlStates.unsupported("fetch direction " + direction, "result sets are forward-only");
    }
  }

  /** The whole table is already here: the fetch size is a hint with no effect. */
  @Override
  public void setFetchSize(int rows) throws SQLException {
    checkOpen();
  }

  @Override
  public int getFetchSize() throws SQLException {
    checkOpen();
    return table.rowCount();
  }

  @Override
  public SQLWarning getWarnings() throws SQLException {
    checkOpen();
    return null;
  }

  @Override
  public void clearWarnings() throws SQLException {
    checkOpen();
  }

  @Override
  public Statement getStatement() throws SQLException {
    checkOpen();
    return statement;
  }

  private void checkOpen() throws SQLException {
    if (closed) {
      throw new SQLException("the result set is closed", SqlStates.FUNCTION_SEQUENCE);
    }
  }

  @Override
  public void close() throws SQLException {
    if (closed) {
      return;
    }
    closed = true;
    if (statement != null) {
      statement.resultSetClosed(this);
    }
  }

  /** Closed because its statement moved on or closed. */
  void closeFromStatement() {
    closed = true;
  }

  @Override
  public boolean isClosed() {
    return closed;
  }

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    return Wrappers.unwrap(this, iface);
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) {
    return iface.isInstance(this);
  }
}
