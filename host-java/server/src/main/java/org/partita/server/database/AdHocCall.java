package org.partita.server.database;

import java.util.function.Consumer;
import org.partita.client.ClientResponse;
import org.partita.server.error.ErrorTable;
import org.partita.server.error.ServerException;
import org.partita.server.txn.Invocation;
import org.partita.server.txn.SequencedItem;
import org.partita.server.txn.TxnHeader;

/**
 * One ad-hoc SQL statement that needs only this partition: the
 * {@code @AdHoc(sql, parameters...)} invocation as sent, the statement
 * planned against the catalog it was admitted under, and its parameters.
 * (Ad-hoc calls are decoded where they are admitted: planning and routing
 * need the SQL text and the partitioning value.) A schema change that came
 * first makes the site plan the statement again against its own catalog.
 */
record AdHocCall(Invocation invocation, String sql, ExecutableStatement statement, Object[] parameters,
                 long admittedVersion, Consumer<ClientResponse> done) implements WorkItem, SequencedItem {
  @Override
  public void run(Site site, TxnHeader header) {
    if (Deduplication.answered(site, header, this, invocation, done)) {
      return;
    }
    ClientResponse response;
    try {
      final ExecutableStatement current = site.replan(sql, statement, parameters, admittedVersion);
      response = site.context().runStatement(current, parameters, header, invocation);
      Deduplication.ran(site, header, invocation, response, site.context().writeHash());
    } catch (ServerException e) {
      response = ErrorTable.response(e);
    }
    site.answer(header, this, response, done);
  }

  @Override
  public void refuse(ClientResponse response) {
    done.accept(response);
  }

  @Override
  public Invocation singlePartitionInvocation() {
    return invocation;
  }

  @Override
  public org.partita.proto.txn.WorkItem toProto(TxnHeader header) {
    return ProcedureCall.singlePartition(header, invocation);
  }
}
