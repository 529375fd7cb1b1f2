package org.partita.server.host;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.logging.Logger;
import org.partita.client.proto.Host;
import org.partita.proto.cluster.HostRecord;
import org.partita.proto.cluster.HostState;
import org.partita.server.cluster.ClusterConfig;
import org.partita.server.cluster.ClusterException;
import org.partita.server.cluster.ClusterMember;
import org.partita.server.compiler.CompiledCatalog;
import org.partita.server.database.Database;
import org.partita.server.database.HostTransport;
import org.partita.server.durability.CommandLog;
import org.partita.server.durability.CommandLogMode;
import org.partita.server.durability.LoggedPipeline;
import org.partita.server.durability.SwitchablePipeline;
import org.partita.server.replication.MultiPartitionLinks;
import org.partita.server.replication.Replication;
import org.partita.server.security.ClusterTlsFiles;
import org.partita.server.security.SecurityOptions;
import org.partita.server.txn.CommitPipeline;
import org.partita.server.txn.ImmediateCommitPipeline;
import org.partita.server.topology.PartitionMap;

/**
 * Starts one host of a cluster (docs/cluster.md, milestones 2 and 3): checks
 * the cluster options, compiles the schema, joins the cluster (metadata
 * voter, internal port, registration, the installed placement; mutual TLS
 * between hosts when the cluster is secured), opens a site for every copy
 * this host holds (with K ≥ 1 behind the replication pipelines, its replica
 * copies fed by their leaders over the internal port), binds the client and
 * HTTP ports, records that the host serves and waits until every host does;
 * with K ≥ 1 it then follows failovers ({@link ClusterFollower}) and, on a
 * voter, runs failure detection. With a command log every copy it holds
 * logs what it runs ({@link ClusterLog}; docs/durability.md, "On a
 * cluster"). With {@code --recover} the whole cluster restarts on its data
 * directories: once registered, the host reports how far its log reaches
 * for each copy it held, waits for the metadata group to reconcile the
 * copies, replays its log into the copies of the reconciled map, then
 * serves as at formation ({@link ClusterRecovery}).
 * Every failure is a
 * {@link StartupException} with the reason. Used once, at start.
 */
final class ClusterStart {
  private static final Logger LOG = Logger.getLogger(ClusterStart.class.getName());

  private ClusterStart() {
  }

  static PartitaServer start(ServerOptions options, ClusterOptions cluster, SecurityOptions securityOptions,
      ClusterTlsFiles clusterTls) throws StartupException, InterruptedException {
    final long begin = System.nanoTime();
    final ClusterConfig config = check(options, cluster);
    final ServerSecurity security = ServerSecurity.open(securityOptions, options.bindAddress(), options.httpPort());
    warnIfUnsecured(options, clusterTls);
    final CompiledCatalog catalog = PartitaServer.compile(options, options.classes());
    if (config.survivalWarning() != null) {
      LOG.warning("cluster: " + config.survivalWarning());
    }
    LOG.info("cluster: host " + config.hostId() + " of " + config.hostCount() + " joining ("
        + config.voterCount() + " metadata voter(s); this host " + (config.isVoter() ? "is" : "is not") + " one)");
    final ClusterMember member;
    try {
      member = ClusterMember.join(config, options.dataDir(), DurableStart.fingerprint(catalog), cluster.joinTimeout(),
          clusterTls, cluster.rejoin(), cluster.recover(), config.kFactor() == 0 ? null : cluster.heartbeatTimeout());
    } catch (ClusterException e) {
      throw new StartupException(e.getMessage(), e);
    }
    // A whole-cluster restart: this host's log tails reported, the map reconciled before anything opens on it.
    final ClusterRecovery.Scan recovered = cluster.recover() ? recover(options, config, member, catalog) : null;
    // K = 0: no replication exists at all; K >= 1: each led partition's answers wait for its replicas.
    final Replication replication = config.kFactor() == 0 ? null : new Replication(config.hostId(), member.map(),
        config.hosts(), member.connector(), member.eventLoop());
    final boolean joining = cluster.rejoin() || recovered != null && !holdsCopy(member.map(), config.hostId());
    final Opened opened;
    try {
      opened = recovered == null ? open(options, config, member, catalog, replication, joining)
          : openRecovered(options, config, member, catalog, replication, joining, recovered);
    } catch (RuntimeException | InterruptedException | StartupException e) {
      member.close();
      throw e;
    }
    final Database database = opened.database();
    final CommandLog log = opened.log();
    ClusterFollower follower = null;
    ClusterRejoin rejoin = null;
    if (replication != null) {
      replication.start(database::offerReplicated);
      follower = new ClusterFollower(member, database, replication, cluster.heartbeatTimeout(), () -> { });
      replication.whenDiverged(follower::dropDiverged);
      rejoin = new ClusterRejoin(member, database, replication, config.kFactor(), config.sitesPerHost());
      follower.withRejoin(rejoin);
      if (!cluster.leaderRebalanceDelay().isZero()) {
        follower.withRebalance(new LeaderRebalance(member, database, replication, cluster.leaderRebalanceDelay()));
      }
    }
    final ClusterFollower following = follower;
    final ClusterRejoin rejoining = rejoin;
    // Multi-partition frames are taken from now on; the database uses the other hosts once every host serves.
    final MultiPartitionLinks multiPartition = config.hostCount() < 2 ? null : new MultiPartitionLinks(
        config.hostId(), config.hosts(), member.connector(), member.eventLoop());
    if (multiPartition != null) {
      multiPartition.serve(database::serveFragment, database::serveForwarded);
      member.acceptReplication(() -> multiPartition.inboundHandler(replication));
    } else if (replication != null) {
      member.acceptReplication(replication::inboundHandler);
    }
    member.closeWith(() -> {
      if (following != null) {
        following.close();
      }
      if (rejoining != null) {
        rejoining.close();
      }
      if (multiPartition != null) {
        multiPartition.close();
      }
      if (replication != null) {
        replication.close();
      }
      ClusterLog.close(log);
    });
    // The cluster page's view: the metadata this host follows and the changes it saw since now.
    final ClusterHistory history = new ClusterHistory(config.hostId(), config.kFactor(), config.sitesPerHost(),
        System::currentTimeMillis);
    member.followMetadata(history::observe);
    history.observe(member.metadata());
    final PartitaServer server = PartitaServer.bindClusterHost(options, database, member,
        () -> clientHosts(member.metadata().getHostsList()), history::status, security, log);
    try {
      member.serving(options.bindAddress() + ":" + server.clientPort(),
          server.httpPort() < 0 ? "" : options.bindAddress() + ":" + server.httpPort());
    } catch (ClusterException e) {
      server.shutdown();
      throw new StartupException(e.getMessage(), e);
    }
    if (multiPartition != null) {
      // Every host takes the others' frames now (each did before it served): multi-partition work across hosts.
      database.connectHosts(HostTransport.of(multiPartition::send, multiPartition::forward));
    }
    if (follower != null) {
      // A host declared dead (paused, cut off) comes back by itself: the process starts it again with --rejoin.
      follower.whenDeclaredDead(server::stopToRejoin);
      // Failover (K >= 1): the voters declare silent hosts dead; every host follows the moved map.
      follower.start();
      member.detectFailures(cluster.heartbeatTimeout());
      // Rejoin (docs/cluster.md): stream partitions this host leads to a returning host; take them when returning.
      rejoin.start();
    }
    LOG.info("ready: cluster host " + config.hostId() + " of " + config.hostCount() + ", client port "
        + options.bindAddress() + ":" + server.clientPort() + ", partitions " + database.partitionStatuses().stream()
        .map(Database.PartitionStatus::partition).toList() + " of " + config.partitionCount() + " (replicas "
        + database.replicaPartitions() + "), K=" + config.kFactor() + ", started in " + (System.nanoTime() - begin) / 1_000_000 + " ms");
    return server;
  }

  /**
   * Whole-cluster restart, before the host opens anything on the map
   * (docs/cluster.md, "Durability on a cluster"): reads this host's log for
   * the last transaction of each copy it held, reports it, and waits until
   * the metadata group reconciled every partition ({@link ClusterMember#recover}).
   */
  private static ClusterRecovery.Scan recover(ServerOptions options, ClusterConfig config, ClusterMember member,
      CompiledCatalog catalog) throws StartupException, InterruptedException {
    try {
      final ClusterRecovery.Scan scan = ClusterRecovery.scan(options.dataDir(), config.partitionCount(),
          DurableStart.fingerprint(catalog), catalog.engineCatalog().toByteArray(), member.map(), config.hostId(),
          member.metadata().getVoidTailsList());
      member.recover(scan.tails());
      return scan;
    } catch (ClusterException e) {
      member.close();
      throw new StartupException(e.getMessage(), e);
    } catch (StartupException | RuntimeException | InterruptedException e) {
      member.close();
      throw e;
    }
  }

  /** The host's database and its command log (null when off). */
  private record Opened(Database database, CommandLog log) {}

  /**
   * Opens the host's log, then its database on the installed map, every copy
   * logging into it (with K ≥ 1 the led copies behind replication), or with
   * {@code joining} a rejoining host's database without copies.
   */
  private static Opened open(ServerOptions options, ClusterConfig config, ClusterMember member,
      CompiledCatalog catalog, Replication replication, boolean joining)
      throws StartupException, InterruptedException {
    final CommandLog log = ClusterLog.open(options, config, DurableStart.fingerprint(catalog));
    final CommitPipeline logPipeline = log == null ? ImmediateCommitPipeline.INSTANCE : log;
    // Set up even on a rejoining host: the partitions it comes to lead log through it.
    final IntFunction<CommitPipeline> led = ledPipelines(replication, log);
    try {
      final Database database = joining ? Database.openJoining(catalog, member.map(), config.hostId(),
              options.siteQueueCapacity(), logPipeline, options.queryLimits())
          : Database.openHost(catalog, member.map(), config.hostId(), options.siteQueueCapacity(), led,
              logPipeline, options.queryLimits());
      return new Opened(database, log);
    } catch (RuntimeException | InterruptedException e) {
      ClusterLog.close(log);
      throw e;
    }
  }

  /**
   * A recovering host: opens its copies of the reconciled map behind
   * immediate pipelines and replays its log into them, each up to its
   * partition's cut (a host without copies replays nothing); only then opens
   * its log (continuing after the replayed segments) and has every copy it
   * leads sequence in the new epoch behind it (queued behind the replayed
   * items), its replica copies logging into it.
   */
  private static Opened openRecovered(ServerOptions options, ClusterConfig config, ClusterMember member,
      CompiledCatalog catalog, Replication replication, boolean joining, ClusterRecovery.Scan recovered)
      throws StartupException, InterruptedException {
    final PartitionMap map = member.map();
    final SwitchablePipeline replicaLog = new SwitchablePipeline();
    final Database database = joining ? Database.openJoining(catalog, map, config.hostId(),
            options.siteQueueCapacity(), replicaLog, options.queryLimits())
        : Database.openHost(catalog, map, config.hostId(), options.siteQueueCapacity(),
            p -> ImmediateCommitPipeline.INSTANCE, replicaLog, options.queryLimits());
    final CommandLog log;
    try {
      if (!joining) {
        ClusterRecovery.replay(database, options.dataDir(), config.partitionCount(),
            DurableStart.fingerprint(catalog), map, config.hostId(), member.metadata().getVoidTailsList());
      }
      log = ClusterLog.open(options, config, DurableStart.fingerprint(catalog), recovered.lastEpoch() + 1,
          recovered.nextSegment());
    } catch (StartupException | RuntimeException e) {
      closeQuietly(database);
      throw e;
    }
    replicaLog.switchTo(log == null ? ImmediateCommitPipeline.INSTANCE : log);
    final IntFunction<CommitPipeline> led = ledPipelines(replication, log);
    for (int p = 0; !joining && p < map.partitionCount(); p++) {
      if (map.leaderOf(p) == config.hostId()) {
        database.lead(p, map.replicas(p).epoch(), led.apply(p));
      }
    }
    return new Opened(database, log);
  }

  /**
   * The pipelines of the copies a host leads: with K ≥ 1 replication's
   * (behind the log when there is one); with K = 0 the log, which keeps each
   * multi-partition part too, or nothing.
   */
  private static IntFunction<CommitPipeline> ledPipelines(Replication replication, CommandLog log) {
    if (replication != null) {
      if (log != null) {
        replication.wrapPipelines(next -> new LoggedPipeline(log, next));
      }
      return replication::pipeline;
    }
    return log == null ? p -> ImmediateCommitPipeline.INSTANCE
        : p -> new LoggedPipeline(log, ImmediateCommitPipeline.INSTANCE);
  }

  private static boolean holdsCopy(PartitionMap map, int hostId) {
    return !map.partitionsHeldBy(hostId).isEmpty();
  }

  private static void closeQuietly(Database database) {
    try {
      database.close();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Hosts of a cluster bound beyond loopback without admission would let any process pose as a host. */
  private static void warnIfUnsecured(ServerOptions options, ClusterTlsFiles clusterTls) {
    if (clusterTls != null) {
      LOG.info("cluster admission: mutual TLS on the internal and metadata ports (" + clusterTls + ")");
      return;
    }
    if (!ServerSecurity.isLoopback(options.bindAddress())) {
      LOG.warning("cluster admission is off and this host listens on " + options.bindAddress() + ": any process "
          + "that reaches its internal or metadata port can pose as a host; give --cluster-tls-cert, "
          + "--cluster-tls-key and --cluster-ca (docs/security.md, \"Cluster admission\")");
      System.err.println("partita: WARNING: cluster admission is off on " + options.bindAddress()
          + ": any process that reaches the internal ports can pose as a host; see docs/security.md");
    }
  }

  private static ClusterConfig check(ServerOptions options, ClusterOptions cluster) throws StartupException {
    final ClusterConfig config;
    try {
      config = ClusterConfig.parse(cluster.hosts(), cluster.hostId(), cluster.kFactor(), cluster.sitesPerHost(),
          options.bindAddress());
    } catch (IllegalArgumentException e) {
      throw new StartupException(e.getMessage(), e);
    }
    if (cluster.rejoin() && cluster.kFactor() == 0) {
      throw new StartupException("--rejoin needs --kfactor 1 or more: with K = 0 no host is declared dead, and a "
          + "stopped host serves again by starting it as before", null);
    }
    if (options.dataDir() == null) {
      throw new StartupException("--cluster needs --data-dir (a metadata voter keeps the cluster's Raft log there)",
          null);
    }
    final boolean claimedBefore = DataDirIdentity.claim(options.dataDir(), config);
    if (cluster.recover()) {
      ClusterLog.requireExisting(options, claimedBefore);
    } else if (options.commandLog().mode() != CommandLogMode.OFF) {
      if (cluster.rejoin()) {
        ClusterLog.setAsideForRejoin(options);
      } else {
        ClusterLog.refuseExisting(options);
      }
    }
    return config;
  }

  /** The UP, serving hosts as clients reach them. */
  static List<Host> clientHosts(List<HostRecord> hosts) {
    final List<Host> out = new ArrayList<>(hosts.size());
    for (HostRecord h : hosts) {
      if (h.getState() != HostState.HOST_STATE_UP || !h.getServing()) {
        continue;
      }
      final int colon = h.getClientAddress().lastIndexOf(':');
      final Host.Builder host = Host.newBuilder().setHostId(h.getHostId())
          .setAddress(h.getClientAddress().substring(0, colon))
          .setClientPort(Integer.parseInt(h.getClientAddress().substring(colon + 1)));
      if (!h.getHttpAddress().isEmpty()) {
        host.setHttpPort(Integer.parseInt(h.getHttpAddress().substring(h.getHttpAddress().lastIndexOf(':') + 1)));
      }
      out.add(host.build());
    }
    return out;
  }
}
