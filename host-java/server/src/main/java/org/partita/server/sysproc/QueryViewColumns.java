package org.partita.server.sysproc;

import java.util.List;
import org.partita.proto.OutputColumn;
import org.partita.server.catalog.QueryViewDef;
import org.partita.server.catalog.Schema;
import org.partita.server.planner.PlanningException;
import org.partita.server.planner.SqlPlanner;

/** The columns of a plain view, found by planning {@code SELECT * FROM view}. */
final class QueryViewColumns {
  private QueryViewColumns() {}

  /** The view's columns, or an empty list when it does not plan against {@code schema} (e.g. a dropped table). */
  static List<OutputColumn> of(Schema schema, QueryViewDef view) {
    try {
      return new SqlPlanner(schema).plan("SELECT * FROM " + view.name(), false).plan().getOutputSchemaList();
    } catch (PlanningException | RuntimeException e) {
      return List.of();
    }
  }
}
