package org.partita.server.cluster;

import java.util.concurrent.CompletableFuture;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.partita.proto.cluster.MetadataQuery;
import org.partita.proto.cluster.MetadataReply;
import org.partita.server.topology.PartitionMap;

/**
 * The metadata group's Ratis state machine: applies each committed
 * {@code MetadataCommand} to a {@link MetadataState} in log order and
 * answers {@code MetadataQuery} reads from it. Messages cross Ratis as the
 * bytes of the {@code proto/cluster.proto} messages (Ratis carries its own
 * shaded protobuf, so the two never share classes).
 *
 * <p>No snapshot yet: on restart Ratis replays the whole log (docs/cluster.md,
 * "What the next step builds first"). Owned by one {@link MetadataServer};
 * Ratis calls {@code applyTransaction} on its one state-machine thread and
 * {@code query} on its RPC threads; {@link #map} may be read from any thread.
 */
final class MetadataStateMachine extends BaseStateMachine {
  private final MetadataState state = new MetadataState();

  /** The map applied so far on this voter, or null before the first install. */
  PartitionMap map() {
    return state.map();
  }

  @Override
  public CompletableFuture<Message> applyTransaction(TransactionContext transaction) {
    final LogEntryProto entry = transaction.getLogEntry();
    final MetadataReply reply = state.apply(entry.getStateMachineLogEntry().getLogData().toByteArray(),
        entry.getIndex());
    updateLastAppliedTermIndex(entry.getTerm(), entry.getIndex());
    return CompletableFuture.completedFuture(toMessage(reply));
  }

  @Override
  public CompletableFuture<Message> query(Message request) {
    final MetadataQuery query;
    try {
      query = MetadataQuery.parseFrom(request.getContent().toByteArray());
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      return CompletableFuture.failedFuture(new IllegalArgumentException("malformed metadata query: "
          + e.getMessage(), e));
    }
    return switch (query.getQueryCase()) {
      case CURRENT_MAP -> CompletableFuture.completedFuture(toMessage(state.current()));
      case QUERY_NOT_SET -> CompletableFuture.failedFuture(new IllegalArgumentException("empty metadata query"));
    };
  }

  static Message toMessage(com.google.protobuf.MessageLite message) {
    return Message.valueOf(ByteString.copyFrom(message.toByteArray()));
  }
}
