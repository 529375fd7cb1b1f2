package org.partita.server.sysproc;

import java.util.function.Supplier;
import org.partita.client.ResultTable;
import org.partita.server.compiler.CompiledCatalog;
import org.partita.server.database.Database;

/** {@code @SystemCatalog PARTITIONS}: the partition map ({@link TopologyTable}). */
final class CatalogPartitions implements CatalogSelector {
  private final Database database;
  private final Supplier<ServerIdentity> identity;

  CatalogPartitions(Database database, Supplier<ServerIdentity> identity) {
    this.database = database;
    this.identity = identity;
  }

  @Override
  public ResultTable build(CompiledCatalog catalog) {
    return TopologyTable.build(database.partitionMap(), identity.get());
  }
}
