package org.partita.server.sysproc;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.partita.client.ResultTable;
import org.partita.client.ResultTableBuilder;
import org.partita.client.ValueType;
import org.partita.proto.OutputColumn;
import org.partita.server.catalog.ColumnDef;
import org.partita.server.catalog.QueryViewDef;
import org.partita.server.catalog.Schema;
import org.partita.server.catalog.TableDef;
import org.partita.server.compiler.CompiledCatalog;

/**
 * {@code @SystemCatalog COLUMNS}: one row per column of every table and view,
 * by table name then position. Plain views' columns come from their query:
 * MAX_LENGTH, NULLABLE and DEFAULT_VALUE are NULL for them.
 */
final class CatalogColumns implements CatalogSelector {
  @Override
  public ResultTable build(CompiledCatalog catalog) {
    final Schema schema = catalog.schema();
    final ResultTableBuilder table = new ResultTableBuilder()
        .column("TABLE_NAME", ValueType.VARCHAR)
        .column("COLUMN_NAME", ValueType.VARCHAR)
        .column("ORDINAL_POSITION", ValueType.INTEGER)
        .column("TYPE_NAME", ValueType.VARCHAR)
        .column("VALUE_TYPE", ValueType.INTEGER)
        .column("MAX_LENGTH", ValueType.INTEGER)
        .column("NULLABLE", ValueType.TINYINT)
        .column("DEFAULT_VALUE", ValueType.VARCHAR);
    final List<String> names = new ArrayList<>();
    schema.tables().forEach(t -> names.add(t.name()));
    schema.queryViews().forEach(v -> names.add(v.name()));
    names.sort(Comparator.naturalOrder());
    for (String name : names) {
      final TableDef t = schema.table(name).orElse(null);
      if (t != null) {
        addTable(table, t);
      } else {
        addQueryView(table, schema, schema.queryView(name).orElseThrow());
      }
    }
    return table.build();
  }

  private static void addTable(ResultTableBuilder table, TableDef t) {
    for (int i = 0; i < t.columns().size(); i++) {
      final ColumnDef c = t.columns().get(i);
      table.row(t.name(), c.name(), i + 1, typeName(c.type()), c.type().getNumber(),
          c.maxLength() > 0 ? c.maxLength() : null, Answers.flag(c.nullable()),
          c.defaultValue() == null ? null : ValueText.of(c.defaultValue()));
    }
  }

  private static void addQueryView(ResultTableBuilder table, Schema schema, QueryViewDef v) {
    final List<OutputColumn> columns = QueryViewColumns.of(schema, v);
    for (int i = 0; i < columns.size(); i++) {
      final OutputColumn c = columns.get(i);
      table.row(v.name(), c.getName(), i + 1, typeName(c.getType()), c.getType().getNumber(), null, null, null);
    }
  }

  private static String typeName(org.partita.proto.ValueType type) {
    return type.name().substring("VALUE_TYPE_".length());
  }
}
