package org.partita.server.sysproc;

import java.util.ArrayList;
import java.util.List;
import org.partita.client.ResultTableBuilder;
import org.partita.client.ValueType;
import org.partita.server.database.Database;
import org.partita.server.dispatch.ResponseHandler;
import org.partita.server.txn.Invocation;

/**
 * {@code @CancelQuery} stops running calls (docs/system-procedures.md): each
 * is rolled back and answered CANCELLED.
 *
 * <ul>
 *   <li>{@code @CancelQuery()} — the calls of the caller's own connection
 *       running now, on any partition or the coordinator (what Ctrl-C in
 *       {@code partita sql} sends; over HTTP, every HTTP call running).</li>
 *   <li>{@code @CancelQuery(partition)} — whatever call that partition runs
 *       now, whoever's (an administrator's tool; a multi-partition call it
 *       serves is cancelled everywhere).</li>
 * </ul>
 *
 * <p>Calls still queued are not touched. Answers at once with one row per
 * call cancelled (PROCEDURE, CLIENT_ID, CLIENT_HANDLE); no row when nothing
 * matched. Thread-safe; never blocks.
 */
final class CancelQuery implements SystemProcedure {
  private final Database database;

  CancelQuery(Database database) {
    this.database = database;
  }

  @Override
  public String name() {
    return "@CancelQuery";
  }

  @Override
  public boolean call(Parameters parameters, ResponseHandler handler) {
    parameters.requireCount(0, 1, "([partition])");
    final List<Invocation> cancelled = new ArrayList<>();
    if (parameters.count() == 0) {
      final Invocation self = parameters.invocation();
      cancelled.addAll(database.cancelClient(self == null ? Database.IN_PROCESS_CLIENT : self.clientId()));
    } else {
      final int partition = parameters.integer(0, "partition", 0, database.partitionCount() - 1);
      final Invocation one = database.cancelPartition(partition);
      if (one != null) {
        cancelled.add(one);
      }
    }
    handler.onResponse(Answers.table(table(cancelled)));
    return true;
  }

  private static org.partita.client.ResultTable table(List<Invocation> cancelled) {
    final ResultTableBuilder table = new ResultTableBuilder()
        .column("PROCEDURE", ValueType.VARCHAR)
        .column("CLIENT_ID", ValueType.BIGINT)
        .column("CLIENT_HANDLE", ValueType.BIGINT);
    for (Invocation i : cancelled) {
      table.row(i.procedure(), i.clientId(), i.clientSequence());
    }
    return table.build();
  }
}
