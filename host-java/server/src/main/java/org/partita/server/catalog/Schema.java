package org.partita.server.catalog;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The tables, views (materialized, and plain: {@link QueryViewDef}) and
 * indexes of a database, by upper-case name. Mutable
 * while a DDL script compiles; {@link #copy} gives the compiler a scratch
 * copy so that a failed script leaves the original untouched.
 */
public final class Schema {
  private final Map<String, TableDef> tables = new LinkedHashMap<>();
  private final Map<String, QueryViewDef> queryViews = new LinkedHashMap<>();

  public Schema copy() {
    final Schema copy = new Schema();
    copy.tables.putAll(tables);
    copy.queryViews.putAll(queryViews);
    return copy;
  }

  /** The plain view called {@code name}, if any. */
  public Optional<QueryViewDef> queryView(String name) {
    return Optional.ofNullable(queryViews.get(name));
  }

  /** The plain views, in creation order. */
  public Collection<QueryViewDef> queryViews() {
    return Collections.unmodifiableCollection(queryViews.values());
  }

  public void putQueryView(QueryViewDef view) {
    queryViews.put(view.name(), view);
  }

  public void removeQueryView(String name) {
    queryViews.remove(name);
  }

  public Optional<TableDef> table(String name) {
    return Optional.ofNullable(tables.get(name));
  }

  public Collection<TableDef> tables() {
    return Collections.unmodifiableCollection(tables.values());
  }

  public void put(TableDef table) {
    tables.put(table.name(), table);
  }

  public void remove(String name) {
    tables.remove(name);
  }

  /** The table holding index {@code indexName}, if any. */
  public Optional<TableDef> tableOfIndex(String indexName) {
    return tables.values().stream()
        .filter(t -> t.indexes().stream().anyMatch(i -> i.name().equals(indexName)))
        .findFirst();
  }

  /** Views whose source is {@code table}. */
  public List<TableDef> viewsOf(String table) {
    final List<TableDef> views = new ArrayList<>();
    for (TableDef t : tables.values()) {
      if (t.isView() && t.view().sourceTable().equals(table)) {
        views.add(t);
      }
    }
    return views;
  }

  /**
   * The partitioning column of a table as the engine sees it: a view follows
   * its source, whose partitioning column it keeps only as a group-by column.
   */
  public boolean isPartitioned(TableDef table) {
    if (table.isView()) {
      return tables.containsKey(table.view().sourceTable())
          && !tables.get(table.view().sourceTable()).isReplicated();
    }
    return !table.isReplicated();
  }
}
