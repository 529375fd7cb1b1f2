package org.partita.server.txn;

/**
 * What an initiator fixes for one transaction when it sequences it, so that
 * every place the transaction runs (the leader, its replicas, recovery)
 * runs it the same way: its id, its timestamp, the seed of its random
 * generator and the catalog version it runs against. Immutable; its wire
 * form is {@code partita.txn.TxnHeader} (proto/txn.proto).
 */
public record TxnHeader(TxnId id, long timestampMicros, long seed, long catalogVersion) {
  /** The protobuf form, for the command log and replication. */
  public org.partita.proto.txn.TxnHeader toProto() {
    return org.partita.proto.txn.TxnHeader.newBuilder()
        .setPartition(id.partition())
        .setEpoch(id.epoch())
        .setSequence(id.sequence())
        .setTimestampMicros(timestampMicros)
        .setSeed(seed)
        .setCatalogVersion(catalogVersion)
        .build();
  }

  /** The header {@code proto} describes. */
  public static TxnHeader fromProto(org.partita.proto.txn.TxnHeader proto) {
    return new TxnHeader(new TxnId(proto.getPartition(), proto.getEpoch(), proto.getSequence()),
        proto.getTimestampMicros(), proto.getSeed(), proto.getCatalogVersion());
  }
}
