package org.partita.server.planner;

import net.sf.jsqlparser.statement.insert.Insert;
import net.sf.jsqlparser.statement.upsert.Upsert;

/** UPSERT / REPLACE INTO read as the INSERT they extend. */
final class UpsertAdapter {
  private UpsertAdapter() {}

  static Insert toInsert(Upsert upsert) throws PlanningException {
    if (upsert.getUpdateSets() != null && !upsert.getUpdateSets().isEmpty()
        || upsert.getDuplicateUpdateSets() != null && !upsert.getDuplicateUpdateSets().isEmpty()) {
      throw new PlanningException("UPSERT ... SET is not supported; use UPSERT INTO t (cols) VALUES (...)");
    }
    final Insert insert = new Insert();
    insert.setTable(upsert.getTable());
    insert.setColumns(upsert.getColumns());
    insert.setSelect(upsert.getSelect());
    return insert;
  }
}
