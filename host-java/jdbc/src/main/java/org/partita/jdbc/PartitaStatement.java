package org.partita.jdbc;

import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.partita.client.ClientResponse;
import org.partita.client.PartitaClientException;
import org.partita.client.ResultTable;
import org.partita.client.ValueType;

/**
 * A statement: each execute sends one call ({@code @AdHoc} with the SQL, or
 * a procedure) and waits for its answer, which is one transaction. The
 * answer's result tables are the statement's results, in order
 * ({@link #getMoreResults()} moves to the next); a DML statement's answer is
 * its update count. {@link #executeBatch()} sends every entry before waiting
 * for any answer (pipelined); each entry is its own transaction.
 *
 * <p>Thread model: not thread-safe, as JDBC statements are used.
 */
public class PartitaStatement implements Statement {
  private static final int NO_COUNT = -1;

  final PartitaConnection connection;
  private final List<BatchCall> batch = new ArrayList<>();
  private List<ResultTable> tables = List.of();
  private int tableIndex;
  private long updateCount = NO_COUNT;
  private PartitaResultSet resultSet;
  private int queryTimeoutSeconds;
  private long maxRows;
  private int fetchSize;
  private boolean closed;
  private boolean closeOnCompletion;
  private boolean poolable;

  PartitaStatement(PartitaConnection connection) {
    this.connection = connection;
  }

  // ---- running ----

  /** Runs {@code sql} through {@code @AdHoc} with {@code values}; the results become this statement's. */
  final void runSql(String sql, Object[] values) throws SQLException {
    final Object[] parameters = BatchCall.adHoc(sql, values).parameters();
    final ClientResponse response = send(BatchCall.AD_HOC, parameters);
    final long count = rowCount(sql, response);
    setResults(count == NO_COUNT ? response.results() : List.of(), count);
  }

  /** Calls {@code procedure}; its result tables become this statement's results. */
  final void runProcedure(String procedure, Object[] parameters) throws SQLException {
    final ClientResponse response = send(procedure, parameters);
    setResults(response.results(), response.results().isEmpty() ? 0 : NO_COUNT);
  }

  private ClientResponse send(String procedure, Object[] parameters) throws SQLException {
    checkOpen();
    closeResults();
    return connection.call(queryTimeoutSeconds, procedure, parameters);
  }

  /** The update count of an {@code @AdHoc} answer: DML's count, 0 for DDL (no table), NO_COUNT for rows. */
  private static long rowCount(String sql, ClientResponse response) {
    if (response.results().isEmpty()) {
      return 0;
    }
    final ResultTable t = response.results().get(0);
    if (SqlText.isDml(sql) && response.results().size() == 1 && t.columnCount() == 1 && t.rowCount() == 1
        && t.columnType(0) == ValueType.BIGINT) {
      t.resetRowPosition();
      t.advanceRow();
      final long count = t.getLong(0);
      t.resetRowPosition();
      return count;
    }
    return NO_COUNT;
  }

  private void setResults(List<ResultTable> results, long count) {
    tables = results;
    tableIndex = 0;
    updateCount = count;
    resultSet = results.isEmpty() ? null : new PartitaResultSet(this, results.get(0), maxRows);
  }

  final ResultSet singleResultSet(String method) throws SQLException {
    if (resultSet == null) {
      throw new SQLException(method + ": the statement returned no rows (an update count of " + updateCount
          + "); use executeUpdate or execute", SqlStates.NOT_A_QUERY);
    }
    return resultSet;
  }

  final long singleUpdateCount(String method) throws SQLException {
    if (resultSet != null) {
      closeResults();
      throw new SQLException(method + ": the statement returned rows; use executeQuery or execute",
          SqlStates.NOT_A_QUERY);
    }
    return updateCount;
  }

  @Override
  public ResultSet executeQuery(String sql) throws SQLException {
    runText(sql);
    return singleResultSet("executeQuery");
  }

  @Override
  public int executeUpdate(String sql) throws SQLException {
    return (int) executeLargeUpdate(sql);
  }

  @Override
  public long executeLargeUpdate(String sql) throws SQLException {
    runText(sql);
    return singleUpdateCount("executeUpdate");
  }

  @Override
  public boolean execute(String sql) throws SQLException {
    runText(sql);
    return resultSet != null;
  }

  /** Runs the text of a plain statement: a call with literal arguments ({call Results}) or SQL. */
  private void runText(String sql) throws SQLException {
    final BatchCall call = textCall(sql);
    if (call.sql() == null) {
      runProcedure(call.procedure(), call.parameters());
    } else {
      runSql(sql, new Object[0]);
    }
  }

  /**
   * The call a plain statement's text makes.
   *
   * @throws SQLException for an empty text, or one with {@code ?} placeholders (they need a PreparedStatement)
   */
  private BatchCall textCall(String sql) throws SQLException {
    checkOpen();
    if (sql == null || sql.isBlank()) {
      throw new SQLException("the SQL text is empty", SqlStates.SYNTAX_ERROR);
    }
    final boolean isCall = CallEscape.isCall(sql);
    final CallEscape call = isCall ? CallEscape.parse(sql) : null;
    final int placeholders = isCall ? call.placeholders() : SqlText.placeholders(sql);
    if (placeholders > 0) {
      throw new SQLException("'" + sql.strip() + "' has " + placeholders + " ? placeholder(s); use "
          + (isCall ? "Connection.prepareCall" : "a PreparedStatement"), SqlStates.WRONG_PARAMETER_COUNT);
    }
    return isCall ? BatchCall.procedure(call.procedure(), call.bind(new Object[0]))
        : BatchCall.adHoc(sql, new Object[0]);
  }

  // ---- batches ----

  @Override
  public void addBatch(String sql) throws SQLException {
    batch.add(textCall(sql));
  }

  final void addBatchCall(BatchCall call) {
    batch.add(call);
  }

  @Override
  public void clearBatch() throws SQLException {
    checkOpen();
    batch.clear();
  }

  @Override
  public int[] executeBatch() throws SQLException {
    final long[] counts = executeLargeBatch();
    final int[] out = new int[counts.length];
    for (int i = 0; i < counts.length; i++) {
      out[i] = (int) Math.min(Integer.MAX_VALUE, counts[i]);
    }
    return out;
  }

  /**
   * Sends every entry, then waits for every answer. Each count is the
   * entry's update count (SQL DML), 0 (DDL), SUCCESS_NO_INFO (a procedure)
   * or EXECUTE_FAILED; when any failed, a BatchUpdateException carries
   * every count and the first failure's message and SQLState, the later
   * failures chained as its next exceptions.
   */
  @Override
  public long[] executeLargeBatch() throws SQLException {
    checkOpen();
    closeResults();
    final List<BatchCall> calls = new ArrayList<>(batch);
    batch.clear();
    final List<CompletableFuture<ClientResponse>> answers = new ArrayList<>(calls.size());
    for (BatchCall call : calls) {
      answers.add(connection.callAsync(queryTimeoutSeconds, call.procedure(), call.parameters()));
    }
    final long[] counts = new long[calls.size()];
    final List<SQLException> failures = new ArrayList<>();
    for (int i = 0; i < counts.length; i++) {
      try {
        counts[i] = batchCount(calls.get(i), await(calls.get(i), answers.get(i)));
      } catch (SQLException e) {
        counts[i] = EXECUTE_FAILED;
        failures.add(new SQLException("batch entry " + (i + 1) + ": " + e.getMessage(), e.getSQLState(),
            e.getErrorCode(), e));
      }
    }
    if (!failures.isEmpty()) {
      final SQLException first = failures.get(0);
      final BatchUpdateException e = new BatchUpdateException(first.getMessage(), first.getSQLState(),
          first.getErrorCode(), counts, first.getCause());
      failures.subList(1, failures.size()).forEach(e::setNextException);
      throw e;
    }
    return counts;
  }

  private static ClientResponse await(BatchCall call, CompletableFuture<ClientResponse> answer) throws SQLException {
    try {
      return answer.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SQLException(call.procedure() + ": interrupted while waiting for the answer", SqlStates.GENERAL, e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof PartitaClientException p) {
        throw SqlStates.fromClient(call.procedure(), p);
      }
      throw new SQLException(call.procedure() + ": " + e.getCause(), SqlStates.GENERAL, e.getCause());
    }
  }

  private static long batchCount(BatchCall call, ClientResponse response) throws SQLException {
    if (!response.ok()) {
      throw SqlStates.fromResponse(call.procedure(), response);
    }
    if (call.sql() == null) {
      return SUCCESS_NO_INFO;
    }
    final long count = rowCount(call.sql(), response);
    if (count == NO_COUNT) {
      throw new SQLException("'" + call.sql().strip() + "' returned rows; a batch holds updates only",
          SqlStates.NOT_A_QUERY);
    }
    return count;
  }

  // ---- results ----

  @Override
  public ResultSet getResultSet() throws SQLException {
    checkOpen();
    return resultSet;
  }

  @Override
  public int getUpdateCount() throws SQLException {
    return (int) getLargeUpdateCount();
  }

  @Override
  public long getLargeUpdateCount() throws SQLException {
    checkOpen();
    return resultSet == null ? updateCount : NO_COUNT;
  }

  @Override
  public boolean getMoreResults() throws SQLException {
    return getMoreResults(CLOSE_CURRENT_RESULT);
  }

  /** Moves to the next result table of the answer; earlier result sets are closed whatever {@code current} asks. */
  @Override
  public boolean getMoreResults(int current) throws SQLException {
    checkOpen();
    closeResultSet();
    updateCount = NO_COUNT;
    tableIndex++;
    if (tableIndex < tables.size()) {
      resultSet = new PartitaResultSet(this, tables.get(tableIndex), maxRows);
      return true;
    }
    return false;
  }

  /** Closes the current result set (not the statement). */
  private void closeResultSet() {
    if (resultSet != null) {
      resultSet.closeFromStatement();
      resultSet = null;
    }
  }

  private void closeResults() {
    closeResultSet();
    tables = List.of();
    updateCount = NO_COUNT;
  }

  /** Called by a result set of this statement when it closes. */
  final void resultSetClosed(PartitaResultSet rs) throws SQLException {
    if (rs == resultSet) {
      resultSet = null;
    }
    if (closeOnCompletion && resultSet == null) {
      close();
    }
  }

  // ---- settings ----

  @Override
  public int getQueryTimeout() throws SQLException {
    checkOpen();
    return queryTimeoutSeconds;
  }

  /** The timeout of each call of this statement, in seconds; 0 = the connection's. */
  @Override
  public void setQueryTimeout(int seconds) throws SQLException {
    checkOpen();
    if (seconds < 0) {
      throw new SQLException("query timeout must be 0 or more seconds, got " + seconds,
          SqlStates.INVALID_PARAMETER_VALUE);
    }
    queryTimeoutSeconds = seconds;
  }

  @Override
  public int getMaxRows() throws SQLException {
    return (int) getLargeMaxRows();
  }

  @Override
  public long getLargeMaxRows() throws SQLException {
    checkOpen();
    return maxRows;
  }

  @Override
  public void setMaxRows(int max) throws SQLException {
    setLargeMaxRows(max);
  }

  /** Result sets show at most {@code max} rows (0 = all); the server still sends them all. */
  @Override
  public void setLargeMaxRows(long max) throws SQLException {
    checkOpen();
    if (max < 0) {
      throw new SQLException("max rows must be 0 or more, got " + max, SqlStates.INVALID_PARAMETER_VALUE);
    }
    maxRows = max;
  }

  @Override
  public int getMaxFieldSize() throws SQLException {
    checkOpen();
    return 0;
  }

  @Override
  public void setMaxFieldSize(int max) throws SQLException {
    throw SqlStates.unsupported("Statement.setMaxFieldSize", "values are never cut");
  }

  /** Escapes are not rewritten: procedure calls go through prepareCall; the setting is kept. */
  @Override
  public void setEscapeProcessing(boolean enable) throws SQLException {
    checkOpen();
  }

  @Override
  public void cancel() throws SQLException {
    throw SqlStates.unsupported("Statement.cancel", "a call cannot be cancelled once sent; set a query timeout");
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
  public void setCursorName(String name) throws SQLException {
    throw SqlStates.unsupported("Statement.setCursorName", "Partita has no positioned updates");
  }

  /** Rows arrive whole in one answer: the fetch direction and size are hints with no effect. */
  @Override
  public void setFetchDirection(int direction) throws SQLException {
    checkOpen();
    if (direction != ResultSet.FETCH_FORWARD) {
      throw SqlStates.unsupported("fetch direction " + direction, "result sets are forward-only");
    }
  }

  @Override
  public int getFetchDirection() throws SQLException {
    checkOpen();
    return ResultSet.FETCH_FORWARD;
  }

  @Override
  public void setFetchSize(int rows) throws SQLException {
    checkOpen();
    if (rows < 0) {
      throw new SQLException("fetch size must be 0 or more, got " + rows, SqlStates.INVALID_PARAMETER_VALUE);
    }
    fetchSize = rows;
  }

  @Override
  public int getFetchSize() throws SQLException {
    checkOpen();
    return fetchSize;
  }

  @Override
  public int getResultSetConcurrency() throws SQLException {
    checkOpen();
    return ResultSet.CONCUR_READ_ONLY;
  }

  @Override
  public int getResultSetType() throws SQLException {
    checkOpen();
    return ResultSet.TYPE_FORWARD_ONLY;
  }

  @Override
  public int getResultSetHoldability() throws SQLException {
    checkOpen();
    return ResultSet.HOLD_CURSORS_OVER_COMMIT;
  }

  @Override
  public Connection getConnection() throws SQLException {
    checkOpen();
    return connection;
  }

  @Override
  public ResultSet getGeneratedKeys() throws SQLException {
    throw SqlStates.unsupported("Statement.getGeneratedKeys", "Partita has no generated keys");
  }

  @Override
  public int executeUpdate(String sql, int autoGeneratedKeys) throws SQLException {
    noGeneratedKeys(autoGeneratedKeys);
    return executeUpdate(sql);
  }

  @Override
  public int executeUpdate(String sql, int[] columnIndexes) throws SQLException {
    throw SqlStates.unsupported("Statement.getGeneratedKeys", "Partita has no generated keys");
  }

  @Override
  public int executeUpdate(String sql, String[] columnNames) throws SQLException {
    throw SqlStates.unsupported("Statement.getGeneratedKeys", "Partita has no generated keys");
  }

  @Override
  public boolean execute(String sql, int autoGeneratedKeys) throws SQLException {
    noGeneratedKeys(autoGeneratedKeys);
    return execute(sql);
  }

  @Override
  public boolean execute(String sql, int[] columnIndexes) throws SQLException {
    throw SqlStates.unsupported("Statement.getGeneratedKeys", "Partita has no generated keys");
  }

  @Override
  public boolean execute(String sql, String[] columnNames) throws SQLException {
    throw SqlStates.unsupported("Statement.getGeneratedKeys", "Partita has no generated keys");
  }

  private static void noGeneratedKeys(int autoGeneratedKeys) throws SQLException {
    if (autoGeneratedKeys == RETURN_GENERATED_KEYS) {
      throw SqlStates.unsupported("RETURN_GENERATED_KEYS", "Partita has no generated keys");
    }
  }

  // ---- lifecycle ----

  final void checkOpen() throws SQLException {
    if (closed) {
      throw new SQLException("the statement is closed", SqlStates.FUNCTION_SEQUENCE);
    }
    connection.checkOpen();
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    closeResultSet();
    batch.clear();
  }

  @Override
  public boolean isClosed() {
    return closed || connection.isClosed();
  }

  @Override
  public void setPoolable(boolean poolable) throws SQLException {
    checkOpen();
    this.poolable = poolable;
  }

  @Override
  public boolean isPoolable() throws SQLException {
    checkOpen();
    return poolable;
  }

  @Override
  public void closeOnCompletion() throws SQLException {
    checkOpen();
    closeOnCompletion = true;
  }

  @Override
  public boolean isCloseOnCompletion() throws SQLException {
    checkOpen();
    return closeOnCompletion;
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
