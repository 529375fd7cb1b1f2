package org.partita.server.sysproc;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.partita.client.ClientResponse;
import org.partita.client.ResultTableBuilder;
import org.partita.client.ValueType;
import org.partita.server.database.Database;
import org.partita.server.dispatch.ResponseHandler;

/**
 * {@code @Statistics CHECKSUM}: one row per copy of a partition this host
 * holds (on a cluster host with K ≥ 1, the replicas too): whether it leads,
 * the last transaction it ran, and a checksum of all its rows, made on the
 * copy's thread between two transactions. Two copies of a partition that
 * ran the same transactions have the same checksum, so comparing the
 * checksums of a partition's copies on its hosts once writes have stopped
 * (every answer received) shows whether they are identical. LAST_SEQUENCE
 * is the last transaction the copy ran: on a leader the last it sequenced,
 * on a replica the last it ran of its leader's order (reads and other items
 * that changed nothing are not run on replicas, so a replica's may be
 * lower). Reads every row: for tests and checks, not for monitoring under
 * load.
 */
final class StatsChecksum implements StatisticsSelector {
  private final Database database;

  StatsChecksum(Database database) {
    this.database = database;
  }

  @Override
  public boolean answer(boolean interval, ResponseHandler handler) {
    final CompletableFuture<List<Database.CopyChecksum>> copies = database.offerChecksums();
    if (copies == null) {
      return false;
    }
    copies.whenComplete((list, failure) -> {
      ClientResponse response;
      try {
        response = failure != null ? Answers.unexpected("@Statistics CHECKSUM", failure) : table(list);
      } catch (RuntimeException e) {
        response = Answers.unexpected("@Statistics CHECKSUM", e);
      }
      handler.onResponse(response);
    });
    return true;
  }

  private static ClientResponse table(List<Database.CopyChecksum> copies) {
    final ResultTableBuilder table = new ResultTableBuilder()
        .column("PARTITION_ID", ValueType.INTEGER)
        .column("LEADER", ValueType.TINYINT)
        .column("LAST_EPOCH", ValueType.BIGINT)
        .column("LAST_SEQUENCE", ValueType.BIGINT)
        .column("CHECKSUM", ValueType.BIGINT);
    for (Database.CopyChecksum copy : copies) {
      table.row(copy.partition(), Answers.flag(copy.leader()),
          copy.lastApplied() == null ? 0L : copy.lastApplied().epoch(),
          copy.lastApplied() == null ? 0L : copy.lastApplied().sequence(), copy.checksum());
    }
    return Answers.table(table.build());
  }
}
