package org.partita.integration;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.sql.BatchUpdateException;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLSyntaxErrorException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The JDBC driver against a real two-site server with the Voter schema:
 * DriverManager finds it through META-INF/services, {call Vote(?,?,?)}
 * through a CallableStatement, ad-hoc SQL with parameters, every Partita type
 * through ResultSet and its metadata, pipelined batches, DatabaseMetaData,
 * isValid, and the SQLStates of bad input.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class JdbcDriverTest {
  private static final String NAMES = "Edwina Burnam,Tabatha Gehling,Kelly Clauss,Jessie Alloway,Alana Bregman,"
      + "Jessie Eichman";

  private static ServerProcess server;
  private static Connection connection;

  @BeforeAll
  static void start() throws Exception {
    server = ServerProcess.voter(2);
    connection = DriverManager.getConnection(url(server));
    try (CallableStatement init = connection.prepareCall("{call Initialize(?, ?)}")) {
      init.setInt(1, 6);
      init.setString(2, NAMES);
      try (ResultSet rs = init.executeQuery()) {
        assertTrue(rs.next());
        assertEquals(6, rs.getLong(1));
      }
    }
    try (Statement s = connection.createStatement()) {
      s.execute("CREATE TABLE typed (id BIGINT NOT NULL PRIMARY KEY, i INTEGER, si SMALLINT, ti TINYINT,"
          + " f FLOAT, d DECIMAL, v VARCHAR(20), b VARBINARY(8), ts TIMESTAMP)");
      s.execute("PARTITION TABLE typed ON COLUMN id");
    }
  }

  @AfterAll
  static void stop() throws Exception {
    if (connection != null) {
      connection.close();
    }
    if (server != null) {
      server.close();
    }
  }

  static String url(ServerProcess s) {
    return "jdbc:partita://" + s.address();
  }

  @Test
  void shouldBeFoundByDriverManagerAndDescribeTheProduct() throws Exception {
    assertInstanceOf(org.partita.jdbc.PartitaDriver.class, DriverManager.getDriver(url(server)));
    final DatabaseMetaData meta = connection.getMetaData();
    assertEquals("Partita", meta.getDatabaseProductName());
    assertTrue(meta.getDatabaseProductVersion().startsWith("Partita"), meta.getDatabaseProductVersion());
    assertTrue(connection.isValid(5));
  }

  @Test
  void shouldCallVoteThroughCallableStatement() throws Exception {
    try (CallableStatement vote = connection.prepareCall("{call Vote(?, ?, ?)}")) {
      final long[] expected = {0, 0, 2};
      for (long outcome : expected) {
        vote.setLong(1, 6175550001L);
        vote.setInt(2, 3);
        vote.setLong(3, 2);
        try (ResultSet rs = vote.executeQuery()) {
          assertTrue(rs.next());
          assertEquals(outcome, rs.getLong(1));
          assertFalse(rs.next());
        }
      }
      vote.setLong(1, 6175550002L);
      vote.setInt(2, 99);
      vote.setLong(3, 2);
      assertTrue(vote.execute());
      assertTrue(vote.getResultSet().next());
      assertEquals(1, vote.getResultSet().getInt(1), "contestant 99 does not exist");
    }
    long standingsTotal = 0;
    try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("{call Results}")) {
      assertEquals("CONTESTANT_NAME", rs.getMetaData().getColumnName(1));
      while (rs.next()) {
        standingsTotal += rs.getLong("TOTAL_VOTES");
      }
    }
    try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM votes")) {
      assertTrue(rs.next());
      assertEquals(rs.getLong(1), standingsTotal, "Results through a plain Statement's {call}");
    }
    try (PreparedStatement count = connection.prepareStatement(
        "SELECT COUNT(*) FROM votes WHERE phone_number = ?")) {
      count.setLong(1, 6175550001L);
      try (ResultSet rs = count.executeQuery()) {
        assertTrue(rs.next());
        assertEquals(2, rs.getInt(1));
      }
    }
  }

  @Test
  void shouldStoreAndReadEveryTypeWithMicroseconds() throws Exception {
    final Timestamp ts = Timestamp.valueOf("2026-11-24 01:02:03.123456789");
    try (PreparedStatement insert = connection.prepareStatement("INSERT INTO typed VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
      insert.setLong(1, 1);
      insert.setInt(2, -2_000_000_000);
      insert.setShort(3, (short) -30000);
      insert.setByte(4, (byte) 120);
      insert.setDouble(5, 1.5);
      insert.setBigDecimal(6, new BigDecimal("12345.000000000001"));
      insert.setString(7, "héllo");
      insert.setBytes(8, new byte[] {1, 2, (byte) 0xFF});
      insert.setTimestamp(9, ts);
      assertEquals(1, insert.executeUpdate());
      insert.setLong(1, 2);
      for (int p = 2; p <= 9; p++) {
        insert.setNull(p, Types.NULL);
      }
      assertEquals(1, insert.executeUpdate());
    }
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery("SELECT * FROM typed ORDER BY id")) {
      final ResultSetMetaData meta = rs.getMetaData();
      final int[] types = {Types.BIGINT, Types.INTEGER, Types.SMALLINT, Types.TINYINT, Types.DOUBLE, Types.DECIMAL,
          Types.VARCHAR, Types.VARBINARY, Types.TIMESTAMP};
      for (int c = 1; c <= types.length; c++) {
        assertEquals(types[c - 1], meta.getColumnType(c), meta.getColumnName(c));
      }
      assertEquals("TS", meta.getColumnLabel(9));
      assertEquals("java.sql.Timestamp", meta.getColumnClassName(9));
      assertTrue(rs.next());
      assertEquals(-2_000_000_000, rs.getObject("I"));
      assertEquals(-30000, rs.getObject(3));
      assertEquals(120, rs.getObject(4));
      assertEquals(1.5, rs.getDouble("f"));
      assertEquals(0, new BigDecimal("12345.000000000001").compareTo(rs.getBigDecimal("D")));
      assertEquals("héllo", rs.getString(7));
      assertArrayEquals(new byte[] {1, 2, (byte) 0xFF}, rs.getBytes(8));
      final Timestamp read = rs.getTimestamp(9);
      assertEquals(ts.getTime(), read.getTime());
      assertEquals(123_456_000, read.getNanos(), "microseconds kept, nanoseconds cut");
      assertTrue(rs.next());
      assertEquals(0, rs.getInt(2));
      assertTrue(rs.wasNull());
      assertNull(rs.getTimestamp(9));
      assertNull(rs.getObject(6));
      assertFalse(rs.next());
    }
  }

  @Test
  void shouldSendBatchesTogetherAndReportEachCount() throws Exception {
    try (Statement s = connection.createStatement()) {
      s.execute("CREATE TABLE batched (id BIGINT NOT NULL PRIMARY KEY, note VARCHAR(10))");
    }
    try (PreparedStatement insert = connection.prepareStatement("INSERT INTO batched VALUES (?, ?)")) {
      for (int i = 0; i < 200; i++) {
        insert.setLong(1, i);
        insert.setString(2, "n" + i);
        insert.addBatch();
      }
      final int[] counts = insert.executeBatch();
      assertEquals(200, counts.length);
      for (int c : counts) {
        assertEquals(1, c);
      }
      insert.setLong(1, 500);
      insert.setString(2, "new");
      insert.addBatch();
      insert.setLong(1, 7);
      insert.setString(2, "duplicate");
      insert.addBatch();
      insert.setLong(1, 501);
      insert.setString(2, "much too long");
      insert.addBatch();
      final BatchUpdateException e = assertThrows(BatchUpdateException.class, insert::executeBatch);
      assertArrayEquals(new int[] {1, Statement.EXECUTE_FAILED, Statement.EXECUTE_FAILED}, e.getUpdateCounts());
      assertEquals("23505", e.getSQLState(), e.getMessage());
      assertTrue(e.getMessage().startsWith("batch entry 2"), e.getMessage());
      assertEquals("22001", e.getNextException().getSQLState(), "entry 3, chained");
    }
    try (CallableStatement vote = connection.prepareCall("{call Vote(?, ?, 5)}")) {
      for (int i = 0; i < 50; i++) {
        vote.setLong(1, 2125550000L + i);
        vote.setInt(2, 1 + i % 6);
        vote.addBatch();
      }
      for (int c : vote.executeBatch()) {
        assertEquals(Statement.SUCCESS_NO_INFO, c);
      }
    }
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM batched")) {
      assertTrue(rs.next());
      assertEquals(201, rs.getLong(1));
    }
  }

  @Test
  void shouldDescribeTablesColumnsKeysAndProcedures() throws Exception {
    final DatabaseMetaData meta = connection.getMetaData();
    final List<String> tables = new ArrayList<>();
    try (ResultSet rs = meta.getTables(null, null, "%", new String[] {"TABLE"})) {
      while (rs.next()) {
        tables.add(rs.getString("TABLE_NAME"));
      }
    }
    assertTrue(tables.containsAll(List.of("AREA_CODE_STATE", "CONTESTANTS", "VOTES")), tables.toString());
    try (ResultSet rs = meta.getColumns(null, null, "votes", "phone%")) {
      assertTrue(rs.next());
      assertEquals("PHONE_NUMBER", rs.getString("COLUMN_NAME"));
      assertEquals(Types.BIGINT, rs.getInt("DATA_TYPE"));
      assertEquals("NO", rs.getString("IS_NULLABLE"));
      assertEquals(1, rs.getInt("ORDINAL_POSITION"));
      assertFalse(rs.next());
    }
    try (ResultSet rs = meta.getPrimaryKeys(null, null, "CONTESTANTS")) {
      assertTrue(rs.next());
      assertEquals("CONTESTANT_NUMBER", rs.getString("COLUMN_NAME"));
      assertEquals(1, rs.getShort("KEY_SEQ"));
    }
    final List<String> procedures = new ArrayList<>();
    try (ResultSet rs = meta.getProcedures(null, null, "%")) {
      while (rs.next()) {
        procedures.add(rs.getString("PROCEDURE_NAME"));
      }
    }
    assertTrue(procedures.containsAll(List.of("Vote", "Results", "Initialize")), procedures.toString());
  }

  @Test
  void shouldRefuseTransactionsSpanningStatementsClearly() throws Exception {
    assertTrue(connection.getAutoCommit());
    connection.setAutoCommit(true);
    final SQLFeatureNotSupportedException off = assertThrows(SQLFeatureNotSupportedException.class,
        () -> connection.setAutoCommit(false));
    assertEquals("0A000", off.getSQLState());
    assertTrue(off.getMessage().contains("auto-commit only"), off.getMessage());
    assertEquals("25000", assertThrows(SQLException.class, connection::commit).getSQLState());
    assertEquals("25000", assertThrows(SQLException.class, connection::rollback).getSQLState());
    assertThrows(SQLFeatureNotSupportedException.class, connection::setSavepoint);
    assertThrows(SQLFeatureNotSupportedException.class,
        () -> connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED));
    connection.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
  }

  @Test
  void shouldMapServerErrorsToSqlStates() throws Exception {
    try (Statement s = connection.createStatement()) {
      final SQLSyntaxErrorException syntax = assertThrows(SQLSyntaxErrorException.class,
          () -> s.executeQuery("SELECT nope FROM votes"));
      assertEquals("42000", syntax.getSQLState());
      assertTrue(syntax.getMessage().contains("NOPE"), syntax.getMessage());
      final SQLIntegrityConstraintViolationException duplicate = assertThrows(
          SQLIntegrityConstraintViolationException.class,
          () -> s.executeUpdate("INSERT INTO contestants VALUES (1, 'again')"));
      assertEquals("23505", duplicate.getSQLState());
      assertEquals(2, duplicate.getErrorCode(), "the vendor code is the error code's number");
      assertEquals("07005", assertThrows(SQLException.class, () -> s.executeQuery(
          "DELETE FROM votes WHERE phone_number = 1")).getSQLState());
      assertEquals("07005", assertThrows(SQLException.class, () -> s.executeUpdate(
          "SELECT COUNT(*) FROM votes")).getSQLState());
      assertEquals("07001", assertThrows(SQLException.class, () -> s.executeQuery(
          "SELECT * FROM votes WHERE phone_number = ?")).getSQLState());
      assertEquals("07001", assertThrows(SQLException.class, () -> s.executeQuery(
          "{call Vote(?, 1, 2)}")).getSQLState());
    }
    try (CallableStatement missing = connection.prepareCall("{call NoSuchProcedure()}")) {
      assertEquals("42000", assertThrows(SQLSyntaxErrorException.class, missing::execute).getSQLState());
    }
    try (CallableStatement vote = connection.prepareCall("{call Vote(?, ?)}")) {
      vote.setLong(1, 1);
      vote.setInt(2, 1);
      assertEquals("22023", assertThrows(SQLDataException.class, vote::execute).getSQLState());
    }
  }

  @Test
  void shouldRejectBadInputBeforeSending() throws Exception {
    try (PreparedStatement p = connection.prepareStatement("SELECT * FROM votes WHERE phone_number = ?")) {
      assertEquals("07001", assertThrows(SQLException.class, p::executeQuery).getSQLState());
      assertEquals("07009", assertThrows(SQLException.class, () -> p.setLong(2, 1)).getSQLState());
      assertEquals("22023", assertThrows(SQLException.class, () -> p.setObject(1, new Object())).getSQLState());
      assertThrows(SQLException.class, () -> p.executeQuery("SELECT 1"));
    }
    assertEquals("42000", assertThrows(SQLSyntaxErrorException.class,
        () -> connection.prepareCall("{call Vote(?, ?")).getSQLState());
    assertThrows(SQLFeatureNotSupportedException.class, () -> connection.prepareCall("{? = call Vote(?, ?, ?)}"));
    try (Statement s = connection.createStatement();
        ResultSet rs = s.executeQuery("SELECT CAST(3000000000 AS BIGINT) AS big FROM contestants LIMIT 1")) {
      assertThrows(SQLException.class, () -> rs.getInt(1), "before the first row");
      assertTrue(rs.next());
      assertEquals("22003", assertThrows(SQLDataException.class, () -> rs.getInt(1)).getSQLState());
      assertEquals(3_000_000_000L, rs.getLong("BIG"));
      assertEquals("42S22", assertThrows(SQLException.class, () -> rs.getLong("nope")).getSQLState());
      assertEquals("07009", assertThrows(SQLException.class, () -> rs.getLong(2)).getSQLState());
    }
    assertEquals("08001", assertThrows(SQLException.class,
        () -> DriverManager.getConnection("jdbc:partita://127.0.0.1:notaport")).getSQLState());
    assertEquals("08001", assertThrows(SQLException.class,
        () -> DriverManager.getConnection(url(server) + "?callTimeout=5")).getSQLState());
  }
}
