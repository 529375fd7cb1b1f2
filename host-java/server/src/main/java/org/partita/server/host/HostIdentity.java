package org.partita.server.host;

import java.util.List;
import java.util.function.Supplier;
import org.partita.client.PartitionHash;
import org.partita.client.proto.HashSpecification;
import org.partita.client.proto.Host;
import org.partita.client.proto.LoginResponse;
import org.partita.client.proto.LoginStatus;
import org.partita.client.proto.ProcedureRouting;
import org.partita.client.proto.ProtocolVersion;
import org.partita.client.proto.Topology;
import org.partita.server.compiler.CompiledCatalog;
import org.partita.server.compiler.CompiledProcedure;
import org.partita.server.database.Database;
import org.partita.server.network.LoginInfo;

/**
 * This host as clients see it at login: one host (id 0) leading every
 * partition, or on a cluster host its own id and every host of the cluster
 * with the partition map; the partition hash, and a route for each procedure
 * of the current catalog. Thread-safe.
 */
final class HostIdentity implements LoginInfo {
  static final String SERVER_VERSION = "Partita 0.1";
  static final String HASH_ALGORITHM = "fnv1a64-fmix64";
  static final int HOST_ID = 0;

  private final Database database;
  private final String address;
  private final int maxFrameBytes;
  private volatile int clientPort;
  private volatile int httpPort;
  /** This host's id: 0 on a single host, its position in --cluster on a cluster host. */
  private volatile int hostId = HOST_ID;
  /** Every host of the cluster as clients reach it, or null on a single host. */
  private volatile Supplier<List<Host>> clusterHosts;

  HostIdentity(Database database, String address, int maxFrameBytes) {
    this.database = database;
    this.address = address;
    this.maxFrameBytes = maxFrameBytes;
  }

  /** Records the ports the listeners bound (httpPort -1: none). */
  void bound(int boundClientPort, int boundHttpPort) {
    this.clientPort = boundClientPort;
    this.httpPort = boundHttpPort;
  }

  /** Makes this host host {@code id} of a cluster whose hosts {@code hosts} lists (at each login). */
  void joinCluster(int id, Supplier<List<Host>> hosts) {
    this.hostId = id;
    this.clusterHosts = hosts;
  }

  /** This host's id. */
  int hostId() {
    return hostId;
  }

  @Override
  public LoginResponse successfulLogin(long connectionId) {
    final long version = database.catalogVersion();
    final CompiledCatalog catalog = database.catalog();
    final LoginResponse.Builder answer = LoginResponse.newBuilder()
        .setStatus(LoginStatus.LOGIN_STATUS_OK)
        .setProtocolVersion(ProtocolVersion.PROTOCOL_VERSION_1_VALUE)
        .setHostId(hostId)
        .setConnectionId(connectionId)
        .setTopology(topology())
        .setHash(HashSpecification.newBuilder().setAlgorithm(HASH_ALGORITHM).setBucketBits(PartitionHash.BUCKET_BITS))
        .setCatalogVersion(version)
        .setServerVersion(SERVER_VERSION)
        .setMaxFrameBytes(maxFrameBytes);
    for (CompiledProcedure p : catalog.procedures().values()) {
      answer.addProcedures(route(p));
    }
    return answer.build();
  }

  private Topology topology() {
    final Supplier<List<Host>> cluster = clusterHosts;
    final Topology.Builder t = cluster != null ? Topology.newBuilder().addAllHosts(cluster.get())
        : Topology.newBuilder().addHosts(Host.newBuilder().setHostId(HOST_ID).setAddress(address)
            .setClientPort(clientPort).setHttpPort(Math.max(httpPort, 0)));
    return database.partitionMap().fill(t).build();
  }

  private static ProcedureRouting route(CompiledProcedure p) {
    final ProcedureRouting.Builder r = ProcedureRouting.newBuilder().setName(p.name()).setSinglePartition(p.singlePartition());
    if (p.singlePartition()) {
      r.setPartitionParameter(p.partition().parameterIndex()).setPartitionType(p.partition().columnType().getNumber());
    }
    return r.build();
  }

  @Override
  public long catalogVersion() {
    return database.catalogVersion();
  }

  @Override
  public long topologyVersion() {
    return database.partitionMap().version();
  }
}
