package org.partita.server.sysproc;

import org.partita.server.error.ServerException;
import org.partita.server.database.Database;
import org.partita.server.dispatch.ResponseHandler;

/**
 * {@code @SystemCatalog(selector)}: one table describing the current schema
 * (TABLES, COLUMNS, INDEXES), the user procedures and how clients route them
 * (PROCEDURES), the hosts (HOSTS), or the partition map (PARTITIONS). An unknown selector is REJECTED
 * BAD_PARAMETER listing the valid ones.
 */
final class SystemCatalog implements SystemProcedure {
  private final Database database;
  private final Choices<CatalogSelector> selectors;

  SystemCatalog(Database database, Choices<CatalogSelector> selectors) {
    this.database = database;
    this.selectors = selectors;
  }

  @Override
  public String name() {
    return "@SystemCatalog";
  }

  @Override
  public boolean call(Parameters parameters, ResponseHandler handler) {
    parameters.requireCount(1, 1, "(selector)");
    final String name = parameters.text(0, "selector");
    final CatalogSelector selector = selectors.find(name);
    if (selector == null) {
      throw ServerException.badParameter("@SystemCatalog: unknown selector " + name + "; selectors: "
          + selectors.names());
    }
    handler.onResponse(Answers.table(selector.build(database.catalog())));
    return true;
  }
}
