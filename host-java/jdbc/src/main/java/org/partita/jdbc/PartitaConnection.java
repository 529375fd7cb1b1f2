package org.partita.jdbc;

import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLClientInfoException;
import java.sql.SQLException;
import java.sql.SQLInvalidAuthorizationSpecException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLWarning;
import java.sql.Savepoint;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.partita.client.ClientResponse;
import org.partita.client.PartitaClient;
import org.partita.client.LoginRefusedException;
import org.partita.client.PartitaClientException;
import org.partita.client.ProcedureCallException;

/**
 * A JDBC connection: one {@link PartitaClient} with a connection to each
 * server of the URL (calls go to the partition's leader). Auto-commit only:
 * every statement and every procedure call is its own transaction, so
 * {@code setAutoCommit(false)}, savepoints, and {@code commit}/{@code rollback}
 * fail with a message saying so. {@code setReadOnly} is kept as a hint and
 * does not stop writes.
 *
 * <p>Thread model: thread-safe like its client; statements of one
 * connection may run on different threads at once.
 */
public final class PartitaConnection implements Connection {
  private static final String PING = "@Ping";

  private final JdbcUrl url;
  private final PartitaClient client;
  private volatile boolean closed;
  private volatile boolean readOnly;
  private volatile int networkTimeoutMillis;

  private PartitaConnection(JdbcUrl url, PartitaClient client) {
    this.url = url;
    this.client = client;
  }

  /**
   * Connects to every server of {@code url}; succeeds when at least one answers.
   *
   * @throws SQLException 08001 naming each server and why it could not be reached; 28000 when every
   *     server refused the login (authentication)
   */
  static PartitaConnection open(JdbcUrl url) throws SQLException {
    final PartitaClient client = new PartitaClient(url.clientConfig());
    final List<String> failures = new ArrayList<>();
    int refused = 0;
    for (String server : url.servers()) {
      try {
        client.connect(server);
      } catch (PartitaClientException | IllegalArgumentException e) {
        failures.add(server + ": " + e.getMessage());
        refused += e instanceof LoginRefusedException ? 1 : 0;
      }
    }
    if (failures.size() == url.servers().size()) {
      client.close();
      final String message = "cannot connect to any server of " + url.url() + ": " + String.join("; ", failures);
      if (refused == failures.size()) {
        throw new SQLInvalidAuthorizationSpecException(message, "28000");
      }
      throw new SQLNonTransientConnectionException(message, SqlStates.UNABLE_TO_CONNECT);
    }
    return new PartitaConnection(url, client);
  }

  /** The Java client under this connection, for calls JDBC cannot express (asynchronous calls). */
  public PartitaClient client() {
    return client;
  }

  JdbcUrl url() {
    return url;
  }

  /**
   * Calls {@code procedure} and waits for its answer.
   *
   * @param timeoutSeconds the statement's query timeout; 0 = the connection's network timeout or the client's default
   * @throws SQLException the mapped failure (SqlStates)
   */
  ClientResponse call(int timeoutSeconds, String procedure, Object... parameters) throws SQLException {
    checkOpen();
    try {
      final Duration timeout = timeout(timeoutSeconds);
      return timeout == null ? client.call(procedure, parameters) : client.call(timeout, procedure, parameters);
    } catch (ProcedureCallException e) {
      throw SqlStates.fromResponse(procedure, e.response());
    } catch (PartitaClientException e) {
      throw SqlStates.fromClient(procedure, e);
    } catch (IllegalArgumentException e) {
      throw new SQLException(procedure + ": " + e.getMessage(), SqlStates.INVALID_PARAMETER_VALUE, e);
    }
  }

  /** Sends a call without waiting; the future holds every server answer (failures too). */
  CompletableFuture<ClientResponse> callAsync(int timeoutSeconds, String procedure, Object... parameters)
      throws SQLException {
    checkOpen();
    try {
      final Duration timeout = timeout(timeoutSeconds);
      return timeout == null ? client.callAsync(procedure, parameters)
          : client.callAsync(timeout, procedure, parameters);
    } catch (IllegalArgumentException e) {
      throw new SQLException(procedure + ": " + e.getMessage(), SqlStates.INVALID_PARAMETER_VALUE, e);
    }
  }

  private Duration timeout(int timeoutSeconds) {
    if (timeoutSeconds > 0) {
      return Duration.ofSeconds(timeoutSeconds);
    }
    final int network = networkTimeoutMillis;
    return network > 0 ? Duration.ofMillis(network) : null;
  }

  void checkOpen() throws SQLException {
    if (closed) {
      throw SqlStates.closed("the connection");
    }
  }

  @Override
  public Statement createStatement() throws SQLException {
    checkOpen();
    return new PartitaStatement(this);
  }

  @Override
  public PreparedStatement prepareStatement(String sql) throws SQLException {
    checkOpen();
    return CallEscape.isCall(sql) ? new PartitaCallableStatement(this, sql, CallEscape.parse(sql))
        : new PartitaPreparedStatement(this, sql);
  }

  @Override
  public CallableStatement prepareCall(String sql) throws SQLException {
    checkOpen();
    return new PartitaCallableStatement(this, sql, CallEscape.parse(sql));
  }

  @Override
  public Statement createStatement(int type, int concurrency) throws SQLException {
    checkResultSetType(type, concurrency, ResultSet.HOLD_CURSORS_OVER_COMMIT);
    return createStatement();
  }

  @Override
  public Statement createStatement(int type, int concurrency, int holdability) throws SQLException {
    checkResultSetType(type, concurrency, holdability);
    return createStatement();
  }

  @Override
  public PreparedStatement prepareStatement(String sql, int type, int concurrency) throws SQLException {
    checkResultSetType(type, concurrency, ResultSet.HOLD_CURSORS_OVER_COMMIT);
    return prepareStatement(sql);
  }

  @Override
  public PreparedStatement prepareStatement(String sql, int type, int concurrency, int holdability)
      throws SQLException {
    checkResultSetType(type, concurrency, holdability);
    return prepareStatement(sql);
  }

  @Override
  public CallableStatement prepareCall(String sql, int type, int concurrency) throws SQLException {
    checkResultSetType(type, concurrency, ResultSet.HOLD_CURSORS_OVER_COMMIT);
    return prepareCall(sql);
  }

  @Override
  public CallableStatement prepareCall(String sql, int type, int concurrency, int holdability) throws SQLException {
    checkResultSetType(type, concurrency, holdability);
    return prepareCall(sql);
  }

  @Override
  public PreparedStatement prepareStatement(String sql, int autoGeneratedKeys) throws SQLException {
    if (autoGeneratedKeys == Statement.RETURN_GENERATED_KEYS) {
      throw SqlStates.unsupported("RETURN_GENERATED_KEYS", "Partita has no generated keys");
    }
    return prepareStatement(sql);
  }

  @Override
  public PreparedStatement prepareStatement(String sql, int[] columnIndexes) throws SQLException {
    throw SqlStates.unsupported("generated keys", "Partita has no generated keys");
  }

  @Override
  public PreparedStatement prepareStatement(String sql, String[] columnNames) throws SQLException {
    throw SqlStates.unsupported("generated keys", "Partita has no generated keys");
  }

  /** Result sets are read-only and forward-only (the whole table is in memory; scrolling is not offered). */
  private void checkResultSetType(int type, int concurrency, int holdability) throws SQLException {
    checkOpen();
    if (type != ResultSet.TYPE_FORWARD_ONLY) {
      throw SqlStates.unsupported("result set type " + type, "result sets are TYPE_FORWARD_ONLY");
    }
    if (concurrency != ResultSet.CONCUR_READ_ONLY) {
      throw SqlStates.unsupported("result set concurrency " + concurrency, "result sets are CONCUR_READ_ONLY");
    }
    if (holdability != ResultSet.HOLD_CURSORS_OVER_COMMIT && holdability != ResultSet.CLOSE_CURSORS_AT_COMMIT) {
      throw new SQLException("unknown holdability " + holdability, SqlStates.INVALID_PARAMETER_VALUE);
    }
  }

  @Override
  public String nativeSQL(String sql) throws SQLException {
    checkOpen();
    return sql;
  }

  @Override
  public void setAutoCommit(boolean autoCommit) throws SQLException {
    checkOpen();
    if (!autoCommit) {
      throw SqlStates.autoCommitOnly("setAutoCommit(false)");
    }
  }

  @Override
  public boolean getAutoCommit() throws SQLException {
    checkOpen();
    return true;
  }

  /** Fails as JDBC asks in auto-commit mode: every statement has already committed. */
  @Override
  public void commit() throws SQLException {
    checkOpen();
    throw new SQLException("commit() in auto-commit mode: each statement committed when it returned (Partita is"
        + " auto-commit only)", SqlStates.INVALID_TRANSACTION_STATE);
  }

  /** Fails as JDBC asks in auto-commit mode: there is nothing to roll back. */
  @Override
  public void rollback() throws SQLException {
    checkOpen();
    throw new SQLException("rollback() in auto-commit mode: each statement committed when it returned (Partita is"
        + " auto-commit only; a procedure rolls back by aborting)", SqlStates.INVALID_TRANSACTION_STATE);
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    client.close();
  }

  @Override
  public boolean isClosed() {
    return closed;
  }

  @Override
  public DatabaseMetaData getMetaData() throws SQLException {
    checkOpen();
    return new PartitaDatabaseMetaData(this);
  }

  @Override
  public void setReadOnly(boolean readOnly) throws SQLException {
    checkOpen();
    this.readOnly = readOnly;
  }

  @Override
  public boolean isReadOnly() throws SQLException {
    checkOpen();
    return readOnly;
  }

  /** Partita has no catalogs: ignored, as JDBC allows. */
  @Override
  public void setCatalog(String catalog) throws SQLException {
    checkOpen();
  }

  @Override
  public String getCatalog() throws SQLException {
    checkOpen();
    return null;
  }

  /** Every transaction is serializable (each partition runs one at a time); other levels are refused. */
  @Override
  public void setTransactionIsolation(int level) throws SQLException {
    checkOpen();
    if (level != TRANSACTION_SERIALIZABLE) {
      throw SqlStates.unsupported("transaction isolation " + level, "every Partita transaction is serializable");
    }
  }

  @Override
  public int getTransactionIsolation() throws SQLException {
    checkOpen();
    return TRANSACTION_SERIALIZABLE;
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
  public Map<String, Class<?>> getTypeMap() throws SQLException {
    checkOpen();
    return Map.of();
  }

  @Override
  public void setTypeMap(Map<String, Class<?>> map) throws SQLException {
    throw SqlStates.unsupported("Connection.setTypeMap", "Partita has no user-defined types");
  }

  @Override
  public void setHoldability(int holdability) throws SQLException {
    checkResultSetType(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY, holdability);
  }

  @Override
  public int getHoldability() throws SQLException {
    checkOpen();
    return ResultSet.HOLD_CURSORS_OVER_COMMIT;
  }

  @Override
  public Savepoint setSavepoint() throws SQLException {
    throw SqlStates.autoCommitOnly("Connection.setSavepoint");
  }

  @Override
  public Savepoint setSavepoint(String name) throws SQLException {
    throw SqlStates.autoCommitOnly("Connection.setSavepoint");
  }

  @Override
  public void rollback(Savepoint savepoint) throws SQLException {
    throw SqlStates.autoCommitOnly("Connection.rollback(Savepoint)");
  }

  @Override
  public void releaseSavepoint(Savepoint savepoint) throws SQLException {
    throw SqlStates.autoCommitOnly("Connection.releaseSavepoint");
  }

  @Override
  public java.sql.Clob createClob() throws SQLException {
    throw SqlStates.unsupported("Connection.createClob");
  }

  @Override
  public java.sql.Blob createBlob() throws SQLException {
    throw SqlStates.unsupported("Connection.createBlob");
  }

  @Override
  public java.sql.NClob createNClob() throws SQLException {
    throw SqlStates.unsupported("Connection.createNClob");
  }

  @Override
  public java.sql.SQLXML createSQLXML() throws SQLException {
    throw SqlStates.unsupported("Connection.createSQLXML");
  }

  /**
   * Asks the server: true iff {@code @Ping} answers SUCCESS within
   * {@code timeout} seconds (0 = the connection's default call timeout).
   *
   * @throws SQLException 22023 for a negative timeout
   */
  @Override
  public boolean isValid(int timeout) throws SQLException {
    if (timeout < 0) {
      throw new SQLException("isValid timeout must be 0 or more seconds, got " + timeout,
          SqlStates.INVALID_PARAMETER_VALUE);
    }
    if (closed) {
      return false;
    }
    try {
      return call(timeout, PING).ok();
    } catch (SQLException e) {
      return false;
    }
  }

  @Override
  public void setClientInfo(String name, String value) throws SQLClientInfoException {
    throw new SQLClientInfoException("Partita keeps no client info properties (" + name + ")", Map.of());
  }

  @Override
  public void setClientInfo(Properties properties) throws SQLClientInfoException {
    if (!properties.isEmpty()) {
      throw new SQLClientInfoException("Partita keeps no client info properties", Map.of());
    }
  }

  @Override
  public String getClientInfo(String name) throws SQLException {
    checkOpen();
    return null;
  }

  @Override
  public Properties getClientInfo() throws SQLException {
    checkOpen();
    return new Properties();
  }

  @Override
  public java.sql.Array createArrayOf(String typeName, Object[] elements) throws SQLException {
    throw SqlStates.unsupported("Connection.createArrayOf", "Partita has no ARRAY type");
  }

  @Override
  public java.sql.Struct createStruct(String typeName, Object[] attributes) throws SQLException {
    throw SqlStates.unsupported("Connection.createStruct", "Partita has no STRUCT type");
  }

  /** Partita has no schemas: ignored, as JDBC allows. */
  @Override
  public void setSchema(String schema) throws SQLException {
    checkOpen();
  }

  @Override
  public String getSchema() throws SQLException {
    checkOpen();
    return null;
  }

  /** Closes the connection at once: calls in flight fail with a lost connection. */
  @Override
  public void abort(Executor executor) throws SQLException {
    if (executor == null) {
      throw new SQLException("abort needs an executor", SqlStates.INVALID_PARAMETER_VALUE);
    }
    executor.execute(this::close);
  }

  /** The timeout of calls whose statement sets no query timeout; 0 = the client's call timeout. */
  @Override
  public void setNetworkTimeout(Executor executor, int milliseconds) throws SQLException {
    checkOpen();
    if (milliseconds < 0) {
      throw new SQLException("network timeout must be 0 or more milliseconds, got " + milliseconds,
          SqlStates.INVALID_PARAMETER_VALUE);
    }
    networkTimeoutMillis = milliseconds;
  }

  @Override
  public int getNetworkTimeout() throws SQLException {
    checkOpen();
    return networkTimeoutMillis;
  }

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    return iface.isInstance(client) ? iface.cast(client) : Wrappers.unwrap(this, iface);
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) {
    return iface.isInstance(this) || iface.isInstance(client);
  }
}
