package org.partita.server.sysproc;

import java.util.function.Supplier;
import org.partita.client.ResultTable;
import org.partita.client.ResultTableBuilder;
import org.partita.client.ValueType;
import org.partita.server.compiler.CompiledCatalog;
import org.partita.server.database.Database;

/** {@code @SystemCatalog HOSTS}: one row per host (one on a single server): id, address, ports, partitions, start. */
final class CatalogHosts implements CatalogSelector {
  private final Database database;
  private final Supplier<ServerIdentity> identity;

  CatalogHosts(Database database, Supplier<ServerIdentity> identity) {
    this.database = database;
    this.identity = identity;
  }

  @Override
  public ResultTable build(CompiledCatalog catalog) {
    final ServerIdentity host = identity.get();
    return new ResultTableBuilder()
        .column("HOST_ID", ValueType.INTEGER)
        .column("ADDRESS", ValueType.VARCHAR)
        .column("CLIENT_PORT", ValueType.INTEGER)
        .column("HTTP_PORT", ValueType.INTEGER)
        .column("PARTITION_COUNT", ValueType.INTEGER)
        .column("STARTED_AT", ValueType.TIMESTAMP)
        .column("SERVER_VERSION", ValueType.VARCHAR)
        .row(host.hostId(), host.address(), host.clientPort(), host.httpPort(), database.partitionCount(),
            Math.multiplyExact(host.startedAtMillis(), 1000L), host.serverVersion())
        .build();
  }
}
