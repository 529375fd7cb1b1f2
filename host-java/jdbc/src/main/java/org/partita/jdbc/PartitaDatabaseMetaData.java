package org.partita.jdbc;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.RowIdLifetime;
import java.sql.SQLException;
import org.partita.client.ResultTable;

/**
 * What the driver tells tools about Partita: tables, views, columns,
 * primary keys and procedures read from {@code @SystemCatalog} at each
 * call, and the fixed facts of the product (auto-commit only, serializable,
 * forward-only read-only result sets, batches). Name patterns ignore case.
 * Partita has no catalogs or schemas. Questions about features Partita does
 * not have (outer joins beyond LEFT, stored functions, foreign keys, ...)
 * answer false; metadata tables the driver does not build throw
 * SQLFeatureNotSupportedException.
 *
 * <p>Thread model: immutable; each call asks the server again.
 */
final class PartitaDatabaseMetaData extends DatabaseMetaDataDefaults {
  private final PartitaConnection connection;
  private final MetadataTables tables;

  PartitaDatabaseMetaData(PartitaConnection connection) {
    this.connection = connection;
    this.tables = new MetadataTables(connection);
  }

  private static ResultSet resultSet(ResultTable table) {
    return new PartitaResultSet(null, table, 0);
  }

  // ---- metadata tables ----

  @Override
  public ResultSet getTables(String catalog, String schemaPattern, String tableNamePattern, String[] types)
      throws SQLException {
    return resultSet(tables.tables(tableNamePattern, types));
  }

  @Override
  public ResultSet getColumns(String catalog, String schemaPattern, String tableNamePattern,
      String columnNamePattern) throws SQLException {
    return resultSet(tables.columns(tableNamePattern, columnNamePattern));
  }

  @Override
  public ResultSet getProcedures(String catalog, String schemaPattern, String procedureNamePattern)
      throws SQLException {
    return resultSet(tables.procedures(procedureNamePattern));
  }

  @Override
  public ResultSet getPrimaryKeys(String catalog, String schema, String table) throws SQLException {
    return resultSet(tables.primaryKeys(table));
  }

  @Override
  public ResultSet getTableTypes() {
    return resultSet(MetadataTables.tableTypeTable());
  }

  @Override
  public ResultSet getCatalogs() {
    return resultSet(MetadataTables.empty("TABLE_CAT"));
  }

  @Override
  public ResultSet getSchemas() {
    return resultSet(MetadataTables.empty("TABLE_SCHEM", "TABLE_CATALOG"));
  }

  @Override
  public ResultSet getSchemas(String catalog, String schemaPattern) {
    return getSchemas();
  }

  // ---- the product ----

  @Override
  public String getDatabaseProductName() {
    return "Partita";
  }

  @Override
  public String getDatabaseProductVersion() throws SQLException {
    final ResultTable hosts = connection.call(0, "@SystemCatalog", "HOSTS").results().get(0);
    hosts.resetRowPosition();
    return hosts.advanceRow() ? hosts.getString("SERVER_VERSION") : "";
  }

  @Override
  public String getDriverName() {
    return "Partita JDBC driver";
  }

  @Override
  public String getDriverVersion() {
    return PartitaDriver.MAJOR_VERSION + "." + PartitaDriver.MINOR_VERSION;
  }

  @Override
  public int getDriverMajorVersion() {
    return PartitaDriver.MAJOR_VERSION;
  }

  @Override
  public int getDriverMinorVersion() {
    return PartitaDriver.MINOR_VERSION;
  }

  @Override
  public int getDatabaseMajorVersion() {
    return PartitaDriver.MAJOR_VERSION;
  }

  @Override
  public int getDatabaseMinorVersion() {
    return PartitaDriver.MINOR_VERSION;
  }

  @Override
  public int getJDBCMajorVersion() {
    return 4;
  }

  @Override
  public int getJDBCMinorVersion() {
    return 3;
  }

  @Override
  public String getURL() {
    return connection.url().url();
  }

  @Override
  public String getUserName() {
    return "";
  }

  @Override
  public Connection getConnection() {
    return connection;
  }

  @Override
  public boolean isReadOnly() throws SQLException {
    return connection.isReadOnly();
  }

  @Override
  public String getIdentifierQuoteString() {
    return "\"";
  }

  @Override
  public String getSearchStringEscape() {
    return "\\";
  }

  @Override
  public String getExtraNameCharacters() {
    return "";
  }

  @Override
  public String getSQLKeywords() {
    return "PARTITION";
  }

  @Override
  public String getNumericFunctions() {
    return "ABS,MOD";
  }

  @Override
  public String getStringFunctions() {
    return "CHAR_LENGTH,CONCAT,LENGTH,LOWER,LTRIM,OCTET_LENGTH,RTRIM,SUBSTRING,TRIM,UPPER";
  }

  @Override
  public String getSystemFunctions() {
    return "COALESCE,IFNULL,NULLIF";
  }

  @Override
  public String getTimeDateFunctions() {
    return "CURRENT_TIMESTAMP,EXTRACT,NOW,SINCE_EPOCH,TO_TIMESTAMP,TRUNCATE";
  }

  @Override
  public String getSchemaTerm() {
    return "schema";
  }

  @Override
  public String getProcedureTerm() {
    return "procedure";
  }

  @Override
  public String getCatalogTerm() {
    return "catalog";
  }

  @Override
  public String getCatalogSeparator() {
    return ".";
  }

  @Override
  public boolean isCatalogAtStart() {
    return true;
  }

  // ---- transactions ----

  @Override
  public boolean supportsTransactions() {
    return true;
  }

  @Override
  public int getDefaultTransactionIsolation() {
    return Connection.TRANSACTION_SERIALIZABLE;
  }

  @Override
  public boolean supportsTransactionIsolationLevel(int level) {
    return level == Connection.TRANSACTION_SERIALIZABLE;
  }

  @Override
  public boolean autoCommitFailureClosesAllResultSets() {
    return false;
  }

  @Override
  public int getResultSetHoldability() {
    return ResultSet.HOLD_CURSORS_OVER_COMMIT;
  }

  @Override
  public boolean supportsResultSetHoldability(int holdability) {
    return holdability == ResultSet.HOLD_CURSORS_OVER_COMMIT;
  }

  @Override
  public int getSQLStateType() {
    return sqlStateSQL;
  }

  @Override
  public RowIdLifetime getRowIdLifetime() {
    return RowIdLifetime.ROWID_UNSUPPORTED;
  }

  // ---- what Partita does ----

  @Override
  public boolean supportsResultSetType(int type) {
    return type == ResultSet.TYPE_FORWARD_ONLY;
  }

  @Override
  public boolean supportsResultSetConcurrency(int type, int concurrency) {
    return type == ResultSet.TYPE_FORWARD_ONLY && concurrency == ResultSet.CONCUR_READ_ONLY;
  }

  @Override
  public boolean supportsBatchUpdates() {
    return true;
  }

  @Override
  public boolean supportsStoredProcedures() {
    return true;
  }

  @Override
  public boolean supportsMultipleResultSets() {
    return true;
  }

  @Override
  public boolean supportsGroupBy() {
    return true;
  }

  @Override
  public boolean supportsGroupByUnrelated() {
    return true;
  }

  @Override
  public boolean supportsOrderByUnrelated() {
    return true;
  }

  @Override
  public boolean supportsLikeEscapeClause() {
    return true;
  }

  @Override
  public boolean supportsMinimumSQLGrammar() {
    return true;
  }

  @Override
  public boolean supportsColumnAliasing() {
    return true;
  }

  @Override
  public boolean supportsLimitedOuterJoins() {
    return true;
  }

  @Override
  public boolean supportsNonNullableColumns() {
    return true;
  }

  @Override
  public boolean supportsTableCorrelationNames() {
    return true;
  }

  @Override
  public boolean supportsExpressionsInOrderBy() {
    return true;
  }

  @Override
  public boolean nullPlusNonNullIsNull() {
    return true;
  }

  @Override
  public boolean storesUpperCaseIdentifiers() {
    return true;
  }

  @Override
  public boolean storesMixedCaseQuotedIdentifiers() {
    return true;
  }

  @Override
  public boolean supportsMixedCaseQuotedIdentifiers() {
    return true;
  }

  @Override
  public boolean allTablesAreSelectable() {
    return true;
  }

  @Override
  public boolean allProceduresAreCallable() {
    return true;
  }

  @Override
  public boolean supportsSubqueriesInIns() {
    return true;
  }

  @Override
  public boolean supportsUnion() {
    return true;
  }

  @Override
  public boolean supportsUnionAll() {
    return true;
  }

  @Override
  public boolean dataDefinitionCausesTransactionCommit() {
    return true;
  }

  @Override
  public boolean nullsAreSortedLow() {
    return true;
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
