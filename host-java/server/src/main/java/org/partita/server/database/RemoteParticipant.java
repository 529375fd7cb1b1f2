package org.partita.server.database;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.CompletableFuture;
import org.partita.proto.ErrorCode;
import org.partita.proto.cluster.FragmentAnswer;
import org.partita.proto.cluster.FragmentRelease;
import org.partita.proto.cluster.RemoteError;
import org.partita.server.engine.BatchRequestWriter;
import org.partita.server.error.ServerException;

/**
 * A partition another host leads, as the coordinator sees it in a
 * multi-partition transaction (docs/cluster.md, "Multi-partition
 * transactions"): every step is a {@code FragmentRequest} to that host,
 * whose {@link FragmentServer} serves it through a {@link LocalParticipant}
 * on the partition's site. The join is sent when this object is made, so
 * the partition takes its place in its order at once.
 *
 * <p>Thread model: as {@link Participant}: the coordinator thread calls,
 * the transport's threads complete the futures.
 */
final class RemoteParticipant implements Participant {
  private final int partition;
  private final int host;
  /** The wire form of a step (proto/cluster.proto), without its step. */
  private final org.partita.proto.cluster.FragmentRequest prototype;
  private final HostTransport transport;
  private final BatchRequestWriter writer;
  private final CompletableFuture<FragmentAnswer> joined;

  /**
   * Joins {@code txn} on {@code partition}, led by {@code host}; {@code writer} (the coordinator's
   * own detached writer) encodes the batches.
   */
  RemoteParticipant(int partition, int host, int coordinatorHost, MultiPartitionTxn txn, HostTransport transport,
      BatchRequestWriter writer) {
    this.partition = partition;
    this.host = host;
    this.transport = transport;
    this.writer = writer;
    this.prototype = org.partita.proto.cluster.FragmentRequest.newBuilder().setCoordinatorHostId(coordinatorHost)
        .setPartition(partition).setTransaction(txn.header().toProto()).buildPartial();
    this.joined = transport.send(host, prototype.toBuilder().setJoin(txn.toProto()).build());
  }

  @Override
  public int partition() {
    return partition;
  }

  @Override
  public CompletableFuture<ByteBuffer> execute(FragmentRequest request) {
    final byte[] batch;
    try {
      request.writeTo(writer, false);
      batch = writer.toByteArray();
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    return step(prototype.toBuilder().setBatch(com.google.protobuf.ByteString.copyFrom(batch)).build())
        .thenApply(answer -> {
          if (!answer.hasResult()) {
            throw unexpected(answer);
          }
          return ByteBuffer.wrap(answer.getResult().toByteArray()).order(ByteOrder.LITTLE_ENDIAN);
        });
  }

  @Override
  public CompletableFuture<Void> prepare() {
    return done(prototype.toBuilder().setPrepare(org.partita.proto.cluster.FragmentPrepare.getDefaultInstance())
        .build(), false);
  }

  @Override
  public CompletableFuture<Void> finish(boolean commit) {
    // A roll back (and a release) of a partition whose join was refused has nothing to undo there.
    return done(prototype.toBuilder().setCommit(commit).build(), !commit);
  }

  /**
   * The leader's host takes the catalog the joined schema change makes, compiled there from its DDL
   * ({@link CatalogVersions}); {@code next} and {@code engineCatalog} stay here.
   */
  @Override
  public CompletableFuture<Void> applyCatalog(CatalogSnapshot next, byte[] engineCatalog) {
    return done(prototype.toBuilder().setApplyCatalog(org.partita.proto.cluster.FragmentApplyCatalog.newBuilder()
        .setCatalogVersion(next.version())).build(), false);
  }

  @Override
  public CompletableFuture<Void> release() {
    return done(prototype.toBuilder().setRelease(FragmentRelease.getDefaultInstance()).build(), true);
  }

  /** Sends a step whose answer is "done" (or an error); {@code evenIfNotJoined}: a refused join is no error. */
  private CompletableFuture<Void> done(org.partita.proto.cluster.FragmentRequest request, boolean evenIfNotJoined) {
    final CompletableFuture<FragmentAnswer> sent = evenIfNotJoined ? transport.send(host, request) : step(request);
    return sent.thenApply(answer -> {
      if (evenIfNotJoined && answer.hasError() && joined.isDone() && joined.join().hasError()) {
        return null;
      }
      throwIfError(answer);
      if (!answer.hasDone()) {
        throw unexpected(answer);
      }
      return null;
    });
  }

  /** Sends a step; an error answer (of the join first, then of the step) fails the future with it. */
  private CompletableFuture<FragmentAnswer> step(org.partita.proto.cluster.FragmentRequest request) {
    final CompletableFuture<FragmentAnswer> sent = transport.send(host, request);
    return joined.thenCombine(sent, (join, answer) -> {
      throwIfError(join);
      throwIfError(answer);
      return answer;
    });
  }

  private static void throwIfError(FragmentAnswer answer) {
    if (answer.hasError()) {
      throw error(answer.getError());
    }
  }

  /** The host's error as this host's exception (its code kept when known). */
  static ServerException error(RemoteError error) {
    final ErrorCode code = ErrorCode.forNumber(error.getErrorCode());
    return new ServerException(code == null || code == ErrorCode.UNRECOGNIZED ? ErrorCode.ERROR_CODE_INTERNAL : code,
        error.getMessage());
  }

  private ServerException unexpected(FragmentAnswer answer) {
    return new ServerException(ErrorCode.ERROR_CODE_INTERNAL, "host " + host + " answered a step of partition "
        + partition + " with " + answer.getOutcomeCase());
  }
}
