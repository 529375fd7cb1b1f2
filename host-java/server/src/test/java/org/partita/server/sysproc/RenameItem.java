package org.partita.server.sysproc;

import org.partita.client.ResultTable;
import org.partita.server.procedure.Procedure;
import org.partita.server.procedure.SqlStmt;

/** Test procedure (single-partition on its second parameter): renames an item; returns the rows changed. */
public final class RenameItem extends Procedure {
  public final SqlStmt rename = new SqlStmt("UPDATE items SET name = ? WHERE id = ?");

  public long run(String name, long id) {
    queue(rename, name, id);
    final ResultTable changed = executeLast()[0];
    changed.advanceRow();
    return changed.getLong(0);
  }
}
