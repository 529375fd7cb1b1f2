package org.partita.server.txn;

import com.google.protobuf.CodedOutputStream;
import java.io.IOException;

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

  /** The size of {@link #writeProto}'s bytes. */
  public int protoSize() {
    return (id.partition() == 0 ? 0 : CodedOutputStream.computeUInt32Size(1, id.partition()))
        + (id.epoch() == 0 ? 0 : CodedOutputStream.computeUInt64Size(2, id.epoch()))
        + (id.sequence() == 0 ? 0 : CodedOutputStream.computeUInt64Size(3, id.sequence()))
        + (timestampMicros == 0 ? 0 : CodedOutputStream.computeSInt64Size(4, timestampMicros))
        + (seed == 0 ? 0 : CodedOutputStream.computeUInt64Size(5, seed))
        + (catalogVersion == 0 ? 0 : CodedOutputStream.computeUInt64Size(6, catalogVersion));
  }

  /**
   * Writes the bytes of {@link #toProto} without building it (a leader's
   * replicated items): each field left out when it holds its default, as
   * protobuf does.
   */
  public void writeProto(CodedOutputStream out) throws IOException {
    if (id.partition() != 0) {
      out.writeUInt32(1, id.partition());
    }
    if (id.epoch() != 0) {
      out.writeUInt64(2, id.epoch());
    }
    if (id.sequence() != 0) {
      out.writeUInt64(3, id.sequence());
    }
    if (timestampMicros != 0) {
      out.writeSInt64(4, timestampMicros);
    }
    if (seed != 0) {
      out.writeUInt64(5, seed);
    }
    if (catalogVersion != 0) {
      out.writeUInt64(6, catalogVersion);
    }
  }

  /** The header {@code proto} describes. */
  public static TxnHeader fromProto(org.partita.proto.txn.TxnHeader proto) {
    return new TxnHeader(new TxnId(proto.getPartition(), proto.getEpoch(), proto.getSequence()),
        proto.getTimestampMicros(), proto.getSeed(), proto.getCatalogVersion());
  }
}
