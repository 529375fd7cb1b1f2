package org.partita.jdbc;

import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.net.URL;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLXML;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.Calendar;

/**
 * A SQL statement with {@code ?} parameters, sent as
 * {@code @AdHoc(sql, values...)} at each execute: the server plans it each
 * time (there is no server-side prepared plan yet). Parameter conversions:
 * {@link Parameters}. Calendars given with dates and times are not used:
 * Partita's TIMESTAMP is an instant (µs since 1970 UTC).
 *
 * <p>Thread model: not thread-safe, as JDBC statements are used.
 */
public class PartitaPreparedStatement extends PartitaStatement implements PreparedStatement {
  final String sql;
  final Parameters parameters;

  PartitaPreparedStatement(PartitaConnection connection, String sql) {
    this(connection, sql, SqlText.placeholders(sql));
  }

  PartitaPreparedStatement(PartitaConnection connection, String sql, int placeholders) {
    super(connection);
    this.sql = sql;
    this.parameters = new Parameters(placeholders);
  }

  /** Runs the statement with the parameters set. */
  void run() throws SQLException {
    runSql(sql, parameters.bound());
  }

  /** The batch entry of the parameters set now. */
  BatchCall batchCall() throws SQLException {
    return BatchCall.adHoc(sql, parameters.bound());
  }

  @Override
  public ResultSet executeQuery() throws SQLException {
    run();
    return singleResultSet("executeQuery");
  }

  @Override
  public int executeUpdate() throws SQLException {
    return (int) executeLargeUpdate();
  }

  @Override
  public long executeLargeUpdate() throws SQLException {
    run();
    return singleUpdateCount("executeUpdate");
  }

  @Override
  public boolean execute() throws SQLException {
    run();
    return getResultSet() != null;
  }

  @Override
  public void addBatch() throws SQLException {
    checkOpen();
    addBatchCall(batchCall());
  }

  @Override
  public ResultSet executeQuery(String sql) throws SQLException {
    throw textGiven();
  }

  @Override
  public int executeUpdate(String sql) throws SQLException {
    throw textGiven();
  }

  @Override
  public long executeLargeUpdate(String sql) throws SQLException {
    throw textGiven();
  }

  @Override
  public boolean execute(String sql) throws SQLException {
    throw textGiven();
  }

  @Override
  public void addBatch(String sql) throws SQLException {
    throw textGiven();
  }

  private static SQLException textGiven() {
    return new SQLException("a prepared statement runs its own SQL: call the method without a SQL text",
        SqlStates.FUNCTION_SEQUENCE);
  }

  // ---- parameters ----

  private void set(int index, Object value) throws SQLException {
    checkOpen();
    parameters.set(index, value);
  }

  @Override
  public void clearParameters() throws SQLException {
    checkOpen();
    parameters.clear();
  }

  @Override
  public void setNull(int index, int sqlType) throws SQLException {
    set(index, null);
  }

  @Override
  public void setNull(int index, int sqlType, String typeName) throws SQLException {
    set(index, null);
  }

  @Override
  public void setBoolean(int index, boolean x) throws SQLException {
    set(index, x);
  }

  @Override
  public void setByte(int index, byte x) throws SQLException {
    set(index, x);
  }

  @Override
  public void setShort(int index, short x) throws SQLException {
    set(index, x);
  }

  @Override
  public void setInt(int index, int x) throws SQLException {
    set(index, x);
  }

  @Override
  public void setLong(int index, long x) throws SQLException {
    set(index, x);
  }

  @Override
  public void setFloat(int index, float x) throws SQLException {
    set(index, x);
  }

  @Override
  public void setDouble(int index, double x) throws SQLException {
    set(index, x);
  }

  @Override
  public void setBigDecimal(int index, BigDecimal x) throws SQLException {
    set(index, x);
  }

  @Override
  public void setString(int index, String x) throws SQLException {
    set(index, x);
  }

  @Override
  public void setNString(int index, String x) throws SQLException {
    set(index, x);
  }

  @Override
  public void setBytes(int index, byte[] x) throws SQLException {
    set(index, x);
  }

  @Override
  public void setDate(int index, Date x) throws SQLException {
    set(index, x);
  }

  @Override
  public void setDate(int index, Date x, Calendar cal) throws SQLException {
    set(index, x);
  }

  @Override
  public void setTime(int index, Time x) throws SQLException {
    set(index, x);
  }

  @Override
  public void setTime(int index, Time x, Calendar cal) throws SQLException {
    set(index, x);
  }

  @Override
  public void setTimestamp(int index, Timestamp x) throws SQLException {
    set(index, x);
  }

  @Override
  public void setTimestamp(int index, Timestamp x, Calendar cal) throws SQLException {
    set(index, x);
  }

  @Override
  public void setObject(int index, Object x) throws SQLException {
    set(index, x);
  }

  /** The target type is not used: the server converts the value to its column's type. */
  @Override
  public void setObject(int index, Object x, int targetSqlType) throws SQLException {
    set(index, x);
  }

  @Override
  public void setObject(int index, Object x, int targetSqlType, int scaleOrLength) throws SQLException {
    set(index, x);
  }

  /** Not known before the statement runs: null, as JDBC allows. */
  @Override
  public ResultSetMetaData getMetaData() throws SQLException {
    checkOpen();
    return null;
  }

  @Override
  public ParameterMetaData getParameterMetaData() throws SQLException {
    throw SqlStates.unsupported("PreparedStatement.getParameterMetaData",
        "parameter types are known only to the server's planner");
  }

  // ---- not supported: streams, large objects, arrays, references, URLs, row ids, XML ----

  @Override
  public void setAsciiStream(int index, InputStream x, int length) throws SQLException {
    throw SqlStates.unsupported("PreparedStatement.setAsciiStream");
  }

  @Override
  public void setAsciiStream(int index, InputStream x, long length) throws SQLException {
    throw SqlStates.unsupported("PreparedStatement.setAsciiStream");
  }

  @Override
  public void setAsciiStream(int index, InputStream x) throws SQLException {
    throw SqlStates.unsupported("PreparedStatement.setAsciiStream");
  }

  @Override
  @Deprecated
  public void setUnicodeStream(int index, InputStream x, int length) throws SQLException {
    throw SqlStates.unsupported("PreparedStatement.setUnicodeStream");
  }

  @Override
  public void setBinaryStream(int index, InputStream x, int length) throws SQLException {
    throw SqlStates.unsupported("PreparedStatement.setBinaryStream");
  }

  @Override
  public void setBinaryStream(int index, InputStream x, long length) throws SQLException {
    throw SqlStates.unsupported("PreparedStatement.setBinaryStream");
  }

  @Override
  public void setBinaryStream(int index, InputStream x) throws SQLException {
    throw SqlStates.unsupported("PreparedStatement.setBinaryStream");
  }

  @Override
  public void setCharacterStream(int index, Reader reader, int length) throws SQLException {
    throw SqlStates.unsupported("PreparedStatement.setCharacterStream");
  }

  @Override
  public void setCharacterStream(int index, Reader reader, long length) throws SQLException {
    throw SqlStates.unsupported("PreparedStatement.setCharacterStream");
  }

  @Override
  public void setCharacterStream(int index, Reader reader) throws SQLException {
    throw SqlStates.unsupported("PreparedStatement.setCharacterStream");
  }

  @Override
  public void setNCharacterStream(int index, Reader value, long length) throws SQLException {
    throw SqlStates.unsupported("PreparedStatement.setNCharacterStream");
  }

  @Override
  public void setNCharacterStream(int index, Reader value) throws SQLException {
    throw SqlStates.unsupported("PreparedStatement.setNCharacterStream");
  }

  @Override
  public void setRef(int index, Ref x) throws SQLException {
    throw SqlStates.unsupported("PreparedStatement.setRef");
  }

  @Override
  public void setBlob(int index, Blob x) throws SQLException {
    throw SqlStates.unsupported("PreparedStatement.setBlob");
  }

  @Override
  public void setBlob(int index, InputStream inputStream, long length) throws SQLException {
    throw SqlStates.unsupported("PreparedStatement.setBlob");
  }

  @Override
  public void setBlob(int index, InputStream inputStream) throws SQLException {
    throw SqlStates.unsupported("PreparedStatement.setBlob");
  }

  @Override
  public void setClob(int index, Clob x) throws SQLException {
    throw SqlStates.unsupported("PreparedStatement.setClob");
  }

  @Override
  public void setClob(int index, Reader reader, long length) throws SQLException {
    throw SqlStates.unsupported("PreparedStatement.setClob");
  }

  @Override
  public void setClob(int index, Reader reader) throws SQLException {
    throw SqlStates.unsupported("PreparedStatement.setClob");
  }

  @Override
  public void setNClob(int index, NClob value) throws SQLException {
    throw SqlStates.unsupported("PreparedStatement.setNClob");
  }

  @Override
  public void setNClob(int index, Reader reader, long length) throws SQLException {
    throw SqlStates.unsupported("PreparedStatement.setNClob");
  }

  @Override
  public void setNClob(int index, Reader reader) throws SQLException {
    throw SqlStates.unsupported("PreparedStatement.setNClob");
  }

  @Override
  public void setArray(int index, Array x) throws SQLException {
    throw SqlStates.unsupported("PreparedStatement.setArray");
  }

  @Override
  public void setURL(int index, URL x) throws SQLException {
    throw SqlStates.unsupported("PreparedStatement.setURL");
  }

  @Override
  public void setRowId(int index, RowId x) throws SQLException {
    throw SqlStates.unsupported("PreparedStatement.setRowId");
  }

  @Override
  public void setSQLXML(int index, SQLXML xmlObject) throws SQLException {
    throw SqlStates.unsupported("PreparedStatement.setSQLXML");
  }
}
