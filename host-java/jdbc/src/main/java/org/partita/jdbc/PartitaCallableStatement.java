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
  public void registerOutParameter(int a0, int a1) throws SQLException {
    throw noOutParameters("registerOutParameter");
  }


  @Override
  public void registerOutParameter(int a0, int a1, int a2) throws SQLException {
    throw noOutParameters("registerOutParameter");
  }


  @Override
  public boolean wasNull() throws SQLException {
    throw noOutParameters("wasNull");
  }


  @Override
  public String getString(int a0) throws SQLException {
    throw noOutParameters("getString");
  }


  @Override
  public boolean getBoolean(int a0) throws SQLException {
    throw noOutParameters("getBoolean");
  }


  @Override
  public byte getByte(int a0) throws SQLException {
    throw noOutParameters("getByte");
  }


  @Override
  public short getShort(int a0) throws SQLException {
    throw noOutParameters("getShort");
  }


  @Override
  public int getInt(int a0) throws SQLException {
    throw noOutParameters("getInt");
  }


  @Override
  public long getLong(int a0) throws SQLException {
    throw noOutParameters("getLong");
  }


  @Override
  public float getFloat(int a0) throws SQLException {
    throw noOutParameters("getFloat");
  }


  @Override
  public double getDouble(int a0) throws SQLException {
    throw noOutParameters("getDouble");
  }


  @Override
  @Deprecated
  public java.math.BigDecimal getBigDecimal(int a0, int a1) throws SQLException {
    throw noOutParameters("getBigDecimal");
  }


  @Override
  public byte[] getBytes(int a0) throws SQLException {
    throw noOutParameters("getBytes");
  }


  @Override
  public Date getDate(int a0) throws SQLException {
    throw noOutParameters("getDate");
  }


  @Override
  public Time getTime(int a0) throws SQLException {
    throw noOutParameters("getTime");
  }


  @Override
  public Timestamp getTimestamp(int a0) throws SQLException {
    throw noOutParameters("getTimestamp");
  }


  @Override
  public Object getObject(int a0) throws SQLException {
    throw noOutParameters("getObject");
  }


  @Override
  @Deprecated
  public java.math.BigDecimal getBigDecimal(int a0) throws SQLException {
    throw noOutParameters("getBigDecimal");
  }


  @Override
  public Object getObject(int a0, Map<String, Class<?>> a1) throws SQLException {
    throw noOutParameters("getObject");
  }


  @Override
  public Ref getRef(int a0) throws SQLException {
    throw noOutParameters("getRef");
  }


  @Override
  public Blob getBlob(int a0) throws SQLException {
    throw noOutParameters("getBlob");
  }


  @Override
  public Clob getClob(int a0) throws SQLException {
    throw noOutParameters("getClob");
  }


  @Override
  public Array getArray(int a0) throws SQLException {
    throw noOutParameters("getArray");
  }


  @Override
  public Date getDate(int a0, java.util.Calendar a1) throws SQLException {
    throw noOutParameters("getDate");
  }


  @Override
  public Time getTime(int a0, java.util.Calendar a1) throws SQLException {
    throw noOutParameters("getTime");
  }


  @Override
  public Timestamp getTimestamp(int a0, java.util.Calendar a1) throws SQLException {
    throw noOutParameters("getTimestamp");
  }


  @Override
  public void registerOutParameter(int a0, int a1, String a2) throws SQLException {
    throw noOutParameters("registerOutParameter");
  }


  @Override
  public void registerOutParameter(String a0, int a1) throws SQLException {
    throw noOutParameters("registerOutParameter");
  }


  @Override
  public void registerOutParameter(String a0, int a1, int a2) throws SQLException {
    throw noOutParameters("registerOutParameter");
  }


  @Override
  public void registerOutParameter(String a0, int a1, String a2) throws SQLException {
    throw noOutParameters("registerOutParameter");
  }


  @Override
  public java.net.URL getURL(int a0) throws SQLException {
    throw noOutParameters("getURL");
  }


  @Override
  public void setURL(String a0, java.net.URL a1) throws SQLException {
    throw noNamedParameters("setURL");
  }


  @Override
  public void setNull(String a0, int a1) throws SQLException {
    throw noNamedParameters("setNull");
  }


  @Override
  public void setBoolean(String a0, boolean a1) throws SQLException {
    throw noNamedParameters("setBoolean");
  }


  @Override
  public void setByte(String a0, byte a1) throws SQLException {
    throw noNamedParameters("setByte");
  }


  @Override
  public void setShort(String a0, short a1) throws SQLException {
    throw noNamedParameters("setShort");
  }


  @Override
  public void setInt(String a0, int a1) throws SQLException {
    throw noNamedParameters("setInt");
  }


  @Override
  public void setLong(String a0, long a1) throws SQLException {
    throw noNamedParameters("setLong");
  }


  @Override
  public void setFloat(String a0, float a1) throws SQLException {
    throw noNamedParameters("setFloat");
  }


  @Override
  public void setDouble(String a0, double a1) throws SQLException {
    throw noNamedParameters("setDouble");
  }


  @Override
  public void setBigDecimal(String a0, java.math.BigDecimal a1) throws SQLException {
    throw noNamedParameters("setBigDecimal");
  }


  @Override
  public void setString(String a0, String a1) throws SQLException {
    throw noNamedParameters("setString");
  }


  @Override
  public void setBytes(String a0, byte[] a1) throws SQLException {
    throw noNamedParameters("setBytes");
  }


  @Override
  public void setDate(String a0, Date a1) throws SQLException {
    throw noNamedParameters("setDate");
  }


  @Override
  public void setTime(String a0, Time a1) throws SQLException {
    throw noNamedParameters("setTime");
  }


  @Override
  public void setTimestamp(String a0, Timestamp a1) throws SQLException {
    throw noNamedParameters("setTimestamp");
  }


  @Override
  public void setAsciiStream(String a0, java.io.InputStream a1, int a2) throws SQLException {
    throw noNamedParameters("setAsciiStream");
  }


  @Override
  public void setBinaryStream(String a0, java.io.InputStream a1, int a2) throws SQLException {
    throw noNamedParameters("setBinaryStream");
  }


  @Override
  public void setObject(String a0, Object a1, int a2, int a3) throws SQLException {
    throw noNamedParameters("setObject");
  }


  @Override
  public void setObject(String a0, Object a1, int a2) throws SQLException {
    throw noNamedParameters("setObject");
  }


  @Override
  public void setObject(String a0, Object a1) throws SQLException {
    throw noNamedParameters("setObject");
  }


  @Override
  public void setCharacterStream(String a0, java.io.Reader a1, int a2) throws SQLException {
    throw noNamedParameters("setCharacterStream");
  }


  @Override
  public void setDate(String a0, Date a1, java.util.Calendar a2) throws SQLException {
    throw noNamedParameters("setDate");
  }


  @Override
  public void setTime(String a0, Time a1, java.util.Calendar a2) throws SQLException {
    throw noNamedParameters("setTime");
  }


  @Override
  public void setTimestamp(String a0, Timestamp a1, java.util.Calendar a2) throws SQLException {
    throw noNamedParameters("setTimestamp");
  }


  @Override
  public void setNull(String a0, int a1, String a2) throws SQLException {
    throw noNamedParameters("setNull");
  }


  @Override
  public String getString(String a0) throws SQLException {
    throw noOutParameters("getString");
  }


  @Override
  public boolean getBoolean(String a0) throws SQLException {
    throw noOutParameters("getBoolean");
  }


  @Override
  public byte getByte(String a0) throws SQLException {
    throw noOutParameters("getByte");
  }


  @Override
  public short getShort(String a0) throws SQLException {
    throw noOutParameters("getShort");
  }


  @Override
  public int getInt(String a0) throws SQLException {
    throw noOutParameters("getInt");
  }


  @Override
  public long getLong(String a0) throws SQLException {
    throw noOutParameters("getLong");
  }


  @Override
  public float getFloat(String a0) throws SQLException {
    throw noOutParameters("getFloat");
  }


  @Override
  public double getDouble(String a0) throws SQLException {
    throw noOutParameters("getDouble");
  }


  @Override
  public byte[] getBytes(String a0) throws SQLException {
    throw noOutParameters("getBytes");
  }


  @Override
  public Date getDate(String a0) throws SQLException {
    throw noOutParameters("getDate");
  }


  @Override
  public Time getTime(String a0) throws SQLException {
    throw noOutParameters("getTime");
  }


  @Override
  public Timestamp getTimestamp(String a0) throws SQLException {
    throw noOutParameters("getTimestamp");
  }


  @Override
  public Object getObject(String a0) throws SQLException {
    throw noOutParameters("getObject");
  }


  @Override
  @Deprecated
  public java.math.BigDecimal getBigDecimal(String a0) throws SQLException {
    throw noOutParameters("getBigDecimal");
  }


  @Override
  public Object getObject(String a0, Map<String, Class<?>> a1) throws SQLException {
    throw noOutParameters("getObject");
  }


  @Override
  public Ref getRef(String a0) throws SQLException {
    throw noOutParameters("getRef");
  }


  @Override
  public Blob getBlob(String a0) throws SQLException {
    throw noOutParameters("getBlob");
  }


  @Override
  public Clob getClob(String a0) throws SQLException {
    throw noOutParameters("getClob");
  }


  @Override
  public Array getArray(String a0) throws SQLException {
    throw noOutParameters("getArray");
  }


  @Override
  public Date getDate(String a0, java.util.Calendar a1) throws SQLException {
    throw noOutParameters("getDate");
  }


  @Override
  public Time getTime(String a0, java.util.Calendar a1) throws SQLException {
    throw noOutParameters("getTime");
  }


  @Override
  public Timestamp getTimestamp(String a0, java.util.Calendar a1) throws SQLException {
    throw noOutParameters("getTimestamp");
  }


  @Override
  public java.net.URL getURL(String a0) throws SQLException {
    throw noOutParameters("getURL");
  }


  @Override
  public RowId getRowId(int a0) throws SQLException {
    throw noOutParameters("getRowId");
  }


  @Override
  public RowId getRowId(String a0) throws SQLException {
    throw noOutParameters("getRowId");
  }


  @Override
  public void setRowId(String a0, RowId a1) throws SQLException {
    throw noNamedParameters("setRowId");
  }


  @Override
  public void setNString(String a0, String a1) throws SQLException {
    throw noNamedParameters("setNString");
  }


  @Override
  public void setNCharacterStream(String a0, java.io.Reader a1, long a2) throws SQLException {
    throw noNamedParameters("setNCharacterStream");
  }


  @Override
  public void setNClob(String a0, NClob a1) throws SQLException {
    throw noNamedParameters("setNClob");
  }


  @Override
  public void setClob(String a0, java.io.Reader a1, long a2) throws SQLException {
    throw noNamedParameters("setClob");
  }


  @Override
  public void setBlob(String a0, java.io.InputStream a1, long a2) throws SQLException {
    throw noNamedParameters("setBlob");
  }


  @Override
  public void setNClob(String a0, java.io.Reader a1, long a2) throws SQLException {
    throw noNamedParameters("setNClob");
  }


  @Override
  public NClob getNClob(int a0) throws SQLException {
    throw noOutParameters("getNClob");
  }


  @Override
  public NClob getNClob(String a0) throws SQLException {
    throw noOutParameters("getNClob");
  }


  @Override
  public void setSQLXML(String a0, SQLXML a1) throws SQLException {
    throw noNamedParameters("setSQLXML");
  }


  @Override
  public SQLXML getSQLXML(int a0) throws SQLException {
    throw noOutParameters("getSQLXML");
  }


  @Override
  public SQLXML getSQLXML(String a0) throws SQLException {
    throw noOutParameters("getSQLXML");
  }


  @Override
  public String getNString(int a0) throws SQLException {
    throw noOutParameters("getNString");
  }


  @Override
  public String getNString(String a0) throws SQLException {
    throw noOutParameters("getNString");
  }


  @Override
  public java.io.Reader getNCharacterStream(int a0) throws SQLException {
    throw noOutParameters("getNCharacterStream");
  }


  @Override
  public java.io.Reader getNCharacterStream(String a0) throws SQLException {
    throw noOutParameters("getNCharacterStream");
  }


  @Override
  public java.io.Reader getCharacterStream(int a0) throws SQLException {
    throw noOutParameters("getCharacterStream");
  }


  @Override
  public java.io.Reader getCharacterStream(String a0) throws SQLException {
    throw noOutParameters("getCharacterStream");
  }


  @Override
  public void setBlob(String a0, Blob a1) throws SQLException {
    throw noNamedParameters("setBlob");
  }


  @Override
  public void setClob(String a0, Clob a1) throws SQLException {
    throw noNamedParameters("setClob");
  }


  @Override
  public void setAsciiStream(String a0, java.io.InputStream a1, long a2) throws SQLException {
    throw noNamedParameters("setAsciiStream");
  }


  @Override
  public void setBinaryStream(String a0, java.io.InputStream a1, long a2) throws SQLException {
    throw noNamedParameters("setBinaryStream");
  }


  @Override
  public void setCharacterStream(String a0, java.io.Reader a1, long a2) throws SQLException {
    throw noNamedParameters("setCharacterStream");
  }


  @Override
  public void setAsciiStream(String a0, java.io.InputStream a1) throws SQLException {
    throw noNamedParameters("setAsciiStream");
  }


  @Override
  public void setBinaryStream(String a0, java.io.InputStream a1) throws SQLException {
    throw noNamedParameters("setBinaryStream");
  }


  @Override
  public void setCharacterStream(String a0, java.io.Reader a1) throws SQLException {
    throw noNamedParameters("setCharacterStream");
  }


  @Override
  public void setNCharacterStream(String a0, java.io.Reader a1) throws SQLException {
    throw noNamedParameters("setNCharacterStream");
  }


  @Override
  public void setClob(String a0, java.io.Reader a1) throws SQLException {
    throw noNamedParameters("setClob");
  }


  @Override
  public void setBlob(String a0, java.io.InputStream a1) throws SQLException {
    throw noNamedParameters("setBlob");
  }


  @Override
  public void setNClob(String a0, java.io.Reader a1) throws SQLException {
    throw noNamedParameters("setNClob");
  }


  @Override
  public <T> T getObject(int a0, Class<T> a1) throws SQLException {
    throw noOutParameters("getObject");
  }


  @Override
  public <T> T getObject(String a0, Class<T> a1) throws SQLException {
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
