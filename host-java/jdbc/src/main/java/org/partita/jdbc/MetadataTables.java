package org.partita.jdbc;

import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.partita.client.ResultTable;
import org.partita.client.ResultTableBuilder;
import org.partita.client.ValueType;

/**
 * Builds the result tables of DatabaseMetaData (their columns are JDBC's)
 * from {@code @SystemCatalog} answers (docs/system-procedures.md). Partita
 * has no catalogs or schemas: those columns are NULL. Stateless; each
 * method makes one {@code @SystemCatalog} call.
 */
final class MetadataTables {
  private static final String CATALOG = "@SystemCatalog";
  private static final int DECIMAL_SCALE = 12;

  private final PartitaConnection connection;

  MetadataTables(PartitaConnection connection) {
    this.connection = connection;
  }

  private ResultTable selector(String name) throws SQLException {
    final ResultTable t = connection.call(0, CATALOG, name).results().get(0);
    t.resetRowPosition();
    return t;
  }

  /** JDBC's TABLE_TYPE of a Partita TABLE_TYPE. */
  private static String tableType(String partitaType) {
    return partitaType.equals("TABLE") ? "TABLE" : "VIEW";
  }

  static List<String> tableTypes() {
    return List.of("TABLE", "VIEW");
  }

  ResultTable tables(String tablePattern, String[] types) throws SQLException {
    final ResultTableBuilder b = columns(ValueType.VARCHAR, "TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "TABLE_TYPE",
        "REMARKS", "TYPE_CAT", "TYPE_SCHEM", "TYPE_NAME", "SELF_REFERENCING_COL_NAME", "REF_GENERATION");
    final NamePattern pattern = NamePattern.of(tablePattern);
    final Set<String> wanted = types == null ? null : Set.copyOf(Arrays.asList(types));
    final ResultTable t = selector("TABLES");
    while (t.advanceRow()) {
      final String name = t.getString("TABLE_NAME");
      final String type = tableType(t.getString("TABLE_TYPE"));
      if (pattern.matches(name) && (wanted == null || wanted.contains(type))) {
        b.row(null, null, name, type, t.getString("TABLE_TYPE"), null, null, null, null, null);
      }
    }
    return b.build();
  }

  ResultTable columns(String tablePattern, String columnPattern) throws SQLException {
    final ResultTableBuilder b = new ResultTableBuilder();
    for (String c : List.of("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME")) {
      b.column(c, ValueType.VARCHAR);
    }
    b.column("DATA_TYPE", ValueType.INTEGER).column("TYPE_NAME", ValueType.VARCHAR)
        .column("COLUMN_SIZE", ValueType.INTEGER).column("BUFFER_LENGTH", ValueType.INTEGER)
        .column("DECIMAL_DIGITS", ValueType.INTEGER).column("NUM_PREC_RADIX", ValueType.INTEGER)
        .column("NULLABLE", ValueType.INTEGER).column("REMARKS", ValueType.VARCHAR)
        .column("COLUMN_DEF", ValueType.VARCHAR).column("SQL_DATA_TYPE", ValueType.INTEGER)
        .column("SQL_DATETIME_SUB", ValueType.INTEGER).column("CHAR_OCTET_LENGTH", ValueType.INTEGER)
        .column("ORDINAL_POSITION", ValueType.INTEGER).column("IS_NULLABLE", ValueType.VARCHAR)
        .column("SCOPE_CATALOG", ValueType.VARCHAR).column("SCOPE_SCHEMA", ValueType.VARCHAR)
        .column("SCOPE_TABLE", ValueType.VARCHAR).column("SOURCE_DATA_TYPE", ValueType.SMALLINT)
        .column("IS_AUTOINCREMENT", ValueType.VARCHAR).column("IS_GENERATEDCOLUMN", ValueType.VARCHAR);
    final NamePattern tables = NamePattern.of(tablePattern);
    final NamePattern columns = NamePattern.of(columnPattern);
    final ResultTable t = selector("COLUMNS");
    while (t.advanceRow()) {
      if (tables.matches(t.getString("TABLE_NAME")) && columns.matches(t.getString("COLUMN_NAME"))) {
        b.row(columnRow(t));
      }
    }
    return b.build();
  }

  private static Object[] columnRow(ResultTable t) {
    final ValueType type = ValueType.fromCode((int) t.getLong("VALUE_TYPE"));
    final long maxLength = t.getLong("MAX_LENGTH");
    final Integer size = t.wasNull() ? Integer.valueOf(Values.precision(type)) : Integer.valueOf((int) maxLength);
    final long nullable = t.getLong("NULLABLE");
    final int jdbcNullable = t.wasNull() ? DatabaseMetaData.columnNullableUnknown
        : nullable != 0 ? DatabaseMetaData.columnNullable : DatabaseMetaData.columnNoNulls;
    final String isNullable = jdbcNullable == DatabaseMetaData.columnNullableUnknown ? ""
        : jdbcNullable == DatabaseMetaData.columnNullable ? "YES" : "NO";
    final boolean text = type == ValueType.VARCHAR || type == ValueType.VARBINARY;
    return new Object[] {null, null, t.getString("TABLE_NAME"), t.getString("COLUMN_NAME"), Values.sqlType(type),
        t.getString("TYPE_NAME"), size, null, decimalDigits(type), type.isNumeric() ? 10 : null, jdbcNullable, null,
        t.getString("DEFAULT_VALUE"), null, null, text ? size : null, (int) t.getLong("ORDINAL_POSITION"),
        isNullable, null, null, null, null, "NO", "NO"};
  }

  private static Integer decimalDigits(ValueType type) {
    if (type.isInteger()) {
      return 0;
    }
    return type == ValueType.DECIMAL ? DECIMAL_SCALE : type == ValueType.TIMESTAMP ? 6 : null;
  }

  ResultTable procedures(String procedurePattern) throws SQLException {
    final ResultTableBuilder b = columns(ValueType.VARCHAR, "PROCEDURE_CAT", "PROCEDURE_SCHEM", "PROCEDURE_NAME",
        "RESERVED4", "RESERVED5", "RESERVED6", "REMARKS");
    b.column("PROCEDURE_TYPE", ValueType.SMALLINT).column("SPECIFIC_NAME", ValueType.VARCHAR);
    final NamePattern pattern = NamePattern.of(procedurePattern);
    final ResultTable t = selector("PROCEDURES");
    while (t.advanceRow()) {
      final String name = t.getString("PROCEDURE_NAME");
      if (pattern.matches(name)) {
        final String remarks = (t.getLong("SINGLE_PARTITION") != 0 ? "single-partition" : "multi-partition")
            + ", " + t.getLong("PARAMETER_COUNT") + " parameter(s), " + t.getString("LANGUAGE");
        b.row(null, null, name, null, null, null, remarks, (short) DatabaseMetaData.procedureReturnsResult, name);
      }
    }
    return b.build();
  }

  ResultTable primaryKeys(String table) throws SQLException {
    final ResultTableBuilder b = columns(ValueType.VARCHAR, "TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME");
    b.column("KEY_SEQ", ValueType.SMALLINT).column("PK_NAME", ValueType.VARCHAR);
    final List<Object[]> rows = new ArrayList<>();
    final ResultTable t = selector("INDEXES");
    while (t.advanceRow()) {
      if (t.getLong("IS_PRIMARY_KEY") != 0 && NamePattern.exact(table, t.getString("TABLE_NAME"))) {
        final String[] keyColumns = t.getString("COLUMN_NAMES").split(",");
        for (int i = 0; i < keyColumns.length; i++) {
          rows.add(new Object[] {null, null, t.getString("TABLE_NAME"), keyColumns[i].trim(), (short) (i + 1),
              t.getString("INDEX_NAME")});
        }
      }
    }
    rows.sort((x, y) -> ((String) x[3]).compareTo((String) y[3]));
    rows.forEach(b::row);
    return b.build();
  }

  /** An empty table of VARCHAR columns {@code names} (catalogs, schemas: Partita has none). */
  static ResultTable empty(String... names) {
    return columns(ValueType.VARCHAR, names).build();
  }

  static ResultTable tableTypeTable() {
    final ResultTableBuilder b = columns(ValueType.VARCHAR, "TABLE_TYPE");
    tableTypes().forEach(type -> b.row(type));
    return b.build();
  }

  private static ResultTableBuilder columns(ValueType type, String... names) {
    final ResultTableBuilder b = new ResultTableBuilder();
    for (String n : names) {
      b.column(n, type);
    }
    return b;
  }
}
