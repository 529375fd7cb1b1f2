package org.partita.server.sysproc;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.partita.client.ResultTable;
import org.partita.client.ResultTableBuilder;
import org.partita.client.ValueType;
import org.partita.server.catalog.QueryViewDef;
import org.partita.server.catalog.Schema;
import org.partita.server.catalog.TableDef;
import org.partita.server.compiler.CompiledCatalog;

/**
 * {@code @SystemCatalog TABLES}: one row per table, materialized view and
 * plain view, by name. A materialized view is partitioned like its source
 * table; its PARTITION_COLUMN is the view column grouping by the source's
 * partitioning column (NULL when it does not group by it).
 */
final class CatalogTables implements CatalogSelector {
  private record Row(String name, String type, String partitionColumn, Integer columnCount, Byte replicated,
      String source, String definition) {}

  @Override
  public ResultTable build(CompiledCatalog catalog) {
    final Schema schema = catalog.schema();
    final List<Row> rows = new ArrayList<>();
    for (TableDef t : schema.tables()) {
      rows.add(t.isView() ? view(schema, t) : new Row(t.name(), "TABLE",
          t.isReplicated() ? null : t.columns().get(t.partitionColumn()).name(), t.columns().size(),
          Answers.flag(t.isReplicated()), null, null));
    }
    for (QueryViewDef v : schema.queryViews()) {
      final int columns = QueryViewColumns.of(schema, v).size();
      rows.add(new Row(v.name(), "VIEW", null, columns == 0 ? null : columns, null, null, v.select()));
    }
    rows.sort(Comparator.comparing(Row::name));
    final ResultTableBuilder table = new ResultTableBuilder()
        .column("TABLE_NAME", ValueType.VARCHAR)
        .column("TABLE_TYPE", ValueType.VARCHAR)
        .column("PARTITION_COLUMN", ValueType.VARCHAR)
        .column("COLUMN_COUNT", ValueType.INTEGER)
        .column("REPLICATED", ValueType.TINYINT)
        .column("SOURCE_TABLE", ValueType.VARCHAR)
        .column("DEFINITION", ValueType.VARCHAR);
    for (Row r : rows) {
      table.row(r.name(), r.type(), r.partitionColumn(), r.columnCount(), r.replicated(), r.source(), r.definition());
    }
    return table.build();
  }

  private static Row view(Schema schema, TableDef view) {
    final boolean partitioned = schema.isPartitioned(view);
    String partitionColumn = null;
    if (partitioned) {
      final TableDef source = schema.table(view.view().sourceTable()).orElseThrow();
      final int position = view.view().groupBy().indexOf(source.partitionColumn());
      partitionColumn = position >= 0 ? view.columns().get(position).name() : null;
    }
    return new Row(view.name(), "MATERIALIZED VIEW", partitionColumn, view.columns().size(),
        Answers.flag(!partitioned), view.view().sourceTable(), view.view().sql());
  }
}
