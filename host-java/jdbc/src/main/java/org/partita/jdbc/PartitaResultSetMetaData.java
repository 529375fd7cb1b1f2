package org.partita.jdbc;

import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import org.partita.client.ResultTable;
import org.partita.client.ValueType;

/**
 * The columns of one result table: names, Partita types and their JDBC
 * types (BIGINT, INTEGER, SMALLINT, TINYINT, DOUBLE for FLOAT, DECIMAL(38,
 * 12), VARCHAR, VARBINARY, TIMESTAMP). Result tables do not say which table a
 * column came from or whether it allows NULL: those answers are "" and
 * columnNullableUnknown. Immutable.
 */
final class PartitaResultSetMetaData implements ResultSetMetaData {
  private static final int DECIMAL_SCALE = 12;
  private static final int TIMESTAMP_SCALE = 6;
  private static final int TEXT_DISPLAY_SIZE = 1 << 20;

  private final ResultTable table;

  PartitaResultSetMetaData(ResultTable table) {
    this.table = table;
  }

  private ValueType type(int column) throws SQLException {
    return table.columnType(index(column));
  }

  private int index(int column) throws SQLException {
    if (column < 1 || column > table.columnCount()) {
      throw new SQLException("column index " + column + " is outside 1.." + table.columnCount(),
          SqlStates.INVALID_INDEX);
    }
    return column - 1;
  }

  @Override
  public int getColumnCount() {
    return table.columnCount();
  }

  @Override
  public boolean isAutoIncrement(int column) throws SQLException {
    index(column);
    return false;
  }

  @Override
  public boolean isCaseSensitive(int column) throws SQLException {
    return type(column) == ValueType.VARCHAR;
  }

  @Override
  public boolean isSearchable(int column) throws SQLException {
    index(column);
    return true;
  }

  @Override
  public boolean isCurrency(int column) throws SQLException {
    index(column);
    return false;
  }

  @Override
  public int isNullable(int column) throws SQLException {
    index(column);
    return columnNullableUnknown;
  }

  @Override
  public boolean isSigned(int column) throws SQLException {
    return type(column).isNumeric();
  }

  @Override
  public int getColumnDisplaySize(int column) throws SQLException {
    final ValueType t = type(column);
    if (t == ValueType.VARCHAR || t == ValueType.VARBINARY) {
      return TEXT_DISPLAY_SIZE;
    }
    return Values.precision(t) + (t.isNumeric() ? 2 : 0);
  }

  @Override
  public String getColumnLabel(int column) throws SQLException {
    return table.columnName(index(column));
  }

  @Override
  public String getColumnName(int column) throws SQLException {
    return table.columnName(index(column));
  }

  @Override
  public String getSchemaName(int column) throws SQLException {
    index(column);
    return "";
  }

  @Override
  public int getPrecision(int column) throws SQLException {
    return Values.precision(type(column));
  }

  @Override
  public int getScale(int column) throws SQLException {
    final ValueType t = type(column);
    return t == ValueType.DECIMAL ? DECIMAL_SCALE : t == ValueType.TIMESTAMP ? TIMESTAMP_SCALE : 0;
  }

  @Override
  public String getTableName(int column) throws SQLException {
    index(column);
    return "";
  }

  @Override
  public String getCatalogName(int column) throws SQLException {
    index(column);
    return "";
  }

  @Override
  public int getColumnType(int column) throws SQLException {
    return Values.sqlType(type(column));
  }

  @Override
  public String getColumnTypeName(int column) throws SQLException {
    return type(column).name();
  }

  @Override
  public boolean isReadOnly(int column) throws SQLException {
    index(column);
    return true;
  }

  @Override
  public boolean isWritable(int column) throws SQLException {
    index(column);
    return false;
  }

  @Override
  public boolean isDefinitelyWritable(int column) throws SQLException {
    index(column);
    return false;
  }

  @Override
  public String getColumnClassName(int column) throws SQLException {
    return Values.className(type(column));
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
