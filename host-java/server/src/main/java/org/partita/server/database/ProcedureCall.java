package org.partita.server.database;

import java.util.function.Consumer;
import org.partita.client.ClientResponse;
import org.partita.server.compiler.CompiledProcedure;
import org.partita.server.error.ErrorTable;
import org.partita.server.error.ServerException;
import org.partita.server.txn.Invocation;
import org.partita.server.txn.ResponseBytesConsumer;
import org.partita.server.txn.SequencedItem;
import org.partita.server.txn.TxnHeader;

/**
 * A single-partition procedure call: the invocation as the client sent it,
 * the procedure it resolved to when it was admitted and that catalog's
 * version. The site decodes the parameters and re-resolves the procedure
 * against its own catalog when a schema change came first.
 */
record ProcedureCall(Invocation invocation, CompiledProcedure admitted, long admittedVersion,
                     Consumer<ClientResponse> done) implements WorkItem, SequencedItem {
  @Override
  public void run(Site site, TxnHeader header) {
    if (Deduplication.answered(site, header, this, invocation, done)) {
      return;
    }
    ClientResponse response;
    try {
      final CompiledProcedure procedure = site.resolve(invocation.procedure(), admitted, admittedVersion);
      response = site.context().run(procedure, invocation, header, done instanceof ResponseBytesConsumer);
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
    return singlePartition(header, invocation);
  }

  /** The log form of a single-partition item running {@code invocation} under {@code header}. */
  static org.partita.proto.txn.WorkItem singlePartition(TxnHeader header, Invocation invocation) {
    return org.partita.proto.txn.WorkItem.newBuilder().setHeader(header.toProto())
        .setSinglePartition(invocation.toProto()).build();
  }
}
