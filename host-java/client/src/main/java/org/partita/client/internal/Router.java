package org.partita.client.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.partita.client.ClusterTopology;
import org.partita.client.PartitionHash;
import org.partita.client.proto.Host;
import org.partita.client.proto.LoginResponse;

/**
 * Chooses the connection for each call. A single-partition procedure's call
 * goes to the connection of the host leading the partition its partitioning
 * parameter hashes to (docs/partition-hash.md); every other call — and any
 * call whose partition or leader connection is unknown — goes round-robin to
 * any connection that is up. Routing is an optimisation: the server always
 * checks and forwards.
 *
 * <p>Thread model: {@link #choose} is lock-free and reads immutable
 * snapshots through volatile fields; updates (logins, connections going up
 * or down, new routes) are synchronized and replace the snapshots.
 */
public final class Router {
  private static final String HASH_ALGORITHM = "fnv1a64-fmix64";
  private static final Connection[] NONE = new Connection[0];
  /** Host ids at or above this are not indexed (their calls go round-robin). */
  private static final int MAX_HOST_ID = 4096;

  private final CopyOnWriteArrayList<Connection> all = new CopyOnWriteArrayList<>();
  private final AtomicInteger roundRobin = new AtomicInteger();
  private volatile Routes routes = Routes.EMPTY;
  // Partition → leader host id; empty when the client cannot route.
  private volatile int[] leaders = new int[0];
  // Bucket → partition, from the login's topology (bucket mod partition count when it sent none).
  private volatile int[] bucketPartitions = new int[0];
  private volatile Map<Integer, String> hosts = Map.of();
  /** The version of the topology the leaders came from (a login's, or a newer one followed). */
  private volatile long topologyVersion;
  private volatile Connection[] up = NONE;
  private volatile Connection[] byHostId = NONE;

  /**
   * The connection for {@code call}, or null when no connection is up. Fixes
   * the call's routed partition either way.
   */
  public Connection choose(PendingCall call) {
    final Connection[] live = up;
    if (live.length == 0) {
      call.route(0);
      return null;
    }
    final int[] leaderIds = leaders;
    final int partition = partitionOf(call.procedure, call.parameters, bucketPartitions);
    call.multiPartitionProcedure = partition < 0 && multiPartitionProcedure(call.procedure);
    if (partition >= 0) {
      final int leader = leaderIds[partition];
      final Connection[] hostConnections = byHostId;
      if (leader >= 0 && leader < hostConnections.length && hostConnections[leader] != null && hostConnections[leader].isUp()) {
        call.route(partition + 1);
        return hostConnections[leader];
      }
    }
    call.route(partition + 1);
    if (partition >= 0) {
      return live[Math.floorMod(roundRobin.getAndIncrement(), live.length)];
    }
    // Not routable here (an ad-hoc statement, a call that needs every partition): the first send goes round-robin,
    // each resend after NOT_LEADER to the next connection, so a single-partition statement reaches its leader's
    // host within as many sends as there are hosts.
    if (call.unroutedSlot < 0) {
      call.unroutedSlot = Math.floorMod(roundRobin.getAndIncrement(), live.length);
    }
    return live[Math.floorMod(call.unroutedSlot + call.resends(), live.length)];
  }

  /**
   * The connection to the host that leads {@code partition} by the topology
   * followed, whether it is up or not; null when there is none (not routed,
   * or no connection to that host was ever logged in).
   */
  public Connection leaderConnection(int partition) {
    final int[] leaderIds = leaders;
    if (partition < 0 || partition >= leaderIds.length) {
      return null;
    }
    for (Connection c : all) {
      if (c.hostId() == leaderIds[partition]) {
        return c;
      }
    }
    return null;
  }

  /** Every connection waiting to reconnect dials now ({@link Connection#reconnectNow}). */
  private void reconnectDown() {
    for (Connection c : all) {
      if (!c.isUp()) {
        c.reconnectNow();
      }
    }
  }

  /** How many connections are up now. */
  public int connectionsUp() {
    return up.length;
  }

  /**
   * The partition a call of {@code procedure} with {@code parameters} is
   * routed to now, by the topology and routes this client knows, or -1 when
   * it is not routed (not single-partition, a system procedure, a value the
   * client cannot hash, or no routes yet). Any thread.
   */
  public int partitionOf(String procedure, Object[] parameters) {
    return partitionOf(procedure, parameters, bucketPartitions);
  }

  /** True when {@code procedure} is a multi-partition procedure of the routes this client knows (not a system one). */
  boolean multiPartitionProcedure(String procedure) {
    if (procedure.startsWith("@")) {
      return false;
    }
    final ProcedureRoute route = routes.find(procedure);
    return route != null && !route.singlePartition();
  }

  /** The partition {@code procedure}'s call with {@code parameters} runs on (through {@code buckets}), or -1. */
  int partitionOf(String procedure, Object[] parameters, int[] buckets) {
    if (buckets.length == 0 || procedure.startsWith("@")) {
      return -1;
    }
    final ProcedureRoute route = routes.find(procedure);
    if (route == null || !route.singlePartition() || route.parameterIndex() >= parameters.length) {
      return -1;
    }
    final int bucket = PartitionKey.bucket(parameters[route.parameterIndex()], route.partitionType());
    return bucket == PartitionKey.NULL_VALUE ? 0 : bucket == PartitionKey.UNROUTABLE ? -1 : buckets[bucket];
  }

  public long catalogVersion() {
    return routes.catalogVersion();
  }

  /** The version of the topology calls are routed by. */
  public long topologyVersion() {
    return topologyVersion;
  }

  /**
   * Routes by {@code newerLeaders} (partition → leader host id) from now on,
   * if {@code version} is newer than the topology routed by and names the
   * same partitions (a failover moved leaders; the bucket table stays); then
   * every connection waiting to reconnect dials at once.
   */
  public synchronized void followLeaders(int[] newerLeaders, long version) {
    if (version > topologyVersion && newerLeaders.length == leaders.length) {
      leaders = newerLeaders.clone();
      topologyVersion = version;
      // A newer map: a host that came back may lead now, so a connection waiting to reconnect tries at once.
      reconnectDown();
    }
  }

  public void add(Connection c) {
    all.add(c);
  }

  public synchronized void remove(Connection c) {
    all.remove(c);
    rebuildConnections();
  }

  /** A connection logged in: its topology becomes the client's, and its routes too unless older. */
  public synchronized void loggedIn(LoginResponse login) {
    final var topology = login.getTopology();
    final boolean hashKnown = HASH_ALGORITHM.equals(login.getHash().getAlgorithm())
        && login.getHash().getBucketBits() == PartitionHash.BUCKET_BITS;
    final int count = topology.getPartitionCount();
    final boolean usable = hashKnown && count > 0 && topology.getPartitionLeadersCount() == count;
    final int[] leaderIds = new int[usable ? count : 0];
    for (int p = 0; p < leaderIds.length; p++) {
      leaderIds[p] = topology.getPartitionLeaders(p);
    }
    final int[] buckets = usable ? bucketTable(topology) : new int[0];
    final Map<Integer, String> hostMap = new HashMap<>();
    for (Host h : topology.getHostsList()) {
      hostMap.put(h.getHostId(), h.getAddress() + ":" + h.getClientPort());
    }
    if (topology.getTopologyVersion() < topologyVersion && leaders.length == leaderIds.length) {
      // A host that has not followed a newer map yet (a stale or stopped host): keep the newer leaders.
      install(Routes.fromLogin(login.getProceduresList(), login.getCatalogVersion()));
      rebuildConnections();
      return;
    }
    topologyVersion = topology.getTopologyVersion();
    leaders = leaderIds;
    bucketPartitions = buckets;
    hosts = hostMap;
    install(Routes.fromLogin(login.getProceduresList(), login.getCatalogVersion()));
    rebuildConnections();
  }

  /**
   * The topology's bucket → partition table; bucket mod partition count when
   * the server sent none (servers before protocol v2). An entry naming no
   * partition of the topology makes the whole table unusable (empty: calls go
   * round-robin and the server routes them).
   */
  static int[] bucketTable(org.partita.client.proto.Topology topology) {
    final int count = topology.getPartitionCount();
    final int[] table = new int[PartitionHash.BUCKETS];
    if (topology.getBucketPartitionsCount() == 0) {
      for (int b = 0; b < table.length; b++) {
        table[b] = b % count;
      }
      return table;
    }
    if (topology.getBucketPartitionsCount() != table.length) {
      return new int[0];
    }
    for (int b = 0; b < table.length; b++) {
      final int partition = topology.getBucketPartitions(b);
      if (partition < 0 || partition >= count) {
        return new int[0];
      }
      table[b] = partition;
    }
    return table;
  }

  /** Replaces the routes iff {@code newer} belongs to a newer catalog version (or the same). */
  public synchronized void install(Routes newer) {
    if (newer.catalogVersion() >= routes.catalogVersion()) {
      routes = newer;
    }
  }

  /** Recomputes which connections are up and which host each reaches. */
  public synchronized void rebuildConnections() {
    final List<Connection> live = new ArrayList<>();
    int maxHost = -1;
    for (Connection c : all) {
      if (c.isUp()) {
        live.add(c);
        if (c.hostId() >= 0 && c.hostId() < MAX_HOST_ID) {
          maxHost = Math.max(maxHost, c.hostId());
        }
      }
    }
    final Connection[] hostsToConnections = new Connection[maxHost + 1];
    for (Connection c : live) {
      if (c.hostId() >= 0 && c.hostId() <= maxHost) {
        hostsToConnections[c.hostId()] = c;
      }
    }
    byHostId = hostsToConnections;
    up = live.toArray(NONE);
  }

  public boolean anyUp() {
    return up.length > 0;
  }

  public List<String> connectedServers() {
    final List<String> names = new ArrayList<>();
    for (Connection c : up) {
      names.add(c.address().toString());
    }
    return names;
  }

  public ClusterTopology topology() {
    final List<Integer> leaderList = new ArrayList<>();
    for (int id : leaders) {
      leaderList.add(id);
    }
    final Routes r = routes;
    return new ClusterTopology(leaderList.size(), leaderList, hosts, r.catalogVersion(), r.size());
  }
}
