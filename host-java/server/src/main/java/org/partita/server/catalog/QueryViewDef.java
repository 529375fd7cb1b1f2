package org.partita.server.catalog;

import java.util.List;

/**
 * A plain (non-materialized) view: a named query, stored as its SELECT text
 * and expanded where a query names it, like a subquery in FROM. It holds no
 * rows and the engine never sees it.
 *
 * @param name upper-case view name
 * @param select the defining SELECT, as written
 * @param columnNames the names given after the view name (upper-case), or
 *     empty to keep the query's own column names
 */
public record QueryViewDef(String name, String select, List<String> columnNames) {
  public QueryViewDef {
    columnNames = List.copyOf(columnNames);
  }
}
