package org.partita.server.cluster;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.logging.Logger;
import org.apache.ratis.io.MD5Hash;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.storage.FileInfo;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.statemachine.impl.SimpleStateMachineStorage;
import org.apache.ratis.statemachine.impl.SingleFileSnapshotInfo;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.util.MD5FileUtil;
import org.partita.proto.cluster.MetadataQuery;
import org.partita.proto.cluster.MetadataReply;
import org.partita.proto.cluster.MetadataSnapshot;
import org.partita.server.topology.PartitionMap;

/**
 * The metadata group's Ratis state machine: applies each committed
 * {@code MetadataCommand} to a {@link MetadataState} in log order, answers
 * {@code MetadataQuery} reads from it, and saves and loads it as one
 * {@code MetadataSnapshot} file (Ratis's single-file snapshot storage, with
 * its MD5 file), so Ratis can purge the log up to a snapshot and a restarted
 * voter loads the snapshot, then replays only the log after it. Messages
 * cross Ratis as the bytes of the {@code proto/cluster.proto} messages
 * (Ratis carries its own shaded protobuf, so the two never share classes).
 *
 * <p>Owned by one {@link MetadataServer}. Ratis calls
 * {@code applyTransaction}, {@code takeSnapshot} and {@code reinitialize} on
 * its one state-machine thread and {@code query} on its RPC threads;
 * {@link #map} and {@link #state} may be read from any thread. The listener
 * runs on the state-machine thread after every applied command and must
 * not block.
 */
final class MetadataStateMachine extends BaseStateMachine {
  private static final Logger LOG = Logger.getLogger(MetadataStateMachine.class.getName());
  /** What takeSnapshot returns when nothing was applied yet (Ratis's invalid log index). */
  private static final long NO_SNAPSHOT = -1;
  private final MetadataState state = new MetadataState();
  private final SimpleStateMachineStorage storage = new SimpleStateMachineStorage();
  private volatile Consumer<MetadataSnapshot> listener = s -> { };

  /** The map applied so far on this voter, or null before the first install. */
  PartitionMap map() {
    return state.map();
  }

  /** The whole metadata applied so far on this voter. */
  MetadataSnapshot state() {
    return state.snapshot();
  }

  /** Calls {@code onChange} with the state after every applied command (and loaded snapshot). */
  void listen(Consumer<MetadataSnapshot> onChange) {
    listener = onChange;
  }

  @Override
  public void initialize(RaftServer server, RaftGroupId groupId, RaftStorage raftStorage) throws IOException {
    super.initialize(server, groupId, raftStorage);
    storage.init(raftStorage);
    load(storage.getLatestSnapshot());
  }

  @Override
  public void reinitialize() throws IOException {
    load(storage.loadLatestSnapshot());
  }

  @Override
  public StateMachineStorage getStateMachineStorage() {
    return storage;
  }

  private void load(SingleFileSnapshotInfo snapshot) throws IOException {
    if (snapshot == null) {
      return;
    }
    final File file = snapshot.getFile().getPath().toFile();
    final MD5Hash expected = snapshot.getFile().getFileDigest();
    if (expected != null && !expected.equals(MD5FileUtil.computeMd5ForFile(file))) {
      throw new IOException("metadata snapshot " + file + " does not match its MD5 file");
    }
    final MetadataSnapshot saved = MetadataSnapshot.parseFrom(Files.readAllBytes(file.toPath()));
    try {
      state.restore(saved);
    } catch (IllegalArgumentException e) {
      throw new IOException("metadata snapshot " + file + " holds an invalid map: " + e.getMessage(), e);
    }
    setLastAppliedTermIndex(snapshot.getTermIndex());
    LOG.info("metadata snapshot loaded: " + file.getName() + " (applied index " + saved.getAppliedIndex() + ")");
    listener.accept(state.snapshot());
  }

  @Override
  public long takeSnapshot() throws IOException {
    final TermIndex last = getLastAppliedTermIndex();
    if (last == null || last.getIndex() < 0) {
      return NO_SNAPSHOT;
    }
    final File file = storage.getSnapshotFile(last.getTerm(), last.getIndex());
    final File tmp = new File(file.getPath() + ".tmp");
    Files.write(tmp.toPath(), state.snapshot().toByteArray());
    Files.move(tmp.toPath(), file.toPath(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    final MD5Hash md5 = MD5FileUtil.computeAndSaveMd5ForFile(file);
    storage.updateLatestSnapshot(new SingleFileSnapshotInfo(new FileInfo(file.toPath(), md5), last));
    return last.getIndex();
  }

  @Override
  public CompletableFuture<Message> applyTransaction(TransactionContext transaction) {
    final LogEntryProto entry = transaction.getLogEntry();
    final MetadataReply reply = state.apply(entry.getStateMachineLogEntry().getLogData().toByteArray(),
        entry.getIndex());
    updateLastAppliedTermIndex(entry.getTerm(), entry.getIndex());
    listener.accept(reply.getState());
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
      case CURRENT_MAP, CURRENT_STATE -> CompletableFuture.completedFuture(toMessage(state.current()));
      case QUERY_NOT_SET -> CompletableFuture.failedFuture(new IllegalArgumentException("empty metadata query"));
    };
  }

  static Message toMessage(com.google.protobuf.MessageLite message) {
    return Message.valueOf(ByteString.copyFrom(message.toByteArray()));
  }
}
