package org.partita.server.sysproc;

import java.util.function.Supplier;
import org.partita.server.database.Database;
import org.partita.server.dispatch.ResponseHandler;

/**
 * {@code @Statistics TOPO}: the partition map as it stands
 * ({@link TopologyTable}); the interval flag does not apply.
 */
final class StatsTopology implements StatisticsSelector {
  private final Database database;
  private final Supplier<ServerIdentity> identity;

  StatsTopology(Database database, Supplier<ServerIdentity> identity) {
    this.database = database;
    this.identity = identity;
  }

  @Override
  public boolean answer(boolean interval, ResponseHandler handler) {
    handler.onResponse(Answers.table(TopologyTable.build(database.partitionMap(), identity.get())));
    return true;
  }
}
