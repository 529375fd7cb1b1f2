package org.partita.server.cluster;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.client.RaftClientConfigKeys;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.util.TimeDuration;
import org.partita.proto.cluster.CurrentMap;
import org.partita.proto.cluster.CurrentState;
import org.partita.proto.cluster.MetadataCommand;
import org.partita.proto.cluster.MetadataQuery;
import org.partita.proto.cluster.MetadataReply;

/**
 * Sends commands and reads to the metadata group: finds its leader and
 * follows it when it changes (Ratis's NotLeaderException handling), retrying
 * every 100 ms for at most {@code retryFor}, then throwing.
 *
 * <p>Owns one Ratis client; {@link #close} releases it. Thread-safe (the
 * Ratis client is).
 */
public final class MetadataClient implements AutoCloseable {
  private static final long RETRY_INTERVAL_MS = 100;

  private final RaftClient client;

  public MetadataClient(MetadataGroup group, Duration retryFor) {
    this(group, retryFor, null);
  }

  /** A client speaking mutual TLS with {@code tls}'s files to the voters (null: plain gRPC). */
  MetadataClient(MetadataGroup group, Duration retryFor, ClusterTls tls) {
    final RaftProperties properties = group.properties();
    RaftClientConfigKeys.Rpc.setRequestTimeout(properties,
        TimeDuration.valueOf(group.electionTimeoutMax().toMillis() * 3, TimeUnit.MILLISECONDS));
    final int attempts = (int) Math.max(1, retryFor.toMillis() / RETRY_INTERVAL_MS);
    this.client = RaftClient.newBuilder()
        .setRaftGroup(group.raftGroup())
        .setProperties(properties)
        .setParameters(ClusterTls.ratisParameters(tls))
        .setRetryPolicy(RetryPolicies.retryUpToMaximumCountWithFixedSleep(attempts,
            TimeDuration.valueOf(RETRY_INTERVAL_MS, TimeUnit.MILLISECONDS)))
        .build();
  }

  /** Commits {@code command} through the group and returns the state machine's reply. */
  public MetadataReply send(MetadataCommand command) throws IOException {
    return reply(client.io().send(MetadataStateMachine.toMessage(command)));
  }

  /** The current map, read at the group's leader. */
  public MetadataReply currentMap() throws IOException {
    final MetadataQuery query = MetadataQuery.newBuilder().setCurrentMap(CurrentMap.getDefaultInstance()).build();
    return reply(client.io().sendReadOnly(MetadataStateMachine.toMessage(query)));
  }

  /** The whole metadata, read at the group's leader. */
  public MetadataReply currentState() throws IOException {
    final MetadataQuery query = MetadataQuery.newBuilder().setCurrentState(CurrentState.getDefaultInstance()).build();
    return reply(client.io().sendReadOnly(MetadataStateMachine.toMessage(query)));
  }

  /**
   * Asks the group's leader to take a snapshot now, however few entries came since the last (Ratis then
   * purges the log up to it); returns its log index.
   */
  public long takeSnapshot() throws IOException {
    final RaftClientReply reply = client.getSnapshotManagementApi().create(1, 30_000);
    if (!reply.isSuccess()) {
      throw new IOException("the metadata group did not take a snapshot", reply.getException());
    }
    return reply.getLogIndex();
  }

  private static MetadataReply reply(RaftClientReply reply) throws IOException {
    if (!reply.isSuccess()) {
      throw new IOException("the metadata group failed the request", reply.getException());
    }
    final Message message = reply.getMessage();
    return MetadataReply.parseFrom(message.getContent().toByteArray());
  }

  @Override
  public void close() throws IOException {
    client.close();
  }
}
