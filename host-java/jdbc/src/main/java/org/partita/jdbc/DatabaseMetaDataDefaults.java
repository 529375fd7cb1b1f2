package org.partita.jdbc;

import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The DatabaseMetaData answers for what Partita does not have or does not
 * describe: questions about such features answer false, limits answer 0
 * (JDBC's "no limit or unknown"), and metadata tables the driver does not
 * build (index info, keys between tables, types, functions, privileges, ...)
 * fail with SQLFeatureNotSupportedException. {@link PartitaDatabaseMetaData}
 * extends it with what Partita has. Stateless.
 */
abstract class DatabaseMetaDataDefaults implements DatabaseMetaData {
@Override
  public boolean nullsAreSortedHigh() throws SQLException {
    return false;
  }


  @Override
  public boolean nullsAreSortedAtStart() throws SQLException {
    return false;
  }


  @Override
  public boolean nullsAreSortedAtEnd() throws SQLException {
    return false;
  }


  @Override
  public boolean usesLocalFiles() throws SQLException {
    return false;
  }


  @Override
  public boolean usesLocalFilePerTable() throws SQLException {
    return false;
  }


  @Override
  public boolean supportsMixedCaseIdentifiers() throws SQLException {
    return false;
  }


  @Override
  public boolean storesLowerCaseIdentifiers() throws SQLException {
    return false;
  }


  @Override
  public boolean storesMixedCaseIdentifiers() throws SQLException {
    return false;
  }


  @Override
  public boolean storesUpperCaseQuotedIdentifiers() throws SQLException {
    return false;
  }


  @Override
  public boolean storesLowerCaseQuotedIdentifiers() throws SQLException {
    return false;
  }


  @Override
  public boolean supportsAlterTableWithAddColumn() throws SQLException {
    return false;
  }


  @Override
  public boolean supportsAlterTableWithDropColumn() throws SQLException {
    return false;
  }


  @Override
  public boolean supportsConvert() throws SQLException {
    return false;
  }


  @Override
  public boolean supportsConvert(int fromType, int toType) throws SQLException {
    return false;
  }


  @Override
  public boolean supportsDifferentTableCorrelationNames() throws SQLException {
    return false;
  }


  @Override
  public boolean supportsGroupByBeyondSelect() throws SQLException {
    return false;
  }


  @Override
  public boolean supportsMultipleTransactions() throws SQLException {
    return true;
  }


  @Override
  public boolean supportsCoreSQLGrammar() throws SQLException {
    return false;
  }


  @Override
  public boolean supportsExtendedSQLGrammar() throws SQLException {
    return false;
  }


  @Override
  public boolean supportsANSI92EntryLevelSQL() throws SQLException {
    return false;
  }


  @Override
  public boolean supportsANSI92IntermediateSQL() throws SQLException {
    return false;
  }


  @Override
  public boolean supportsANSI92FullSQL() throws SQLException {
    return false;
  }


  @Override
  public boolean supportsIntegrityEnhancementFacility() throws SQLException {
    return false;
  }


  @Override
  public boolean supportsOuterJoins() throws SQLException {
    return true;
  }


  @Override
  public boolean supportsFullOuterJoins() throws SQLException {
    return false;
  }


  @Override
  public boolean supportsSchemasInDataManipulation() throws SQLException {
    return false;
  }


  @Override
  public boolean supportsSchemasInProcedureCalls() throws SQLException {
    return false;
  }


  @Override
  public boolean supportsSchemasInTableDefinitions() throws SQLException {
    return false;
  }


  @Override
  public boolean supportsSchemasInIndexDefinitions() throws SQLException {
    return false;
  }


  @Override
  public boolean supportsSchemasInPrivilegeDefinitions() throws SQLException {
    return false;
  }


  @Override
  public boolean supportsCatalogsInDataManipulation() throws SQLException {
    return false;
  }


  @Override
  public boolean supportsCatalogsInProcedureCalls() throws SQLException {
    return false;
  }


  @Override
  public boolean supportsCatalogsInTableDefinitions() throws SQLException {
    return false;
  }


  @Override
  public boolean supportsCatalogsInIndexDefinitions() throws SQLException {
    return false;
  }


  @Override
  public boolean supportsCatalogsInPrivilegeDefinitions() throws SQLException {
    return false;
  }


  @Override
  public boolean supportsPositionedDelete() throws SQLException {
    return false;
  }


  @Override
  public boolean supportsPositionedUpdate() throws SQLException {
    return false;
  }


  @Override
  public boolean supportsSelectForUpdate() throws SQLException {
    return false;
  }


  @Override
  public boolean supportsSubqueriesInComparisons() throws SQLException {
    return true;
  }


  @Override
  public boolean supportsSubqueriesInExists() throws SQLException {
    return true;
  }


  @Override
  public boolean supportsSubqueriesInQuantifieds() throws SQLException {
    return false;
  }


  @Override
  public boolean supportsCorrelatedSubqueries() throws SQLException {
    return true;
  }


  @Override
  public boolean supportsOpenCursorsAcrossCommit() throws SQLException {
    return false;
  }


  @Override
  public boolean supportsOpenCursorsAcrossRollback() throws SQLException {
    return false;
  }


  @Override
  public boolean supportsOpenStatementsAcrossCommit() throws SQLException {
    return false;
  }


  @Override
  public boolean supportsOpenStatementsAcrossRollback() throws SQLException {
    return false;
  }


  @Override
  public int getMaxBinaryLiteralLength() throws SQLException {
    return 0;
  }


  @Override
  public int getMaxCharLiteralLength() throws SQLException {
    return 0;
  }


  @Override
  public int getMaxColumnNameLength() throws SQLException {
    return 0;
  }


  @Override
  public int getMaxColumnsInGroupBy() throws SQLException {
    return 0;
  }


  @Override
  public int getMaxColumnsInIndex() throws SQLException {
    return 0;
  }


  @Override
  public int getMaxColumnsInOrderBy() throws SQLException {
    return 0;
  }


  @Override
  public int getMaxColumnsInSelect() throws SQLException {
    return 0;
  }


  @Override
  public int getMaxColumnsInTable() throws SQLException {
    return 0;
  }


  @Override
  public int getMaxConnections() throws SQLException {
    return 0;
  }


  @Override
  public int getMaxCursorNameLength() throws SQLException {
    return 0;
  }


  @Override
  public int getMaxIndexLength() throws SQLException {
    return 0;
  }


  @Override
  public int getMaxSchemaNameLength() throws SQLException {
    return 0;
  }


  @Override
  public int getMaxProcedureNameLength() throws SQLException {
    return 0;
  }


  @Override
  public int getMaxCatalogNameLength() throws SQLException {
    return 0;
  }


  @Override
  public int getMaxRowSize() throws SQLException {
    return 0;
  }


  @Override
  public boolean doesMaxRowSizeIncludeBlobs() throws SQLException {
    return false;
  }


  @Override
  public int getMaxStatementLength() throws SQLException {
    return 0;
  }


  @Override
  public int getMaxStatements() throws SQLException {
    return 0;
  }


  @Override
  public int getMaxTableNameLength() throws SQLException {
    return 0;
  }


  @Override
  public int getMaxTablesInSelect() throws SQLException {
    return 0;
  }


  @Override
  public int getMaxUserNameLength() throws SQLException {
    return 0;
  }


  @Override
  public boolean supportsDataDefinitionAndDataManipulationTransactions() throws SQLException {
    return false;
  }


  @Override
  public boolean supportsDataManipulationTransactionsOnly() throws SQLException {
    return false;
  }


  @Override
  public boolean dataDefinitionIgnoredInTransactions() throws SQLException {
    return false;
  }


  @Override
  public ResultSet getProcedureColumns(String catalog, String schemaPattern, String procedureNamePattern, String columnNamePattern) throws SQLException {
    throw SqlStates.unsupported("DatabaseMetaData.getProcedureColumns");
  }


  @Override
  public ResultSet getColumnPrivileges(String catalog, String schema, String table, String columnNamePattern) throws SQLException {
    throw SqlStates.unsupported("DatabaseMetaData.getColumnPrivileges");
  }


  @Override
  public ResultSet getTablePrivileges(String catalog, String schemaPattern, String tableNamePattern) throws SQLException {
    throw SqlStates.unsupported("DatabaseMetaData.getTablePrivileges");
  }


  @Override
  public ResultSet getBestRowIdentifier(String catalog, String schema, String table, int scope, boolean nullable) throws SQLException {
    throw SqlStates.unsupported("DatabaseMetaData.getBestRowIdentifier");
  }


  @Override
  public ResultSet getVersionColumns(String catalog, String schema, String table) throws SQLException {
    throw SqlStates.unsupported("DatabaseMetaData.getVersionColumns");
  }


  @Override
  public ResultSet getImportedKeys(String catalog, String schema, String table) throws SQLException {
    throw SqlStates.unsupported("DatabaseMetaData.getImportedKeys");
  }


  @Override
  public ResultSet getExportedKeys(String catalog, String schema, String table) throws SQLException {
    throw SqlStates.unsupported("DatabaseMetaData.getExportedKeys");
  }


  @Override
  public ResultSet getCrossReference(String parentCatalog, String parentSchema, String parentTable, String foreignCatalog, String foreignSchema, String foreignTable) throws SQLException {
    throw SqlStates.unsupported("DatabaseMetaData.getCrossReference");
  }


  @Override
  public ResultSet getTypeInfo() throws SQLException {
    throw SqlStates.unsupported("DatabaseMetaData.getTypeInfo");
  }


  @Override
  public ResultSet getIndexInfo(String catalog, String schema, String table, boolean unique, boolean approximate) throws SQLException {
    throw SqlStates.unsupported("DatabaseMetaData.getIndexInfo");
  }


  @Override
  public boolean ownUpdatesAreVisible(int type) throws SQLException {
    return false;
  }


  @Override
  public boolean ownDeletesAreVisible(int type) throws SQLException {
    return false;
  }


  @Override
  public boolean ownInsertsAreVisible(int type) throws SQLException {
    return false;
  }


  @Override
  public boolean othersUpdatesAreVisible(int type) throws SQLException {
    return false;
  }


  @Override
  public boolean othersDeletesAreVisible(int type) throws SQLException {
    return false;
  }


  @Override
  public boolean othersInsertsAreVisible(int type) throws SQLException {
    return false;
  }


  @Override
  public boolean updatesAreDetected(int type) throws SQLException {
    return false;
  }


  @Override
  public boolean deletesAreDetected(int type) throws SQLException {
    return false;
  }


  @Override
  public boolean insertsAreDetected(int type) throws SQLException {
    return false;
  }


  @Override
  public ResultSet getUDTs(String catalog, String schemaPattern, String typeNamePattern, int[] types) throws SQLException {
    throw SqlStates.unsupported("DatabaseMetaData.getUDTs");
  }


  @Override
  public boolean supportsSavepoints() throws SQLException {
    return false;
  }


  @Override
  public boolean supportsNamedParameters() throws SQLException {
    return false;
  }


  @Override
  public boolean supportsMultipleOpenResults() throws SQLException {
    return false;
  }


  @Override
  public boolean supportsGetGeneratedKeys() throws SQLException {
    return false;
  }


  @Override
  public ResultSet getSuperTypes(String catalog, String schemaPattern, String typeNamePattern) throws SQLException {
    throw SqlStates.unsupported("DatabaseMetaData.getSuperTypes");
  }


  @Override
  public ResultSet getSuperTables(String catalog, String schemaPattern, String tableNamePattern) throws SQLException {
    throw SqlStates.unsupported("DatabaseMetaData.getSuperTables");
  }


  @Override
  public ResultSet getAttributes(String catalog, String schemaPattern, String typeNamePattern, String attributeNamePattern) throws SQLException {
    throw SqlStates.unsupported("DatabaseMetaData.getAttributes");
  }


  @Override
  public boolean locatorsUpdateCopy() throws SQLException {
    return false;
  }


  @Override
  public boolean supportsStatementPooling() throws SQLException {
    return false;
  }


  @Override
  public boolean supportsStoredFunctionsUsingCallSyntax() throws SQLException {
    return false;
  }


  @Override
  public ResultSet getClientInfoProperties() throws SQLException {
    throw SqlStates.unsupported("DatabaseMetaData.getClientInfoProperties");
  }


  @Override
  public ResultSet getFunctions(String catalog, String schemaPattern, String functionNamePattern) throws SQLException {
    throw SqlStates.unsupported("DatabaseMetaData.getFunctions");
  }


  @Override
  public ResultSet getFunctionColumns(String catalog, String schemaPattern, String functionNamePattern, String columnNamePattern) throws SQLException {
    throw SqlStates.unsupported("DatabaseMetaData.getFunctionColumns");
  }


  @Override
  public ResultSet getPseudoColumns(String catalog, String schemaPattern, String tableNamePattern, String columnNamePattern) throws SQLException {
    throw SqlStates.unsupported("DatabaseMetaData.getPseudoColumns");
  }


  @Override
  public boolean generatedKeyAlwaysReturned() throws SQLException {
    return false;
  }
}
