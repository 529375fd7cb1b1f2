package org.partita.server.planner;

import java.util.ArrayList;
import java.util.List;
import org.partita.proto.ValueType;
import org.partita.server.catalog.ColumnDef;
import org.partita.server.catalog.TableDef;

/**
 * The columns a clause can name: the rows of the FROM tables concatenated in
 * FROM order. Resolves {@code [qualifier.]column} to a position.
 */
final class Scope {
  /** One visible column. */
  record Entry(String qualifier, String column, ValueType type, int maxLength) {}

  private final List<Entry> entries = new ArrayList<>();
  private final List<String> qualifiers = new ArrayList<>();

  /** Appends a table's columns under {@code qualifier} (its alias or name). */
  void addTable(String qualifier, TableDef table) throws PlanningException {
    if (qualifiers.contains(qualifier)) {
      throw new PlanningException("table name or alias " + qualifier + " appears twice in FROM; give one an alias");
    }
    qualifiers.add(qualifier);
    for (ColumnDef c : table.columns()) {
      entries.add(new Entry(qualifier, c.name(), c.type(), c.maxLength()));
    }
  }

  /** Appends derived columns (a subquery in FROM) under {@code qualifier}. */
  void addColumns(String qualifier, List<Entry> columns) throws PlanningException {
    if (qualifiers.contains(qualifier)) {
      throw new PlanningException("table name or alias " + qualifier + " appears twice in FROM");
    }
    qualifiers.add(qualifier);
    for (Entry e : columns) {
      entries.add(new Entry(qualifier, e.column(), e.type(), e.maxLength()));
    }
  }

  int size() {
    return entries.size();
  }

  Entry get(int i) {
    return entries.get(i);
  }

  List<Entry> entries() {
    return entries;
  }

  boolean hasQualifier(String qualifier) {
    return qualifiers.contains(qualifier);
  }

  /** Whether {@code qualifier.column} names at least one visible column. */
  boolean canResolve(String qualifier, String column) {
    for (Entry e : entries) {
      if (e.column().equals(column) && (qualifier == null || e.qualifier().equals(qualifier))) {
        return true;
      }
    }
    return false;
  }

  /** Position of {@code qualifier.column} (qualifier may be null). */
  int resolve(String qualifier, String column) throws PlanningException {
    int found = -1;
    for (int i = 0; i < entries.size(); i++) {
      final Entry e = entries.get(i);
      if (e.column().equals(column) && (qualifier == null || e.qualifier().equals(qualifier))) {
        if (found >= 0) {
          throw new PlanningException("column " + column + " is ambiguous: qualify it with a table name");
        }
        found = i;
      }
    }
    if (found < 0) {
      if (qualifier != null && !qualifiers.contains(qualifier)) {
        throw new PlanningException("unknown table or alias " + qualifier + " in " + qualifier + "." + column);
      }
      throw new PlanningException(
          "unknown column " + (qualifier == null ? "" : qualifier + ".") + column);
    }
    return found;
  }
}
