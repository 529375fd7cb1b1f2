package org.partita.server.database;

import org.partita.proto.txn.MultiPartitionJoin.Builder;
import org.partita.proto.txn.SchemaChange;
import org.partita.server.txn.Invocation;
import org.partita.server.txn.TxnHeader;

/**
 * A multi-partition transaction as the coordinator sequenced it: its
 * header (a TxnId of the coordinator's own partition number) and what it
 * runs — a client's invocation, or a schema change. Immutable.
 *
 * @param invocation the call it runs; null for a schema change
 * @param schemaChange the change it applies; null for a call
 */
record MultiPartitionTxn(TxnHeader header, Invocation invocation, SchemaChange schemaChange) {
  /** The part every participant logs when it joins. */
  org.partita.proto.txn.MultiPartitionJoin toProto() {
    final Builder join = org.partita.proto.txn.MultiPartitionJoin.newBuilder().setCoordinator(header.toProto());
    if (invocation != null) {
      join.setInvocation(invocation.toProto());
    } else {
      join.setSchemaChange(schemaChange);
    }
    return join.build();
  }
}
