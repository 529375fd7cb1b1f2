package org.partita.server.catalog;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.partita.proto.Table;

/**
 * A table or materialized view of the schema. Immutable; schema changes build
 * a new one.
 *
 * @param name upper-case table name
 * @param columns the columns in table order
 * @param indexes the table's indexes (primary key first when there is one)
 * @param partitionColumn position of the partitioning column, or -1 when the
 *     table is replicated to every partition (a view follows its source)
 * @param view how the view is derived, or null for a table
 */
public record TableDef(String name, List<ColumnDef> columns, List<IndexDef> indexes, int partitionColumn, ViewDef view) {

  public static final int REPLICATED = -1;

  public TableDef {
    columns = List.copyOf(columns);
    indexes = List.copyOf(indexes);
  }

  public boolean isView() {
    return view != null;
  }

  public boolean isReplicated() {
    return partitionColumn == REPLICATED;
  }

  /** Position of the column called {@code column} (upper-case), or -1. */
  public int columnIndex(String column) {
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i).name().equals(column)) {
        return i;
      }
    }
    return -1;
  }

  public Optional<IndexDef> primaryKey() {
    return indexes.stream().filter(IndexDef::primaryKey).findFirst();
  }

  public TableDef withPartitionColumn(int column) {
    return new TableDef(name, columns, indexes, column, view);
  }

  public TableDef withIndex(IndexDef index) {
    final List<IndexDef> more = new ArrayList<>(indexes);
    more.add(index);
    return new TableDef(name, columns, more, partitionColumn, view);
  }

  public TableDef withoutIndex(String indexName) {
    final List<IndexDef> fewer = new ArrayList<>(indexes);
    fewer.removeIf(index -> index.name().equals(indexName));
    return new TableDef(name, columns, fewer, partitionColumn, view);
  }

  public Table toProto() {
    final Table.Builder table = Table.newBuilder().setName(name).setPartitionColumn(partitionColumn);
    columns.forEach(column -> table.addColumns(column.toProto()));
    indexes.forEach(index -> table.addIndexes(index.toProto()));
    if (view != null) {
      table.setView(view.toProto());
    }
    return table.build();
  }
}
