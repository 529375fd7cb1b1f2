package org.partita.server.sysproc;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import org.partita.client.ResultTable;
import org.partita.client.ResultTableBuilder;
import org.partita.client.ValueType;
import org.partita.server.catalog.IndexDef;
import org.partita.server.catalog.TableDef;
import org.partita.server.compiler.CompiledCatalog;

/**
 * {@code @SystemCatalog INDEXES}: one row per index of every table and
 * materialized view (whose group-by key is a unique hash index), by table
 * then index name. INDEX_KIND is HASH (equality lookups) or TREE (ordered:
 * ranges, ORDER BY, MIN/MAX).
 */
final class CatalogIndexes implements CatalogSelector {
  @Override
  public ResultTable build(CompiledCatalog catalog) {
    final List<TableDef> tables = new ArrayList<>(catalog.schema().tables());
    tables.sort(Comparator.comparing(TableDef::name));
    final ResultTableBuilder table = new ResultTableBuilder()
        .column("TABLE_NAME", ValueType.VARCHAR)
        .column("INDEX_NAME", ValueType.VARCHAR)
        .column("IS_UNIQUE", ValueType.TINYINT)
        .column("INDEX_KIND", ValueType.VARCHAR)
        .column("COLUMN_NAMES", ValueType.VARCHAR)
        .column("IS_PRIMARY_KEY", ValueType.TINYINT)
        .column("CONSTRAINT_NAME", ValueType.VARCHAR);
    for (TableDef t : tables) {
      final List<IndexDef> indexes = new ArrayList<>(t.indexes());
      indexes.sort(Comparator.comparing(IndexDef::name));
      for (IndexDef i : indexes) {
        final String columns = i.columns().stream().map(c -> t.columns().get(c).name())
            .collect(Collectors.joining(", "));
        table.row(t.name(), i.name(), Answers.flag(i.unique()), i.isHash() ? "HASH" : "TREE", columns,
            Answers.flag(i.primaryKey()), i.constraintName().isEmpty() ? null : i.constraintName());
      }
    }
    return table.build();
  }
}
