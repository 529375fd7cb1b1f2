package org.partita.server.cluster;

import io.netty.channel.ChannelHandler;
import io.netty.channel.EventLoopGroup;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.logging.Logger;
import java.util.stream.Stream;
import org.partita.proto.cluster.HostRecord;
import org.partita.proto.cluster.HostServing;
import org.partita.proto.cluster.HostState;
import org.partita.proto.cluster.InstallMap;
import org.partita.proto.cluster.MetadataCommand;
import org.partita.proto.cluster.MetadataReply;
import org.partita.proto.cluster.MetadataSnapshot;
import org.partita.proto.cluster.RegisterHost;
import org.partita.server.security.ClusterTlsFiles;
import org.partita.server.topology.PartitionMap;

/**
 * This host's part in its cluster (docs/cluster.md, milestone 2,
 * formation): on a voter, the metadata server on the host's metadata port;
 * on every host, the internal port and the links to the voters (heartbeats,
 * metadata watch). {@link #join} registers the host with a new incarnation
 * and waits until every host of the configuration has registered and the
 * metadata leader has installed the placement; {@link #serving} records
 * that this host serves and waits until every host does. Each wait is
 * bounded by the join timeout, and each failure is a
 * {@link ClusterException} saying what was missing.
 *
 * <p>Owns the metadata server, the internal port's event loop and the
 * metadata client; {@link #close} stops them. The accessors are
 * thread-safe; {@link #join}, {@link #serving} and {@link #close} are
 * called once each, from the starting thread and the shutdown.
 */
public final class ClusterMember implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(ClusterMember.class.getName());
  /** Ratis election timeouts on real deployments (docs/cluster.md, "Ratis settings"). */
  private static final Duration ELECTION_MIN = Duration.ofSeconds(1);
  private static final Duration ELECTION_MAX = Duration.ofSeconds(2);
  /** How often formation looks again at the metadata while waiting. */
  private static final long POLL_MILLIS = 100;

  private final ClusterConfig config;
  private final long incarnation;
  private final Duration timeout;
  private final MetadataGroup group;
  private final EventLoopGroup loop = InternalTransport.eventLoop("partita-internal");
  private final HeartbeatTable heartbeats = new HeartbeatTable();
  private final MetadataView view = new MetadataView();
  /** Mutual TLS on the internal and metadata ports, or null on a trusted network (docs/security.md). */
  private final ClusterTls tls;
  private MetadataServer voter;
  private InternalServer internal;
  private InternalLinks links;
  private MetadataClient client;
  private PartitionMap map;
  /** The metadata leader's failure detection on this voter (K ≥ 1), or null. */
  private FailureDetection detection;
  /** Closed first when this member closes (the data plane riding on the internal port). */
  private volatile AutoCloseable dependent;
  /** This host returns to a running cluster (docs/cluster.md, "Rejoin"). */
  private boolean rejoin;
  /** The whole cluster restarts on its hosts' data directories (docs/cluster.md, "Durability on a cluster"). */
  private boolean recover;
  /** The heartbeat timeout a rejoining voter detects failures with while it waits to register; null: none. */
  private Duration rejoinDetection;

  private ClusterMember(ClusterConfig config, Duration timeout, ClusterTls tls) {
    this.config = config;
    this.tls = tls;
    this.timeout = timeout;
    this.incarnation = newIncarnation();
    final List<MetadataPeer> peers = new ArrayList<>();
    for (int id = 0; id < config.voterCount(); id++) {
      peers.add(new MetadataPeer(Integer.toString(id), config.metadataAddress(id)));
    }
    this.group = new MetadataGroup(peers, ELECTION_MIN, ELECTION_MAX);
  }

  private static long newIncarnation() {
    long value = 0;
    while (value <= 0) {
      value = new SecureRandom().nextLong();
    }
    return value;
  }

  /**
   * Starts this host's cluster services, registers it and waits (at most
   * {@code timeout}) for the installed partition map. A voter keeps its
   * Raft log under {@code dataDir/metadata}, which must not hold an earlier
   * cluster's metadata. {@code schemaFingerprint} identifies the compiled
   * schema, which every host must share.
   */
  public static ClusterMember join(ClusterConfig config, Path dataDir, int schemaFingerprint, Duration timeout)
      throws ClusterException, InterruptedException {
    return join(config, dataDir, schemaFingerprint, timeout, null);
  }

  /**
   * {@link #join(ClusterConfig, Path, int, Duration)} on a secured cluster: with {@code tlsFiles} (null: a
   * trusted network), the internal and metadata ports speak mutual TLS and admit only hosts holding a
   * certificate of the cluster's authorities (docs/security.md, "Cluster admission").
   */
  public static ClusterMember join(ClusterConfig config, Path dataDir, int schemaFingerprint, Duration timeout,
      ClusterTlsFiles tlsFiles) throws ClusterException, InterruptedException {
    return join(config, dataDir, schemaFingerprint, timeout, tlsFiles, false);
  }

  /**
   * {@link #join(ClusterConfig, Path, int, Duration, ClusterTlsFiles)}, or with {@code rejoin} a return to a
   * running cluster after this host was declared dead (docs/cluster.md, "Rejoin"): it registers as rejoining, a
   * voter restarts on its Raft log from its earlier run, and {@link #serving} waits for no other host.
   */
  public static ClusterMember join(ClusterConfig config, Path dataDir, int schemaFingerprint, Duration timeout,
      ClusterTlsFiles tlsFiles, boolean rejoin) throws ClusterException, InterruptedException {
    return join(config, dataDir, schemaFingerprint, timeout, tlsFiles, rejoin, false);
  }

  /**
   * {@link #join(ClusterConfig, Path, int, Duration, ClusterTlsFiles, boolean)}, or with {@code recover} a
   * restart of the whole cluster on its hosts' data directories (docs/cluster.md, "Durability on a cluster"): a
   * voter restarts on its Raft log, the host registers with a new incarnation although the restarted group may
   * still show its earlier one UP, and the installed map is the one the cluster stopped with; the host then
   * reports its log ({@link #recover}) and gets the reconciled map.
   */
  public static ClusterMember join(ClusterConfig config, Path dataDir, int schemaFingerprint, Duration timeout,
      ClusterTlsFiles tlsFiles, boolean rejoin, boolean recover) throws ClusterException, InterruptedException {
    return join(config, dataDir, schemaFingerprint, timeout, tlsFiles, rejoin, recover, null);
  }

  /**
   * {@link #join(ClusterConfig, Path, int, Duration, ClusterTlsFiles, boolean, boolean)}; with
   * {@code heartbeatTimeout} (K ≥ 1; null: none) a rejoining voter starts failure detection
   * ({@link #detectFailures}) as soon as it waits for its previous incarnation to be declared dead: its voter may
   * lead the metadata group by then (the killed process led it, and its log is the longest), and no other voter
   * declares anything while it does.
   */
  public static ClusterMember join(ClusterConfig config, Path dataDir, int schemaFingerprint, Duration timeout,
      ClusterTlsFiles tlsFiles, boolean rejoin, boolean recover, Duration heartbeatTimeout)
      throws ClusterException, InterruptedException {
    final ClusterTls tls = tlsFiles == null ? null : ClusterTls.open(tlsFiles, config.self().getAddress());
    final ClusterMember member = new ClusterMember(config, timeout, tls);
    member.rejoin = rejoin;
    member.recover = recover;
    member.rejoinDetection = rejoin ? heartbeatTimeout : null;
    try {
      member.startServices(dataDir);
      member.register(schemaFingerprint);
      member.awaitMap();
      return member;
    } catch (ClusterException | InterruptedException | RuntimeException e) {
      member.close();
      throw e;
    }
  }

  private void startServices(Path dataDir) throws ClusterException, InterruptedException {
    if (config.isVoter()) {
      final Path metadataDir = dataDir.resolve("metadata");
      if (rejoin || recover) {
        requireEarlierMetadata(metadataDir, rejoin ? "--rejoin" : "--recover");
      } else {
        refuseEarlierMetadata(metadataDir);
      }
      try {
        voter = MetadataServer.start(group, Integer.toString(config.hostId()), metadataDir.toFile(), tls);
      } catch (IOException | RuntimeException e) {
        throw new ClusterException("cannot start the metadata voter on " + address(config.metadataAddress(
            config.hostId())) + " (is another process running with --host-id " + config.hostId() + "?): "
            + e.getMessage(), e);
      }
    }
    internal = new InternalServer(heartbeats, voter == null ? null : voter::appliedState, tls);
    try {
      internal.start(config.self(), loop);
    } catch (InterruptedException e) {
      throw e;
    } catch (Exception e) {
      // Netty rethrows the bind's IOException undeclared.
      throw new ClusterException("cannot listen on the internal port " + address(config.self())
          + " (is another process running with --host-id " + config.hostId() + "?): " + e.getMessage(), e);
    }
    if (voter != null) {
      voter.listen(state -> {
        view.offer(state);
        internal.publish(state);
      });
      view.offer(voter.appliedState());
    }
    final List<InetSocketAddress> voters = new ArrayList<>();
    for (int id = 0; id < config.voterCount(); id++) {
      voters.add(config.hosts().get(id));
    }
    links = new InternalLinks(config.hostId(), incarnation, config.self().getAddress(), voters, view, loop, tls);
    links.start();
    client = new MetadataClient(group, timeout, tls);
  }

  private static void refuseEarlierMetadata(Path metadataDir) throws ClusterException {
    if (!Files.isDirectory(metadataDir)) {
      return;
    }
    try (Stream<Path> entries = Files.list(metadataDir)) {
      if (entries.findAny().isPresent()) {
        throw new ClusterException(metadataDir + " holds the metadata of an earlier cluster; a host returns to a "
            + "running cluster with --rejoin (docs/cluster.md, \"Rejoin\"); a new cluster starts every host on an "
            + "empty --data-dir", null);
      }
    } catch (IOException e) {
      throw new ClusterException("cannot read " + metadataDir + ": " + e.getMessage(), e);
    }
  }

  /** A voter rejoins on its own Raft log: a voter that lost it must not vote again as if it had none. */
  private static void requireEarlierMetadata(Path metadataDir, String option) throws ClusterException {
    try (Stream<Path> entries = Files.isDirectory(metadataDir) ? Files.list(metadataDir) : Stream.empty()) {
      if (entries.findAny().isEmpty()) {
        throw new ClusterException(option + " on a metadata voter needs its Raft log from its earlier run in "
            + metadataDir + ", which is empty or missing: start the host on the --data-dir it ran with", null);
      }
    } catch (IOException e) {
      throw new ClusterException("cannot read " + metadataDir + ": " + e.getMessage(), e);
    }
  }

  /**
   * Registers this host's incarnation. A rejoining host whose previous
   * incarnation the cluster still lists as up (killed moments ago, not yet
   * declared dead: `scripts/cluster kill 1; scripts/cluster restart 1`)
   * waits for the metadata leader to declare it dead, at most the join
   * timeout, and registers then; a previous incarnation still alive keeps
   * heartbeating, so the wait ends in the refusal naming it.
   */
  private void register(int schemaFingerprint) throws ClusterException, InterruptedException {
    final RegisterHost.Builder register = RegisterHost.newBuilder()
        .setHost(HostRecord.newBuilder().setHostId(config.hostId()).setIncarnation(incarnation)
            .setInternalAddress(address(config.self())))
        .setSchemaFingerprint(schemaFingerprint).setConfiguration(config.canonical())
        .setHostCount(config.hostCount()).setRejoin(rejoin).setRecover(recover);
    final long deadline = System.nanoTime() + timeout.toNanos();
    boolean said = false;
    while (true) {
      final MetadataReply reply = send(MetadataCommand.newBuilder().setRegisterHost(register).build(),
          "register this host");
      if (reply.getApplied()) {
        view.offer(reply.getState());
        LOG.info("cluster: host " + config.hostId() + " registered (incarnation " + incarnation + "), "
            + reply.getState().getHostsCount() + " of " + config.hostCount() + " host(s) so far");
        return;
      }
      if (!rejoin || System.nanoTime() > deadline || !previousIncarnationMayBeUp(view.current())) {
        throw new ClusterException("the cluster refused host " + config.hostId() + ": " + reply.getRefusal(), null);
      }
      if (!said) {
        LOG.info("cluster: host " + config.hostId() + "'s previous incarnation is still listed as up; waiting (at"
            + " most " + timeout.toSeconds() + " s) until the cluster declares it dead, then rejoining");
        said = true;
        if (rejoinDetection != null) {
          detectFailures(rejoinDetection);
        }
      }
      view.await(state -> state.getHostsCount() > 0 && !previousIncarnationMayBeUp(state), POLL_MILLIS);
    }
  }

  /** Whether {@code state} lists this host id up under another incarnation, or lists no host yet (not heard). */
  private boolean previousIncarnationMayBeUp(MetadataSnapshot state) {
    if (state.getHostsCount() == 0) {
      return true;
    }
    for (HostRecord host : state.getHostsList()) {
      if (host.getHostId() == config.hostId() && host.getIncarnation() != incarnation
          && host.getState() == HostState.HOST_STATE_UP) {
        return true;
      }
    }
    return false;
  }

  private MetadataReply send(MetadataCommand command, String what) throws ClusterException {
    try {
      return client.send(command);
    } catch (IOException e) {
      throw new ClusterException("could not " + what + ": the metadata group (voters " + voterAddresses()
          + ") did not answer within " + timeout.toSeconds() + " s; start every host listed in --cluster (the first "
          + config.voterCount() + " are the metadata voters)" + (tls == null ? "" : "; the cluster is secured: every"
          + " host needs a certificate for its own address signed by an authority in --cluster-ca (" + tls + ")"), e);
    }
  }

  private void awaitMap() throws ClusterException, InterruptedException {
    final long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      // Woken by the map; otherwise every POLL_MILLIS, to install it once this voter leads and all registered.
      final MetadataSnapshot state = view.await(MetadataSnapshot::hasMap, POLL_MILLIS);
      if (state.hasMap()) {
        map = MetadataState.fromTopology(state.getMap(), state.getMap().getTopologyVersion());
        LOG.info("cluster: partition map installed: " + map.partitionCount() + " partition(s), host "
            + config.hostId() + " leads " + ledHere(map));
        return;
      }
      if (allRegistered(state) && voter != null && voter.isLeader()) {
        installPlacement();
      }
      if (System.nanoTime() > deadline) {
        throw new ClusterException("the cluster did not form within " + timeout.toSeconds() + " s: "
            + missing(state, s -> true, "registered") + "; every host listed in --cluster must be started", null);
      }
    }
  }

  private void installPlacement() throws ClusterException {
    final PartitionMap placement = Placement.of(config.hostCount(), config.sitesPerHost(), config.kFactor());
    final MetadataReply reply = send(MetadataCommand.newBuilder().setInstallMap(InstallMap.newBuilder()
        .setExpectedVersion(0).setMap(placement.fill(org.partita.client.proto.Topology.newBuilder()))).build(),
        "install the partition map");
    view.offer(reply.getState());
  }

  private boolean allRegistered(MetadataSnapshot state) {
    return upHosts(state, h -> true) == config.hostCount();
  }

  private static long upHosts(MetadataSnapshot state, Predicate<HostRecord> also) {
    return state.getHostsList().stream().filter(h -> h.getState() == HostState.HOST_STATE_UP).filter(also).count();
  }

  /** "hosts 1 (127.0.0.2:21215), 2 (...) have not registered", for the timeout errors. */
  private String missing(MetadataSnapshot state, Predicate<HostRecord> done, String what) {
    final List<String> absent = new ArrayList<>();
    for (int id = 0; id < config.hostCount(); id++) {
      final int host = id;
      final boolean there = state.getHostsList().stream()
          .anyMatch(h -> h.getHostId() == host && h.getState() == HostState.HOST_STATE_UP && done.test(h));
      if (!there) {
        absent.add(id + " (" + address(config.hosts().get(id)) + ")");
      }
    }
    return "host(s) " + String.join(", ", absent) + " have not " + what;
  }

  private List<Integer> ledHere(PartitionMap installed) {
    final List<Integer> led = new ArrayList<>();
    for (int p = 0; p < installed.partitionCount(); p++) {
      if (installed.leaderOf(p) == config.hostId()) {
        led.add(p);
      }
    }
    return led;
  }

  /**
   * Whole-cluster restart (docs/cluster.md, "Durability on a cluster"):
   * reports {@code tails}, the last transaction this host's log holds for
   * each copy the map gives it, then waits (at most the join timeout) until
   * every copy of every partition reported and the metadata group
   * reconciled them, and returns the reconciled map (also {@link #map} from
   * now on). REQUIRES: joined with {@code recover}.
   *
   * @throws ClusterException when the group refused the report, no partition map could be reconciled (a
   *     partition no log can rebuild), or some host did not report in time
   */
  public PartitionMap recover(List<org.partita.proto.cluster.LogTail> tails)
      throws ClusterException, InterruptedException {
    final MetadataReply reply = send(MetadataCommand.newBuilder().setReportLog(
        org.partita.proto.cluster.ReportLog.newBuilder().setHostId(config.hostId()).setIncarnation(incarnation)
            .addAllTails(tails)).build(), "report this host's command log");
    if (!reply.getApplied()) {
      throw new ClusterException("the cluster refused host " + config.hostId() + "'s log report: "
          + reply.getRefusal(), null);
    }
    view.offer(reply.getState());
    final long round = reply.getState().getRecoveryRound();
    final MetadataSnapshot state = view.await(s -> s.getRecoveredRound() >= round, timeout.toMillis());
    if (state.getRecoveredRound() < round) {
      throw new ClusterException("the cluster did not recover within " + timeout.toSeconds() + " s: "
          + unreported(state) + "; start every host of the cluster with --recover on its data directory", null);
    }
    if (state.getRecoveredRound() == round && !state.getRecoveryFailure().isEmpty()) {
      throw new ClusterException("the cluster cannot recover from its hosts' command logs: "
          + state.getRecoveryFailure(), null);
    }
    map = mapOf(state);
    LOG.info("cluster: recovery round " + round + " reconciled every partition; partition map version "
        + map.version() + ", host " + config.hostId() + " leads " + ledHere(map));
    return map;
  }

  /** "host(s) 1 (127.0.0.2:...) have not reported their logs", for the recovery timeout. */
  private String unreported(MetadataSnapshot state) {
    final List<Integer> reported = state.getLogReportsList().stream()
        .map(org.partita.proto.cluster.ReportLog::getHostId).toList();
    final List<String> absent = new ArrayList<>();
    for (int id = 0; id < config.hostCount(); id++) {
      if (!reported.contains(id) && holdsCopy(map, id)) {
        absent.add(id + " (" + address(config.hosts().get(id)) + ")");
      }
    }
    return "host(s) " + String.join(", ", absent) + " holding copies have not reported their command logs";
  }

  private static boolean holdsCopy(PartitionMap installed, int host) {
    for (int p = 0; p < installed.partitionCount(); p++) {
      if (installed.replicas(p).replicaHosts().contains(host)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Records that this host serves at {@code clientAddress} (and
   * {@code httpAddress}, or "" for none), then waits until every host of the
   * cluster serves.
   */
  public void serving(String clientAddress, String httpAddress) throws ClusterException, InterruptedException {
    final MetadataReply reply = send(MetadataCommand.newBuilder().setHostServing(HostServing.newBuilder()
        .setHostId(config.hostId()).setIncarnation(incarnation).setClientAddress(clientAddress)
        .setHttpAddress(httpAddress)).build(), "record that this host serves");
    if (!reply.getApplied()) {
      throw new ClusterException("the cluster refused host " + config.hostId() + " as serving: "
          + reply.getRefusal(), null);
    }
    view.offer(reply.getState());
    if (rejoin) {
      return;
    }
    final MetadataSnapshot state = view.await(s -> upHosts(s, HostRecord::getServing) == config.hostCount(),
        timeout.toMillis());
    if (upHosts(state, HostRecord::getServing) != config.hostCount()) {
      throw new ClusterException("the cluster did not start serving within " + timeout.toSeconds() + " s: "
          + missing(state, HostRecord::getServing, "opened their partitions"), null);
    }
  }

  /** This host's id. */
  public int hostId() {
    return config.hostId();
  }

  /** This host's incarnation (new on every start). */
  public long incarnation() {
    return incarnation;
  }

  /** The partition map installed at formation. */
  public PartitionMap map() {
    return map;
  }

  /** The newest metadata this host has seen. */
  public MetadataSnapshot metadata() {
    return view.current();
  }

  /** The heartbeats this host received (a voter's table; empty on other hosts). */
  public HeartbeatTable heartbeats() {
    return heartbeats;
  }

  /** How this host opens internal connections: from its own address, with mutual TLS when the cluster is secured. */
  public InternalConnector connector() {
    return (to, handler) -> InternalFrames.connect(eventLoop(), to, config.self().getAddress(), tls, handler);
  }

  /** The internal port's event loop (replication's connections share it). */
  public EventLoopGroup eventLoop() {
    return loop;
  }

  /**
   * From now on, replication frames reaching this host's internal port go to
   * a handler {@code handlers} makes for each connection.
   */
  public void acceptReplication(Supplier<ChannelHandler> handlers) {
    internal.acceptReplication(handlers);
  }

  /** Closes {@code closeable} first when this member closes (once; the last one given). */
  public void closeWith(AutoCloseable closeable) {
    dependent = closeable;
  }

  /** The configuration this host started with. */
  public ClusterConfig config() {
    return config;
  }

  /**
   * On a voter, starts failure detection (docs/cluster.md, "Failure detection
   * and failover"): while this voter leads the metadata group, a host not
   * heard for {@code heartbeatTimeout} is declared dead ({@code MarkDead})
   * and its partitions move to their survivors. Nothing on other hosts.
   */
  public void detectFailures(Duration heartbeatTimeout) {
    if (voter == null || detection != null) {
      return;
    }
    final MetadataServer self = voter;
    detection = new FailureDetection(new FailureDetector(config.hostId(), incarnation, heartbeats,
        heartbeatTimeout.toNanos(), System::nanoTime), self::isLeader, self::leaderHost, self::appliedState,
        client::send);
    detection.start();
  }

  /**
   * Calls {@code onNewer} with every newer metadata this host sees from now
   * on (its own voter's or the watch's), on the thread that brought it: it
   * must not block. Several followers may listen; each hears every one.
   */
  public void followMetadata(java.util.function.Consumer<MetadataSnapshot> onNewer) {
    view.listen(onNewer);
  }

  /**
   * Asks the metadata group to move {@code partition} from {@code expectedEpoch} to the next epoch led by
   * {@code leader} on {@code replicas} ({@code ChangeLeader}: a diverged replica dropped). Blocks on Ratis.
   */
  public MetadataReply changeLeader(int partition, long expectedEpoch, int leader, List<Integer> replicas)
      throws IOException {
    return client.send(MetadataCommand.newBuilder().setChangeLeader(org.partita.proto.cluster.ChangeLeader
        .newBuilder().setPartition(partition).setExpectedEpoch(expectedEpoch).setLeaderHostId(leader)
        .addAllReplicaHostIds(replicas)).build());
  }

  /**
   * Asks the metadata group to add {@code host} (its {@code incarnation}) as a
   * copy of {@code partition} in epoch {@code expectedEpoch} + 1: a rejoined
   * host caught up (docs/cluster.md, "Rejoin").
   */
  public MetadataReply addReplica(int partition, long expectedEpoch, int host, long hostIncarnation)
      throws IOException {
    return client.send(MetadataCommand.newBuilder().setAddReplica(org.partita.proto.cluster.AddReplica.newBuilder()
        .setPartition(partition).setExpectedEpoch(expectedEpoch).setHostId(host).setIncarnation(hostIncarnation))
        .build());
  }

  /**
   * Asks the metadata group to declare this host's own incarnation dead
   * ({@code MarkDead}, compare-and-set on the incarnation): a host that
   * stopped serving while cut off from the voters, and reaches them again
   * before the metadata leader declared it dead, hands its partitions to
   * their other copies this way, and then returns by rejoin (docs/cluster.md,
   * "Network partitions"). Blocks on Ratis.
   */
  public MetadataReply declareSelfDead() throws IOException {
    return client.send(MetadataCommand.newBuilder().setMarkDead(org.partita.proto.cluster.MarkDead.newBuilder()
        .setHostId(config.hostId()).setIncarnation(incarnation)).build());
  }

  /** The voters this host has an open internal connection to now (its own included when it is one). */
  public int connectedVoters() {
    return links == null ? 0 : links.connectedVoters();
  }

  /** The partition map {@code state} holds. REQUIRES: {@code state.hasMap()}. */
  public static PartitionMap mapOf(MetadataSnapshot state) {
    return MetadataState.fromTopology(state.getMap(), state.getMap().getTopologyVersion());
  }

  private String voterAddresses() {
    final List<String> addresses = new ArrayList<>();
    for (int id = 0; id < config.voterCount(); id++) {
      addresses.add(address(config.metadataAddress(id)));
    }
    return String.join(", ", addresses);
  }

  private static String address(InetSocketAddress address) {
    return address.getAddress().getHostAddress() + ":" + address.getPort();
  }

  @Override
  public void close() {
    closeQuietly(detection, "failure detection");
    closeQuietly(dependent, "replication");
    if (links != null) {
      links.close();
    }
    closeQuietly(client, "metadata client");
    if (internal != null) {
      internal.close();
    }
    closeQuietly(voter, "metadata voter");
    loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }

  private static void closeQuietly(AutoCloseable closeable, String what) {
    if (closeable == null) {
      return;
    }
    try {
      closeable.close();
    } catch (Exception e) {
      LOG.warning("cluster: closing the " + what + ": " + e.getMessage());
    }
  }
}
