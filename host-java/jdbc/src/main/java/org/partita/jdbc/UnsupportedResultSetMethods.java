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
  public InputStream getAsciiStream(int columnIndex) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getAsciiStream");
  }


  @Override
  @Deprecated
  public InputStream getUnicodeStream(int columnIndex) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getUnicodeStream");
  }


  @Override
  public InputStream getBinaryStream(int columnIndex) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getBinaryStream");
  }


  @Override
  public InputStream getAsciiStream(String columnLabel) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getAsciiStream");
  }


  @Override
  @Deprecated
  public InputStream getUnicodeStream(String columnLabel) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getUnicodeStream");
  }


  @Override
  public InputStream getBinaryStream(String columnLabel) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getBinaryStream");
  }


  @Override
  public String getCursorName() throws SQLException {
    throw SqlStates.unsupported("ResultSet.getCursorName");
  }


  @Override
  public Reader getCharacterStream(int columnIndex) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getCharacterStream");
  }


  @Override
  public Reader getCharacterStream(String columnLabel) throws SQLException {
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
  public boolean absolute(int row) throws SQLException {
    throw SqlStates.unsupported("ResultSet.absolute");
  }


  @Override
  public boolean relative(int rows) throws SQLException {
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
  public void updateNull(int columnIndex) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateNull");
  }


  @Override
  public void updateBoolean(int columnIndex, boolean x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateBoolean");
  }


  @Override
  public void updateByte(int columnIndex, byte x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateByte");
  }


  @Override
  public void updateShort(int columnIndex, short x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateShort");
  }


  @Override
  public void updateInt(int columnIndex, int x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateInt");
  }


  @Override
  public void updateLong(int columnIndex, long x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateLong");
  }


  @Override
  public void updateFloat(int columnIndex, float x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateFloat");
  }


  @Override
  public void updateDouble(int columnIndex, double x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateDouble");
  }


  @Override
  public void updateBigDecimal(int columnIndex, BigDecimal x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateBigDecimal");
  }


  @Override
  public void updateString(int columnIndex, String x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateString");
  }


  @Override
  public void updateBytes(int columnIndex, byte[] x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateBytes");
  }


  @Override
  public void updateDate(int columnIndex, Date x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateDate");
  }


  @Override
  public void updateTime(int columnIndex, Time x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateTime");
  }


  @Override
  public void updateTimestamp(int columnIndex, Timestamp x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateTimestamp");
  }


  @Override
  public void updateAsciiStream(int columnIndex, InputStream x, int length) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateAsciiStream");
  }


  @Override
  public void updateBinaryStream(int columnIndex, InputStream x, int length) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateBinaryStream");
  }


  @Override
  public void updateCharacterStream(int columnIndex, Reader x, int length) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateCharacterStream");
  }


  @Override
  public void updateObject(int columnIndex, Object x, int scaleOrLength) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateObject");
  }


  @Override
  public void updateObject(int columnIndex, Object x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateObject");
  }


  @Override
  public void updateNull(String columnLabel) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateNull");
  }


  @Override
  public void updateBoolean(String columnLabel, boolean x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateBoolean");
  }


  @Override
  public void updateByte(String columnLabel, byte x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateByte");
  }


  @Override
  public void updateShort(String columnLabel, short x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateShort");
  }


  @Override
  public void updateInt(String columnLabel, int x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateInt");
  }


  @Override
  public void updateLong(String columnLabel, long x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateLong");
  }


  @Override
  public void updateFloat(String columnLabel, float x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateFloat");
  }


  @Override
  public void updateDouble(String columnLabel, double x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateDouble");
  }


  @Override
  public void updateBigDecimal(String columnLabel, BigDecimal x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateBigDecimal");
  }


  @Override
  public void updateString(String columnLabel, String x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateString");
  }


  @Override
  public void updateBytes(String columnLabel, byte[] x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateBytes");
  }


  @Override
  public void updateDate(String columnLabel, Date x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateDate");
  }


  @Override
  public void updateTime(String columnLabel, Time x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateTime");
  }


  @Override
  public void updateTimestamp(String columnLabel, Timestamp x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateTimestamp");
  }


  @Override
  public void updateAsciiStream(String columnLabel, InputStream x, int length) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateAsciiStream");
  }


  @Override
  public void updateBinaryStream(String columnLabel, InputStream x, int length) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateBinaryStream");
  }


  @Override
  public void updateCharacterStream(String columnLabel, Reader x, int length) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateCharacterStream");
  }


  @Override
  public void updateObject(String columnLabel, Object x, int scaleOrLength) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateObject");
  }


  @Override
  public void updateObject(String columnLabel, Object x) throws SQLException {
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
  public Ref getRef(int columnIndex) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getRef");
  }


  @Override
  public Blob getBlob(int columnIndex) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getBlob");
  }


  @Override
  public Clob getClob(int columnIndex) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getClob");
  }


  @Override
  public Array getArray(int columnIndex) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getArray");
  }


  @Override
  public Ref getRef(String columnLabel) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getRef");
  }


  @Override
  public Blob getBlob(String columnLabel) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getBlob");
  }


  @Override
  public Clob getClob(String columnLabel) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getClob");
  }


  @Override
  public Array getArray(String columnLabel) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getArray");
  }


  @Override
  public URL getURL(int columnIndex) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getURL");
  }


  @Override
  public URL getURL(String columnLabel) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getURL");
  }


  @Override
  public void updateRef(int columnIndex, Ref x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateRef");
  }


  @Override
  public void updateRef(String columnLabel, Ref x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateRef");
  }


  @Override
  public void updateBlob(int columnIndex, Blob x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateBlob");
  }


  @Override
  public void updateBlob(String columnLabel, Blob x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateBlob");
  }


  @Override
  public void updateClob(int columnIndex, Clob x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateClob");
  }


  @Override
  public void updateClob(String columnLabel, Clob x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateClob");
  }


  @Override
  public void updateArray(int columnIndex, Array x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateArray");
  }


  @Override
  public void updateArray(String columnLabel, Array x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateArray");
  }


  @Override
  public RowId getRowId(int columnIndex) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getRowId");
  }


  @Override
  public RowId getRowId(String columnLabel) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getRowId");
  }


  @Override
  public void updateRowId(int columnIndex, RowId x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateRowId");
  }


  @Override
  public void updateRowId(String columnLabel, RowId x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateRowId");
  }


  @Override
  public void updateNString(int columnIndex, String x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateNString");
  }


  @Override
  public void updateNString(String columnLabel, String x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateNString");
  }


  @Override
  public void updateNClob(int columnIndex, NClob x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateNClob");
  }


  @Override
  public void updateNClob(String columnLabel, NClob x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateNClob");
  }


  @Override
  public NClob getNClob(int columnIndex) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getNClob");
  }


  @Override
  public NClob getNClob(String columnLabel) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getNClob");
  }


  @Override
  public SQLXML getSQLXML(int columnIndex) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getSQLXML");
  }


  @Override
  public SQLXML getSQLXML(String columnLabel) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getSQLXML");
  }


  @Override
  public void updateSQLXML(int columnIndex, SQLXML x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateSQLXML");
  }


  @Override
  public void updateSQLXML(String columnLabel, SQLXML x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateSQLXML");
  }


  @Override
  public Reader getNCharacterStream(int columnIndex) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getNCharacterStream");
  }


  @Override
  public Reader getNCharacterStream(String columnLabel) throws SQLException {
    throw SqlStates.unsupported("ResultSet.getNCharacterStream");
  }


  @Override
  public void updateNCharacterStream(int columnIndex, Reader x, long length) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateNCharacterStream");
  }


  @Override
  public void updateNCharacterStream(String columnLabel, Reader x, long length) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateNCharacterStream");
  }


  @Override
  public void updateAsciiStream(int columnIndex, InputStream x, long length) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateAsciiStream");
  }


  @Override
  public void updateBinaryStream(int columnIndex, InputStream x, long length) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateBinaryStream");
  }


  @Override
  public void updateCharacterStream(int columnIndex, Reader x, long length) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateCharacterStream");
  }


  @Override
  public void updateAsciiStream(String columnLabel, InputStream x, long length) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateAsciiStream");
  }


  @Override
  public void updateBinaryStream(String columnLabel, InputStream x, long length) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateBinaryStream");
  }


  @Override
  public void updateCharacterStream(String columnLabel, Reader x, long length) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateCharacterStream");
  }


  @Override
  public void updateBlob(int columnIndex, InputStream x, long length) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateBlob");
  }


  @Override
  public void updateBlob(String columnLabel, InputStream x, long length) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateBlob");
  }


  @Override
  public void updateClob(int columnIndex, Reader x, long length) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateClob");
  }


  @Override
  public void updateClob(String columnLabel, Reader x, long length) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateClob");
  }


  @Override
  public void updateNClob(int columnIndex, Reader x, long length) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateNClob");
  }


  @Override
  public void updateNClob(String columnLabel, Reader x, long length) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateNClob");
  }


  @Override
  public void updateNCharacterStream(int columnIndex, Reader x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateNCharacterStream");
  }


  @Override
  public void updateNCharacterStream(String columnLabel, Reader x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateNCharacterStream");
  }


  @Override
  public void updateAsciiStream(int columnIndex, InputStream x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateAsciiStream");
  }


  @Override
  public void updateBinaryStream(int columnIndex, InputStream x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateBinaryStream");
  }


  @Override
  public void updateCharacterStream(int columnIndex, Reader x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateCharacterStream");
  }


  @Override
  public void updateAsciiStream(String columnLabel, InputStream x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateAsciiStream");
  }


  @Override
  public void updateBinaryStream(String columnLabel, InputStream x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateBinaryStream");
  }


  @Override
  public void updateCharacterStream(String columnLabel, Reader x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateCharacterStream");
  }


  @Override
  public void updateBlob(int columnIndex, InputStream x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateBlob");
  }


  @Override
  public void updateBlob(String columnLabel, InputStream x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateBlob");
  }


  @Override
  public void updateClob(int columnIndex, Reader x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateClob");
  }


  @Override
  public void updateClob(String columnLabel, Reader x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateClob");
  }


  @Override
  public void updateNClob(int columnIndex, Reader x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateNClob");
  }


  @Override
  public void updateNClob(String columnLabel, Reader x) throws SQLException {
    throw SqlStates.unsupported("ResultSet.updateNClob");
  }
}
