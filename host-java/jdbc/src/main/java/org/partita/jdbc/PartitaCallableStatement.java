package org.partita.jdbc;

import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.net.URL;
import java.sql.Array;
import java.sql.Blob;
import java.sql.CallableStatement;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.Ref;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLXML;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.Calendar;
import java.util.Map;

/**
 * A stored-procedure call, {@code {call Vote(?, ?, ?)}} (see
 * {@link CallEscape}): each execute is one call of the procedure, one
 * transaction; the procedure's result tables are the statement's result
 * sets ({@code executeQuery} gives the first, {@code getMoreResults} the
 * next). Batches of calls are sent together. OUT parameters and named
 * parameters are not supported: Partita procedures answer result tables.
 *
 * <p>Thread model: not thread-safe, as JDBC statements are used.
 */
public final class PartitaCallableStatement extends PartitaPreparedStatement implements CallableStatement {
  private final CallEscape call;

  PartitaCallableStatement(PartitaConnection connection, String sql, CallEscape call) {
    super(connection, sql, call.placeholders());
    this.call = call;
  }

  @Override
  void run() throws SQLException {
    runProcedure(call.procedure(), call.bind(parameters.bound()));
  }

  @Override
  BatchCall batchCall() throws SQLException {
    return BatchCall.procedure(call.procedure(), call.bind(parameters.bound()));
  }

  /**
   * The number of rows the procedure changed is not known: 0 when it returned
   * no table; when it returned tables, fails (read them with execute or executeQuery).
   */
  @Override
  public long executeLargeUpdate() throws SQLException {
    run();
    return singleUpdateCount("executeUpdate");
  }

  // ---- not supported: OUT parameters and parameters by name ----

@Override
  public void registerOutParameter(int parameterIndex, int sqlType) throws SQLException {
    throw noOutParameters("registerOutParameter");
  }


  @Override
  public void registerOutParameter(int parameterIndex, int sqlType, int scale) throws SQLException {
    throw noOutParameters("registerOutParameter");
  }


  @Override
  public boolean wasNull() throws SQLException {
    throw noOutParameters("wasNull");
  }


  @Override
  public String getString(int parameterIndex) throws SQLException {
    throw noOutParameters("getString");
  }


  @Override
  public boolean getBoolean(int parameterIndex) throws SQLException {
    throw noOutParameters("getBoolean");
  }


  @Override
  public byte getByte(int parameterIndex) throws SQLException {
    throw noOutParameters("getByte");
  }


  @Override
  public short getShort(int parameterIndex) throws SQLException {
    throw noOutParameters("getShort");
  }


  @Override
  public int getInt(int parameterIndex) throws SQLException {
    throw noOutParameters("getInt");
  }


  @Override
  public long getLong(int parameterIndex) throws SQLException {
    throw noOutParameters("getLong");
  }


  @Override
  public float getFloat(int parameterIndex) throws SQLException {
    throw noOutParameters("getFloat");
  }


  @Override
  public double getDouble(int parameterIndex) throws SQLException {
    throw noOutParameters("getDouble");
  }


  @Override
  @Deprecated
  public BigDecimal getBigDecimal(int parameterIndex, int scale) throws SQLException {
    throw noOutParameters("getBigDecimal");
  }


  @Override
  public byte[] getBytes(int parameterIndex) throws SQLException {
    throw noOutParameters("getBytes");
  }


  @Override
  public Date getDate(int parameterIndex) throws SQLException {
    throw noOutParameters("getDate");
  }


  @Override
  public Time getTime(int parameterIndex) throws SQLException {
    throw noOutParameters("getTime");
  }


  @Override
  public Timestamp getTimestamp(int parameterIndex) throws SQLException {
    throw noOutParameters("getTimestamp");
  }


  @Override
  public Object getObject(int parameterIndex) throws SQLException {
    throw noOutParameters("getObject");
  }


  @Override
  @Deprecated
  public BigDecimal getBigDecimal(int parameterIndex) throws SQLException {
    throw noOutParameters("getBigDecimal");
  }


  @Override
  public Object getObject(int parameterIndex, Map<String, Class<?>> map) throws SQLException {
    throw noOutParameters("getObject");
  }


  @Override
  public Ref getRef(int parameterIndex) throws SQLException {
    throw noOutParameters("getRef");
  }


  @Override
  public Blob getBlob(int parameterIndex) throws SQLException {
    throw noOutParameters("getBlob");
  }


  @Override
  public Clob getClob(int parameterIndex) throws SQLException {
    throw noOutParameters("getClob");
  }


  @Override
  public Array getArray(int parameterIndex) throws SQLException {
    throw noOutParameters("getArray");
  }


  @Override
  public Date getDate(int parameterIndex, Calendar cal) throws SQLException {
    throw noOutParameters("getDate");
  }


  @Override
  public Time getTime(int parameterIndex, Calendar cal) throws SQLException {
    throw noOutParameters("getTime");
  }


  @Override
  public Timestamp getTimestamp(int parameterIndex, Calendar cal) throws SQLException {
    throw noOutParameters("getTimestamp");
  }


  @Override
  public void registerOutParameter(int parameterIndex, int sqlType, String typeName) throws SQLException {
    throw noOutParameters("registerOutParameter");
  }


  @Override
  public void registerOutParameter(String parameterName, int sqlType) throws SQLException {
    throw noOutParameters("registerOutParameter");
  }


  @Override
  public void registerOutParameter(String parameterName, int sqlType, int scale) throws SQLException {
    throw noOutParameters("registerOutParameter");
  }


  @Override
  public void registerOutParameter(String parameterName, int sqlType, String typeName) throws SQLException {
    throw noOutParameters("registerOutParameter");
  }


  @Override
  public URL getURL(int parameterIndex) throws SQLException {
    throw noOutParameters("getURL");
  }


  @Override
  public void setURL(String parameterName, URL x) throws SQLException {
    throw noNamedParameters("setURL");
  }


  @Override
  public void setNull(String parameterName, int sqlType) throws SQLException {
    throw noNamedParameters("setNull");
  }


  @Override
  public void setBoolean(String parameterName, boolean x) throws SQLException {
    throw noNamedParameters("setBoolean");
  }


  @Override
  public void setByte(String parameterName, byte x) throws SQLException {
    throw noNamedParameters("setByte");
  }


  @Override
  public void setShort(String parameterName, short x) throws SQLException {
    throw noNamedParameters("setShort");
  }


  @Override
  public void setInt(String parameterName, int x) throws SQLException {
    throw noNamedParameters("setInt");
  }


  @Override
  public void setLong(String parameterName, long x) throws SQLException {
    throw noNamedParameters("setLong");
  }


  @Override
  public void setFloat(String parameterName, float x) throws SQLException {
    throw noNamedParameters("setFloat");
  }


  @Override
  public void setDouble(String parameterName, double x) throws SQLException {
    throw noNamedParameters("setDouble");
  }


  @Override
  public void setBigDecimal(String parameterName, BigDecimal x) throws SQLException {
    throw noNamedParameters("setBigDecimal");
  }


  @Override
  public void setString(String parameterName, String x) throws SQLException {
    throw noNamedParameters("setString");
  }


  @Override
  public void setBytes(String parameterName, byte[] x) throws SQLException {
    throw noNamedParameters("setBytes");
  }


  @Override
  public void setDate(String parameterName, Date x) throws SQLException {
    throw noNamedParameters("setDate");
  }


  @Override
  public void setTime(String parameterName, Time x) throws SQLException {
    throw noNamedParameters("setTime");
  }


  @Override
  public void setTimestamp(String parameterName, Timestamp x) throws SQLException {
    throw noNamedParameters("setTimestamp");
  }


  @Override
  public void setAsciiStream(String parameterName, InputStream x, int length) throws SQLException {
    throw noNamedParameters("setAsciiStream");
  }


  @Override
  public void setBinaryStream(String parameterName, InputStream x, int length) throws SQLException {
    throw noNamedParameters("setBinaryStream");
  }


  @Override
  public void setObject(String parameterName, Object x, int targetSqlType, int scaleOrLength) throws SQLException {
    throw noNamedParameters("setObject");
  }


  @Override
  public void setObject(String parameterName, Object x, int targetSqlType) throws SQLException {
    throw noNamedParameters("setObject");
  }


  @Override
  public void setObject(String parameterName, Object x) throws SQLException {
    throw noNamedParameters("setObject");
  }


  @Override
  public void setCharacterStream(String parameterName, Reader x, int length) throws SQLException {
    throw noNamedParameters("setCharacterStream");
  }


  @Override
  public void setDate(String parameterName, Date x, Calendar cal) throws SQLException {
    throw noNamedParameters("setDate");
  }


  @Override
  public void setTime(String parameterName, Time x, Calendar cal) throws SQLException {
    throw noNamedParameters("setTime");
  }


  @Override
  public void setTimestamp(String parameterName, Timestamp x, Calendar cal) throws SQLException {
    throw noNamedParameters("setTimestamp");
  }


  @Override
  public void setNull(String parameterName, int sqlType, String typeName) throws SQLException {
    throw noNamedParameters("setNull");
  }


  @Override
  public String getString(String parameterName) throws SQLException {
    throw noOutParameters("getString");
  }


  @Override
  public boolean getBoolean(String parameterName) throws SQLException {
    throw noOutParameters("getBoolean");
  }


  @Override
  public byte getByte(String parameterName) throws SQLException {
    throw noOutParameters("getByte");
  }


  @Override
  public short getShort(String parameterName) throws SQLException {
    throw noOutParameters("getShort");
  }


  @Override
  public int getInt(String parameterName) throws SQLException {
    throw noOutParameters("getInt");
  }


  @Override
  public long getLong(String parameterName) throws SQLException {
    throw noOutParameters("getLong");
  }


  @Override
  public float getFloat(String parameterName) throws SQLException {
    throw noOutParameters("getFloat");
  }


  @Override
  public double getDouble(String parameterName) throws SQLException {
    throw noOutParameters("getDouble");
  }


  @Override
  public byte[] getBytes(String parameterName) throws SQLException {
    throw noOutParameters("getBytes");
  }


  @Override
  public Date getDate(String parameterName) throws SQLException {
    throw noOutParameters("getDate");
  }


  @Override
  public Time getTime(String parameterName) throws SQLException {
    throw noOutParameters("getTime");
  }


  @Override
  public Timestamp getTimestamp(String parameterName) throws SQLException {
    throw noOutParameters("getTimestamp");
  }


  @Override
  public Object getObject(String parameterName) throws SQLException {
    throw noOutParameters("getObject");
  }


  @Override
  @Deprecated
  public BigDecimal getBigDecimal(String parameterName) throws SQLException {
    throw noOutParameters("getBigDecimal");
  }


  @Override
  public Object getObject(String parameterName, Map<String, Class<?>> map) throws SQLException {
    throw noOutParameters("getObject");
  }


  @Override
  public Ref getRef(String parameterName) throws SQLException {
    throw noOutParameters("getRef");
  }


  @Override
  public Blob getBlob(String parameterName) throws SQLException {
    throw noOutParameters("getBlob");
  }


  @Override
  public Clob getClob(String parameterName) throws SQLException {
    throw noOutParameters("getClob");
  }


  @Override
  public Array getArray(String parameterName) throws SQLException {
    throw noOutParameters("getArray");
  }


  @Override
  public Date getDate(String parameterName, Calendar cal) throws SQLException {
    throw noOutParameters("getDate");
  }


  @Override
  public Time getTime(String parameterName, Calendar cal) throws SQLException {
    throw noOutParameters("getTime");
  }


  @Override
  public Timestamp getTimestamp(String parameterName, Calendar cal) throws SQLException {
    throw noOutParameters("getTimestamp");
  }


  @Override
  public URL getURL(String parameterName) throws SQLException {
    throw noOutParameters("getURL");
  }


  @Override
  public RowId getRowId(int parameterIndex) throws SQLException {
    throw noOutParameters("getRowId");
  }


  @Override
  public RowId getRowId(String parameterName) throws SQLException {
    throw noOutParameters("getRowId");
  }


  @Override
  public void setRowId(String parameterName, RowId x) throws SQLException {
    throw noNamedParameters("setRowId");
  }


  @Override
  public void setNString(String parameterName, String x) throws SQLException {
    throw noNamedParameters("setNString");
  }


  @Override
  public void setNCharacterStream(String parameterName, Reader x, long length) throws SQLException {
    throw noNamedParameters("setNCharacterStream");
  }


  @Override
  public void setNClob(String parameterName, NClob x) throws SQLException {
    throw noNamedParameters("setNClob");
  }


  @Override
  public void setClob(String parameterName, Reader x, long length) throws SQLException {
    throw noNamedParameters("setClob");
  }


  @Override
  public void setBlob(String parameterName, InputStream x, long length) throws SQLException {
    throw noNamedParameters("setBlob");
  }


  @Override
  public void setNClob(String parameterName, Reader x, long length) throws SQLException {
    throw noNamedParameters("setNClob");
  }


  @Override
  public NClob getNClob(int parameterIndex) throws SQLException {
    throw noOutParameters("getNClob");
  }


  @Override
  public NClob getNClob(String parameterName) throws SQLException {
    throw noOutParameters("getNClob");
  }


  @Override
  public void setSQLXML(String parameterName, SQLXML x) throws SQLException {
    throw noNamedParameters("setSQLXML");
  }


  @Override
  public SQLXML getSQLXML(int parameterIndex) throws SQLException {
    throw noOutParameters("getSQLXML");
  }


  @Override
  public SQLXML getSQLXML(String parameterName) throws SQLException {
    throw noOutParameters("getSQLXML");
  }


  @Override
  public String getNString(int parameterIndex) throws SQLException {
    throw noOutParameters("getNString");
  }


  @Override
  public String getNString(String parameterName) throws SQLException {
    throw noOutParameters("getNString");
  }


  @Override
  public Reader getNCharacterStream(int parameterIndex) throws SQLException {
    throw noOutParameters("getNCharacterStream");
  }


  @Override
  public Reader getNCharacterStream(String parameterName) throws SQLException {
    throw noOutParameters("getNCharacterStream");
  }


  @Override
  public Reader getCharacterStream(int parameterIndex) throws SQLException {
    throw noOutParameters("getCharacterStream");
  }


  @Override
  public Reader getCharacterStream(String parameterName) throws SQLException {
    throw noOutParameters("getCharacterStream");
  }


  @Override
  public void setBlob(String parameterName, Blob x) throws SQLException {
    throw noNamedParameters("setBlob");
  }


  @Override
  public void setClob(String parameterName, Clob x) throws SQLException {
    throw noNamedParameters("setClob");
  }


  @Override
  public void setAsciiStream(String parameterName, InputStream x, long length) throws SQLException {
    throw noNamedParameters("setAsciiStream");
  }


  @Override
  public void setBinaryStream(String parameterName, InputStream x, long length) throws SQLException {
    throw noNamedParameters("setBinaryStream");
  }


  @Override
  public void setCharacterStream(String parameterName, Reader x, long length) throws SQLException {
    throw noNamedParameters("setCharacterStream");
  }


  @Override
  public void setAsciiStream(String parameterName, InputStream x) throws SQLException {
    throw noNamedParameters("setAsciiStream");
  }


  @Override
  public void setBinaryStream(String parameterName, InputStream x) throws SQLException {
    throw noNamedParameters("setBinaryStream");
  }


  @Override
  public void setCharacterStream(String parameterName, Reader x) throws SQLException {
    throw noNamedParameters("setCharacterStream");
  }


  @Override
  public void setNCharacterStream(String parameterName, Reader x) throws SQLException {
    throw noNamedParameters("setNCharacterStream");
  }


  @Override
  public void setClob(String parameterName, Reader x) throws SQLException {
    throw noNamedParameters("setClob");
  }


  @Override
  public void setBlob(String parameterName, InputStream x) throws SQLException {
    throw noNamedParameters("setBlob");
  }


  @Override
  public void setNClob(String parameterName, Reader x) throws SQLException {
    throw noNamedParameters("setNClob");
  }


  @Override
  public <T> T getObject(int parameterIndex, Class<T> type) throws SQLException {
    throw noOutParameters("getObject");
  }


  @Override
  public <T> T getObject(String parameterName, Class<T> type) throws SQLException {
    throw noOutParameters("getObject");
  }

  private static SQLException noOutParameters(String method) {
    return SqlStates.unsupported("CallableStatement." + method, "Partita procedures have no OUT parameters;"
        + " they answer result tables, read through getResultSet");
  }

  private static SQLException noNamedParameters(String method) {
    return SqlStates.unsupported("CallableStatement." + method, "parameters are set by position");
  }
}
