package org.partita.server.sysproc;

import java.util.List;
import java.util.function.Supplier;
import org.partita.client.ResultTableBuilder;
import org.partita.client.ValueType;
import org.partita.server.dispatch.ResponseHandler;
import org.partita.server.stats.ConnectionSnapshot;

/** {@code @Statistics CONNECTIONS}: one row per open client connection, as the front ends report them. */
final class StatsConnections implements StatisticsSelector {
  private final Supplier<List<ConnectionSnapshot>> connections;

  StatsConnections(Supplier<List<ConnectionSnapshot>> connections) {
    this.connections = connections;
  }

  @Override
  public boolean answer(boolean interval, ResponseHandler handler) {
    final ResultTableBuilder table = new ResultTableBuilder()
        .column("CONNECTION_ID", ValueType.BIGINT)
        .column("REMOTE_ADDRESS", ValueType.VARCHAR)
        .column("CLIENT_NAME", ValueType.VARCHAR)
        .column("CONNECTED_AT", ValueType.TIMESTAMP)
        .column("CALLS_RECEIVED", ValueType.BIGINT)
        .column("CALLS_IN_FLIGHT", ValueType.BIGINT)
        .column("BYTES_READ", ValueType.BIGINT)
        .column("BYTES_WRITTEN", ValueType.BIGINT)
        .column("READS_PAUSED", ValueType.TINYINT);
    for (ConnectionSnapshot c : connections.get()) {
      table.row(c.connectionId(), c.remoteAddress(), c.clientName(), Math.multiplyExact(c.connectedAtMillis(), 1000L),
          c.callsReceived(), c.callsInFlight(), c.bytesRead(), c.bytesWritten(), Answers.flag(c.readsPaused()));
    }
    handler.onResponse(Answers.table(table.build()));
    return true;
  }
}
