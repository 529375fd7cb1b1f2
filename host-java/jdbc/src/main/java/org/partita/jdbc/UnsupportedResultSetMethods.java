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
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLXML;
import java.sql.Time;
import java.sql.Timestamp;

/**
 * The ResultSet methods Partita's result sets do not have, each failing
 * with SQLFeatureNotSupportedException (SQLState 0A000): updating rows,
 * scrolling (result sets are forward-only), streams, large objects,
 * arrays, references, URLs, row ids and XML. {@link PartitaResultSet}
 * extends it with everything else. Stateless.
 */
abstract class UnsupportedResultSetMethods implements ResultSet {
@Override
  public java.io.InputStream getAsciiStream(int a0) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getAsciiStream");
  }


  @Override
  @Deprecated
  public java.io.InputStream getUnicodeStream(int a0) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getUnicodeStream");
  }


  @Override
  public java.io.InputStream getBinaryStream(int a0) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getBinaryStream");
  }


  @Override
  public java.io.InputStream getAsciiStream(String a0) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getAsciiStream");
  }


  @Override
  @Deprecated
  public java.io.InputStream getUnicodeStream(String a0) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getUnicodeStream");
  }


  @Override
  public java.io.InputStream getBinaryStream(String a0) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getBinaryStream");
  }


  @Override
  public String getCursorName() throws SQLException {
    throw SqlStates.unsupported("ResultSet.getCursorName");
  }


  @Override
  public java.io.Reader getCharacterStream(int a0) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getCharacterStream");
  }


  @Override
  public java.io.Reader getCharacterStream(String a0) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getCharacterStream");
  }


  @Override
  public void beforeFirst() throws SQLException {
    throw SqlStates.unsupported("ResultSet.beforeFirst");
  }


  @Override
  public void afterLast() throws SQLException {
    throw SqlStates.unsupported("ResultSet.afterLast");
  }


  @Override
  public boolean first() throws SQLException {
    throw SqlStates.unsupported("ResultSet.first");
  }


  @Override
  public boolean last() throws SQLException {
    throw SqlStates.unsupported("ResultSet.last");
  }


  @Override
  public boolean absolute(int a0) throws SQLException {
    throw SqlStates.unsupported("ResultSet.absolute");
  }


  @Override
  public boolean relative(int a0) throws SQLException {
    throw SqlStates.unsupported("ResultSet.relative");
  }


  @Override
  public boolean previous() throws SQLException {
    throw SqlStates.unsupported("ResultSet.previous");
  }


  @Override
  public boolean rowUpdated() throws SQLException {
    throw SqlStates.unsupported("ResultSet.rowUpdated");
  }


  @Override
  public boolean rowInserted() throws SQLException {
    throw SqlStates.unsupported("ResultSet.rowInserted");
  }


  @Override
  public boolean rowDeleted() throws SQLException {
    throw SqlStates.unsupported("ResultSet.rowDeleted");
  }


  @Override
  public void updateNull(int a0) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateNull");
  }


  @Override
  public void updateBoolean(int a0, boolean a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateBoolean");
  }


  @Override
  public void updateByte(int a0, byte a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateByte");
  }


  @Override
  public void updateShort(int a0, short a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateShort");
  }


  @Override
  public void updateInt(int a0, int a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateInt");
  }


  @Override
  public void updateLong(int a0, long a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateLong");
  }


  @Override
  public void updateFloat(int a0, float a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateFloat");
  }


  @Override
  public void updateDouble(int a0, double a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateDouble");
  }


  @Override
  public void updateBigDecimal(int a0, java.math.BigDecimal a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateBigDecimal");
  }


  @Override
  public void updateString(int a0, String a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateString");
  }


  @Override
  public void updateBytes(int a0, byte[] a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateBytes");
  }


  @Override
  public void updateDate(int a0, Date a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateDate");
  }


  @Override
  public void updateTime(int a0, Time a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateTime");
  }


  @Override
  public void updateTimestamp(int a0, Timestamp a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateTimestamp");
  }


  @Override
  public void updateAsciiStream(int a0, java.io.InputStream a1, int a2) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateAsciiStream");
  }


  @Override
  public void updateBinaryStream(int a0, java.io.InputStream a1, int a2) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateBinaryStream");
  }


  @Override
  public void updateCharacterStream(int a0, java.io.Reader a1, int a2) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateCharacterStream");
  }


  @Override
  public void updateObject(int a0, Object a1, int a2) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateObject");
  }


  @Override
  public void updateObject(int a0, Object a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateObject");
  }


  @Override
  public void updateNull(String a0) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateNull");
  }


  @Override
  public void updateBoolean(String a0, boolean a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateBoolean");
  }


  @Override
  public void updateByte(String a0, byte a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateByte");
  }


  @Override
  public void updateShort(String a0, short a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateShort");
  }


  @Override
  public void updateInt(String a0, int a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateInt");
  }


  @Override
  public void updateLong(String a0, long a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateLong");
  }


  @Override
  public void updateFloat(String a0, float a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateFloat");
  }


  @Override
  public void updateDouble(String a0, double a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateDouble");
  }


  @Override
  public void updateBigDecimal(String a0, java.math.BigDecimal a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateBigDecimal");
  }


  @Override
  public void updateString(String a0, String a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateString");
  }


  @Override
  public void updateBytes(String a0, byte[] a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateBytes");
  }


  @Override
  public void updateDate(String a0, Date a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateDate");
  }


  @Override
  public void updateTime(String a0, Time a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateTime");
  }


  @Override
  public void updateTimestamp(String a0, Timestamp a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateTimestamp");
  }


  @Override
  public void updateAsciiStream(String a0, java.io.InputStream a1, int a2) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateAsciiStream");
  }


  @Override
  public void updateBinaryStream(String a0, java.io.InputStream a1, int a2) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateBinaryStream");
  }


  @Override
  public void updateCharacterStream(String a0, java.io.Reader a1, int a2) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateCharacterStream");
  }


  @Override
  public void updateObject(String a0, Object a1, int a2) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateObject");
  }


  @Override
  public void updateObject(String a0, Object a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateObject");
  }


  @Override
  public void insertRow() throws SQLException {
    throw SqlStates.unsupported("ResultSet.insertRow");
  }


  @Override
  public void updateRow() throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateRow");
  }


  @Override
  public void deleteRow() throws SQLException {
    throw SqlStates.unsupported("ResultSet.deleteRow");
  }


  @Override
  public void refreshRow() throws SQLException {
    throw SqlStates.unsupported("ResultSet.refreshRow");
  }


  @Override
  public void cancelRowUpdates() throws SQLException {
    throw SqlStates.unsupported("ResultSet.cancelRowUpdates");
  }


  @Override
  public void moveToInsertRow() throws SQLException {
    throw SqlStates.unsupported("ResultSet.moveToInsertRow");
  }


  @Override
  public void moveToCurrentRow() throws SQLException {
    throw SqlStates.unsupported("ResultSet.moveToCurrentRow");
  }


  @Override
  public Ref getRef(int a0) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getRef");
  }


  @Override
  public Blob getBlob(int a0) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getBlob");
  }


  @Override
  public Clob getClob(int a0) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getClob");
  }


  @Override
  public Array getArray(int a0) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getArray");
  }


  @Override
  public Ref getRef(String a0) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getRef");
  }


  @Override
  public Blob getBlob(String a0) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getBlob");
  }


  @Override
  public Clob getClob(String a0) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getClob");
  }


  @Override
  public Array getArray(String a0) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getArray");
  }


  @Override
  public java.net.URL getURL(int a0) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getURL");
  }


  @Override
  public java.net.URL getURL(String a0) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getURL");
  }


  @Override
  public void updateRef(int a0, Ref a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateRef");
  }


  @Override
  public void updateRef(String a0, Ref a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateRef");
  }


  @Override
  public void updateBlob(int a0, Blob a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateBlob");
  }


  @Override
  public void updateBlob(String a0, Blob a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateBlob");
  }


  @Override
  public void updateClob(int a0, Clob a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateClob");
  }


  @Override
  public void updateClob(String a0, Clob a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateClob");
  }


  @Override
  public void updateArray(int a0, Array a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateArray");
  }


  @Override
  public void updateArray(String a0, Array a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateArray");
  }


  @Override
  public RowId getRowId(int a0) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getRowId");
  }


  @Override
  public RowId getRowId(String a0) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getRowId");
  }


  @Override
  public void updateRowId(int a0, RowId a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateRowId");
  }


  @Override
  public void updateRowId(String a0, RowId a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateRowId");
  }


  @Override
  public void updateNString(int a0, String a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateNString");
  }


  @Override
  public void updateNString(String a0, String a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateNString");
  }


  @Override
  public void updateNClob(int a0, NClob a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateNClob");
  }


  @Override
  public void updateNClob(String a0, NClob a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateNClob");
  }


  @Override
  public NClob getNClob(int a0) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getNClob");
  }


  @Override
  public NClob getNClob(String a0) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getNClob");
  }


  @Override
  public SQLXML getSQLXML(int a0) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getSQLXML");
  }


  @Override
  public SQLXML getSQLXML(String a0) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getSQLXML");
  }


  @Override
  public void updateSQLXML(int a0, SQLXML a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateSQLXML");
  }


  @Override
  public void updateSQLXML(String a0, SQLXML a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateSQLXML");
  }


  @Override
  public java.io.Reader getNCharacterStream(int a0) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getNCharacterStream");
  }


  @Override
  public java.io.Reader getNCharacterStream(String a0) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getNCharacterStream");
  }


  @Override
  public void updateNCharacterStream(int a0, java.io.Reader a1, long a2) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateNCharacterStream");
  }


  @Override
  public void updateNCharacterStream(String a0, java.io.Reader a1, long a2) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateNCharacterStream");
  }


  @Override
  public void updateAsciiStream(int a0, java.io.InputStream a1, long a2) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateAsciiStream");
  }


  @Override
  public void updateBinaryStream(int a0, java.io.InputStream a1, long a2) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateBinaryStream");
  }


  @Override
  public void updateCharacterStream(int a0, java.io.Reader a1, long a2) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateCharacterStream");
  }


  @Override
  public void updateAsciiStream(String a0, java.io.InputStream a1, long a2) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateAsciiStream");
  }


  @Override
  public void updateBinaryStream(String a0, java.io.InputStream a1, long a2) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateBinaryStream");
  }


  @Override
  public void updateCharacterStream(String a0, java.io.Reader a1, long a2) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateCharacterStream");
  }


  @Override
  public void updateBlob(int a0, java.io.InputStream a1, long a2) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateBlob");
  }


  @Override
  public void updateBlob(String a0, java.io.InputStream a1, long a2) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateBlob");
  }


  @Override
  public void updateClob(int a0, java.io.Reader a1, long a2) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateClob");
  }


  @Override
  public void updateClob(String a0, java.io.Reader a1, long a2) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateClob");
  }


  @Override
  public void updateNClob(int a0, java.io.Reader a1, long a2) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateNClob");
  }


  @Override
  public void updateNClob(String a0, java.io.Reader a1, long a2) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateNClob");
  }


  @Override
  public void updateNCharacterStream(int a0, java.io.Reader a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateNCharacterStream");
  }


  @Override
  public void updateNCharacterStream(String a0, java.io.Reader a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateNCharacterStream");
  }


  @Override
  public void updateAsciiStream(int a0, java.io.InputStream a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateAsciiStream");
  }


  @Override
  public void updateBinaryStream(int a0, java.io.InputStream a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateBinaryStream");
  }


  @Override
  public void updateCharacterStream(int a0, java.io.Reader a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateCharacterStream");
  }


  @Override
  public void updateAsciiStream(String a0, java.io.InputStream a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateAsciiStream");
  }


  @Override
  public void updateBinaryStream(String a0, java.io.InputStream a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateBinaryStream");
  }


  @Override
  public void updateCharacterStream(String a0, java.io.Reader a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateCharacterStream");
  }


  @Override
  public void updateBlob(int a0, java.io.InputStream a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateBlob");
  }


  @Override
  public void updateBlob(String a0, java.io.InputStream a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateBlob");
  }


  @Override
  public void updateClob(int a0, java.io.Reader a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateClob");
  }


  @Override
  public void updateClob(String a0, java.io.Reader a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateClob");
  }


  @Override
  public void updateNClob(int a0, java.io.Reader a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateNClob");
  }


  @Override
  public void updateNClob(String a0, java.io.Reader a1) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateNClob");
  }
}
