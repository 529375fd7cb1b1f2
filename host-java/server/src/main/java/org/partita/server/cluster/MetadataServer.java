package org.partita.server.cluster;

import java.io.File;
import java.io.IOException;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.server.storage.RaftStorage;
import org.partita.server.topology.PartitionMap;

/**
 * One voter of the metadata group (docs/cluster.md, "Control plane"): a
 * Ratis server over gRPC bound to this host's address and metadata port
 * only, its Raft log in its own directory, running a
 * {@link MetadataStateMachine}. Joins the group as {@link MetadataGroup}
 * lists it, starting from an empty directory or recovering the log it finds
 * there.
 *
 * <p>Owns its Ratis server and its threads; {@link #close} stops them.
 * Thread-safe: the accessors read Ratis's state and the state machine's
 * volatile map.
 */
public final class MetadataServer implements AutoCloseable {
  /**
   * Ratis logs every election and appender step at INFO; the server's log
   * takes its warnings and errors only. Held here so that the level stays
   * (java.util.logging keeps loggers weakly).
   */
  private static final Logger RATIS_LOG = Logger.getLogger("org.apache.ratis");

  static {
    RATIS_LOG.setLevel(Level.WARNING);
  }

  private final MetadataPeer self;
  private final RaftServer server;
  private final MetadataStateMachine stateMachine;

  private MetadataServer(MetadataPeer self, RaftServer server, MetadataStateMachine stateMachine) {
    this.self = self;
    this.server = server;
    this.stateMachine = stateMachine;
  }

  /**
   * Starts the voter {@code selfId} of {@code group}, its log under
   * {@code storageDir} (created if absent; never shared with another voter).
   */
  public static MetadataServer start(MetadataGroup group, String selfId, File storageDir) throws IOException {
    return start(group, selfId, storageDir, null);
  }

  /**
   * {@link #start(MetadataGroup, String, File)} speaking mutual TLS with {@code tls}'s files (null: plain gRPC,
   * for a trusted network): a peer or client without a certificate of the cluster's authorities cannot reach it.
   */
  static MetadataServer start(MetadataGroup group, String selfId, File storageDir, ClusterTls tls)
      throws IOException {
    final MetadataPeer self = group.peer(selfId);
    final RaftProperties properties = group.properties();
    RaftServerConfigKeys.setStorageDir(properties, List.of(storageDir));
    final String host = self.address().getAddress().getHostAddress();
    final int port = self.address().getPort();
    // Server, admin and client services on the one address and port.
    GrpcConfigKeys.Server.setHost(properties, host);
    GrpcConfigKeys.Server.setPort(properties, port);
    GrpcConfigKeys.Admin.setHost(properties, host);
    GrpcConfigKeys.Admin.setPort(properties, port);
    GrpcConfigKeys.Client.setHost(properties, host);
    GrpcConfigKeys.Client.setPort(properties, port);
    final MetadataStateMachine stateMachine = new MetadataStateMachine();
    final RaftServer server = RaftServer.newBuilder()
        .setServerId(RaftPeerId.valueOf(selfId))
        .setGroup(group.raftGroup())
        .setProperties(properties)
        .setParameters(ClusterTls.ratisParameters(tls))
        .setStateMachine(stateMachine)
        .setOption(RaftStorage.StartupOption.RECOVER)
        .build();
    try {
      server.start();
    } catch (IOException | RuntimeException e) {
      server.close();
      throw e;
    }
    return new MetadataServer(self, server, stateMachine);
  }

  public MetadataPeer peer() {
    return self;
  }

  /** True while this voter leads the metadata group. */
  public boolean isLeader() {
    try {
      return server.getDivision(MetadataGroup.GROUP_ID).getInfo().isLeader();
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * The host leading the metadata group as this voter knows it (voters are
   * named by their host ids), or -1 while it knows none.
   */
  public int leaderHost() {
    try {
      final RaftPeerId id = server.getDivision(MetadataGroup.GROUP_ID).getInfo().getLeaderId();
      return id == null ? -1 : Integer.parseInt(id.toString());
    } catch (IOException | NumberFormatException e) {
      return -1;
    }
  }

  /** The whole metadata this voter has applied so far. */
  public org.partita.proto.cluster.MetadataSnapshot appliedState() {
    return stateMachine.state();
  }

  /**
   * Calls {@code onChange} with the metadata after every command this voter
   * applies (on Ratis's state-machine thread: it must not block).
   */
  public void listen(java.util.function.Consumer<org.partita.proto.cluster.MetadataSnapshot> onChange) {
    stateMachine.listen(onChange);
  }

  /** The partition map this voter has applied so far, or null before the first install. */
  public PartitionMap appliedMap() {
    return stateMachine.map();
  }

  @Override
  public void close() throws IOException {
    server.close();
  }
}
