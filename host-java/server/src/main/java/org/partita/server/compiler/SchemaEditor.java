package org.partita.server.compiler;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.sf.jsqlparser.statement.create.index.CreateIndex;
import net.sf.jsqlparser.statement.create.table.ColumnDefinition;
import net.sf.jsqlparser.statement.create.table.CreateTable;
import net.sf.jsqlparser.statement.create.table.ForeignKeyIndex;
import net.sf.jsqlparser.statement.create.table.Index;
import org.partita.proto.IndexKind;
import org.partita.proto.ValueType;
import org.partita.server.catalog.ColumnDef;
import org.partita.server.catalog.IndexDef;
import org.partita.server.catalog.Schema;
import org.partita.server.catalog.TableDef;
import org.partita.server.compiler.ddl.DropObject;
import org.partita.server.planner.Names;
import org.partita.server.planner.PlanningException;
import org.partita.server.planner.TypeSpec;

/**
 * Applies CREATE TABLE, CREATE INDEX, PARTITION TABLE and DROP TABLE / INDEX to
 * a schema. Primary keys and UNIQUE constraints are hash indexes; CREATE INDEX
 * makes an ordered (tree) index unless it says {@code USING HASH}.
 * Errors are {@link PlanningException}s; the caller adds the position.
 */
final class SchemaEditor {
  private static final Pattern USING = Pattern.compile("(?is)^(.*\\))\\s*USING\\s+(HASH|TREE)\\s*$");

  private final Schema schema;

  SchemaEditor(Schema schema) {
    this.schema = schema;
  }

  /** CREATE INDEX text with a trailing USING HASH|TREE removed, and the kind it asked for. */
  record IndexText(String sql, IndexKind kind) {}

  static IndexText splitUsing(String sql) {
    final Matcher m = USING.matcher(sql.trim());
    if (!m.matches()) {
      return new IndexText(sql, IndexKind.INDEX_KIND_ORDERED);
    }
    final IndexKind kind = m.group(2).equalsIgnoreCase("HASH") ? IndexKind.INDEX_KIND_HASH : IndexKind.INDEX_KIND_ORDERED;
    return new IndexText(m.group(1), kind);
  }

  void createTable(CreateTable create) throws PlanningException {
    final String name = Names.normalize(create.getTable().getName());
    if (create.getSelect() != null) {
      throw new PlanningException("CREATE TABLE ... AS SELECT is not supported");
    }
    if (schema.table(name).isPresent()) {
      if (create.isIfNotExists()) {
        return;
      }
      throw new PlanningException("table " + name + " already exists");
    }
    if (create.getColumnDefinitions() == null || create.getColumnDefinitions().isEmpty()) {
      throw new PlanningException("table " + name + " needs at least one column");
    }
    final List<ColumnDef> columns = new ArrayList<>();
    final List<IndexDef> indexes = new ArrayList<>();
    for (ColumnDefinition definition : create.getColumnDefinitions()) {
      columns.add(column(name, definition, columns, indexes));
    }
    if (create.getIndexes() != null) {
      for (Index index : create.getIndexes()) {
        indexes.add(tableConstraint(name, index, columns));
      }
    }
    requireOnePrimaryKey(name, indexes);
    markPrimaryKeyNotNull(columns, indexes);
    schema.put(new TableDef(name, columns, indexes, TableDef.REPLICATED, null));
  }

  private ColumnDef column(String table, ColumnDefinition definition, List<ColumnDef> columns,
      List<IndexDef> indexes) throws PlanningException {
    final String name = Names.normalize(definition.getColumnName());
    for (ColumnDef c : columns) {
      if (c.name().equals(name)) {
        throw new PlanningException("column " + name + " appears twice in table " + table);
      }
    }
    final TypeSpec type = TypeSpec.of(definition.getColDataType());
    final ColumnSpecs specs = ColumnSpecs.parse(table, name, definition.getColumnSpecs(), type);
    final int position = columns.size();
    if (specs.primaryKey()) {
      indexes.add(new IndexDef(specs.constraintName().isEmpty() ? "PK_" + table : specs.constraintName(),
          IndexKind.INDEX_KIND_HASH, true, List.of(position), true, specs.constraintName()));
    }
    if (specs.unique()) {
      indexes.add(new IndexDef(uniqueName(table, specs.constraintName(), List.of(name)), IndexKind.INDEX_KIND_HASH,
          true, List.of(position), false, specs.constraintName()));
    }
    return new ColumnDef(name, type.type(), type.maxLength(), specs.nullable() && !specs.primaryKey(),
        specs.defaultValue());
  }

  private static String uniqueName(String table, String constraint, List<String> columns) {
    return constraint.isEmpty() ? "UQ_" + table + "_" + String.join("_", columns) : constraint;
  }

  private IndexDef tableConstraint(String table, Index index, List<ColumnDef> columns) throws PlanningException {
    if (index instanceof ForeignKeyIndex) {
      throw new PlanningException("FOREIGN KEY constraints are not supported (table " + table + ")");
    }
    final String type = index.getType() == null ? "" : index.getType().toUpperCase(Locale.ROOT);
    final List<Integer> positions = new ArrayList<>();
    final List<String> names = new ArrayList<>();
    for (String c : index.getColumnsNames()) {
      final String column = Names.normalize(c);
      final int p = indexOf(columns, column);
      if (p < 0) {
        throw new PlanningException("constraint on table " + table + " names unknown column " + column);
      }
      positions.add(p);
      names.add(column);
    }
    final String constraint = index.getName() == null ? "" : Names.normalize(index.getName());
    if (type.equals("PRIMARY KEY")) {
      return new IndexDef(constraint.isEmpty() ? "PK_" + table : constraint, IndexKind.INDEX_KIND_HASH, true,
          positions, true, constraint);
    }
    if (type.equals("UNIQUE") || type.equals("UNIQUE KEY") || type.equals("UNIQUE INDEX")) {
      return new IndexDef(uniqueName(table, constraint, names), IndexKind.INDEX_KIND_HASH, true, positions, false,
          constraint);
    }
    throw new PlanningException("unsupported constraint " + index + " in table " + table
        + "; use PRIMARY KEY, UNIQUE, or CREATE INDEX");
  }

  private static int indexOf(List<ColumnDef> columns, String name) {
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i).name().equals(name)) {
        return i;
      }
    }
    return -1;
  }

  private static void requireOnePrimaryKey(String table, List<IndexDef> indexes) throws PlanningException {
    if (indexes.stream().filter(IndexDef::primaryKey).count() > 1) {
      throw new PlanningException("table " + table + " declares more than one PRIMARY KEY");
    }
  }

  private static void markPrimaryKeyNotNull(List<ColumnDef> columns, List<IndexDef> indexes) {
    for (IndexDef index : indexes) {
      if (!index.primaryKey()) {
        continue;
      }
      for (int p : index.columns()) {
        final ColumnDef c = columns.get(p);
        columns.set(p, new ColumnDef(c.name(), c.type(), c.maxLength(), false, c.defaultValue()));
      }
    }
  }

  void createIndex(CreateIndex create, IndexKind kind) throws PlanningException {
    final Index index = create.getIndex();
    final String name = Names.normalize(index.getName());
    final String tableName = Names.normalize(create.getTable().getName());
    final TableDef table = schema.table(tableName)
        .orElseThrow(() -> new PlanningException("CREATE INDEX " + name + ": unknown table " + tableName));
    if (schema.tableOfIndex(name).isPresent()) {
      throw new PlanningException("index " + name + " already exists");
    }
    final List<Integer> positions = new ArrayList<>();
    for (String c : index.getColumnsNames()) {
      final String column = Names.normalize(c.replaceAll("(?i)\\s+(ASC|DESC)$", ""));
      final int p = table.columnIndex(column);
      if (p < 0) {
        throw new PlanningException("CREATE INDEX " + name + ": table " + tableName + " has no column " + column);
      }
      if (positions.contains(p)) {
        throw new PlanningException("CREATE INDEX " + name + " names column " + column + " twice");
      }
      positions.add(p);
    }
    final String type = index.getType() == null ? "" : index.getType().toUpperCase(Locale.ROOT);
    final boolean unique = type.contains("UNIQUE");
    if (!type.isEmpty() && !unique) {
      throw new PlanningException("unsupported index type " + index.getType() + " for index " + name);
    }
    schema.put(table.withIndex(new IndexDef(name, kind, unique, positions, false, "")));
  }

  void partitionTable(String tableName, String columnName) throws PlanningException {
    final TableDef table = schema.table(tableName)
        .orElseThrow(() -> new PlanningException("PARTITION TABLE: unknown table " + tableName));
    if (table.isView()) {
      throw new PlanningException("PARTITION TABLE: " + tableName + " is a view; a view is partitioned like its source");
    }
    if (!table.isReplicated()) {
      throw new PlanningException("table " + tableName + " is already partitioned on "
          + table.columns().get(table.partitionColumn()).name());
    }
    final int column = table.columnIndex(columnName);
    if (column < 0) {
      throw new PlanningException("PARTITION TABLE: table " + tableName + " has no column " + columnName);
    }
    final ValueType type = table.columns().get(column).type();
    if (type == ValueType.VALUE_TYPE_FLOAT || type == ValueType.VALUE_TYPE_DECIMAL) {
      throw new PlanningException("cannot partition " + tableName + " on " + columnName + ": a partitioning column"
          + " must be an integer, VARCHAR, VARBINARY or TIMESTAMP, not " + table.columns().get(column).typeText());
    }
    schema.put(table.withPartitionColumn(column));
  }

  void drop(DropObject.Kind kind, String name, boolean ifExists) throws PlanningException {
    switch (kind) {
      case TABLE, VIEW -> dropTable(kind, name, ifExists);
      case INDEX -> dropIndex(name, ifExists);
      default -> throw new IllegalArgumentException("procedures are dropped by the catalog compiler");
    }
  }

  private void dropTable(DropObject.Kind kind, String name, boolean ifExists) throws PlanningException {
    final boolean wantView = kind == DropObject.Kind.VIEW;
    if (wantView && schema.queryView(name).isPresent()) {
      schema.removeQueryView(name);
      return;
    }
    final TableDef table = schema.table(name).orElse(null);
    if (table == null || table.isView() != wantView) {
      if (ifExists && table == null) {
        return;
      }
      throw new PlanningException(table == null ? (wantView ? "view " : "table ") + name + " does not exist"
          : name + (wantView ? " is a table; use DROP TABLE" : " is a view; use DROP VIEW"));
    }
    final List<TableDef> views = schema.viewsOf(name);
    if (!views.isEmpty()) {
      throw new PlanningException("cannot drop table " + name + ": view " + views.get(0).name()
          + " is defined on it; drop the view first");
    }
    schema.remove(name);
  }

  private void dropIndex(String name, boolean ifExists) throws PlanningException {
    final TableDef table = schema.tableOfIndex(name).orElse(null);
    if (table == null) {
      if (ifExists) {
        return;
      }
      throw new PlanningException("index " + name + " does not exist");
    }
    final IndexDef index = table.indexes().stream().filter(i -> i.name().equals(name)).findFirst().orElseThrow();
    if (index.primaryKey() || !index.constraintName().isEmpty() || index.name().startsWith("UQ_")) {
      throw new PlanningException("index " + name + " enforces a constraint of table " + table.name()
          + " and cannot be dropped");
    }
    schema.put(table.withoutIndex(name));
  }

  /** Checks that hold across the whole schema once a script is applied. */
  void checkSchema() throws PlanningException {
    for (TableDef table : schema.tables()) {
      if (table.isView() || table.isReplicated()) {
        continue;
      }
      for (IndexDef index : table.indexes()) {
        if (index.unique() && !index.columns().contains(table.partitionColumn())) {
          throw new PlanningException("unique index " + index.name() + " of partitioned table " + table.name()
              + " must include the partitioning column " + table.columns().get(table.partitionColumn()).name()
              + " (uniqueness is enforced within a partition)");
        }
      }
    }
  }
}
