package org.partita.server.database;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import java.util.logging.Logger;
import org.partita.client.ClientResponse;
import org.partita.proto.ErrorCode;
import org.partita.proto.TableStatsList;
import org.partita.proto.ValueType;
import org.partita.server.catalog.Schema;
import org.partita.server.catalog.TableDef;
import org.partita.server.compiler.CatalogCompiler;
import org.partita.server.compiler.CompiledCatalog;
import org.partita.server.compiler.CompiledProcedure;
import org.partita.server.compiler.ddl.DdlException;
import org.partita.server.engine.BatchRequestWriter;
import org.partita.server.error.ErrorTable;
import org.partita.server.error.ServerException;
import org.partita.server.planner.PlannedStatement;
import org.partita.server.planner.PlanningException;
import org.partita.server.planner.TableStatistics;
import org.partita.server.topology.PartitionMap;
import org.partita.server.txn.CommitPipeline;
import org.partita.server.txn.ImmediateCommitPipeline;
import org.partita.server.txn.Invocation;
import org.partita.server.txn.ReplicaExecutor;
import org.partita.server.txn.TxnHeader;
import org.partita.server.txn.TxnId;

/**
 * An in-process Partita database: the partitions of one host (every
 * partition, or on a cluster host the ones it leads: {@link #openHost}), each a site
 * thread owning its engine, its catalog snapshot and its initiator, and one
 * multi-partition coordinator. This class is the router in front of them
 * (docs/database.md, "A transaction's life"): it resolves each call's
 * procedure against the current catalog, places a single-partition call on
 * its partition through the {@link PartitionMap} (the partitioning
 * parameter is the only one decoded here), and sends multi-partition work
 * and schema changes to the coordinator. The network server, HTTP and the
 * in-process API all hand it {@link Invocation}s.
 *
 * <p>Thread-safe: calls may come from any thread; answers complete on a
 * site or coordinator thread (or at once on the caller's thread when a call
 * is refused before it runs).
 */
public final class Database implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(Database.class.getName());
  /** Default bound of each site's queue. */
  public static final int DEFAULT_SITE_QUEUE_CAPACITY = Site.DEFAULT_QUEUE_CAPACITY;
  /** Default bound of multi-partition work waiting for the coordinator. */
  public static final int DEFAULT_COORDINATOR_CAPACITY = 1024;
  /** The client id of calls made through this class's in-process methods. */
  public static final long IN_PROCESS_CLIENT = 0;
  private static final int HOST_ID = 0;

  // Copy-on-write: a failover adds a promoted copy while other threads read the list.
  private final List<Site> sites = new java.util.concurrent.CopyOnWriteArrayList<>();
  /** Replaced when a cluster host follows a failover ({@link #followMap}); the bucket table never changes. */
  private volatile PartitionMap map;
  /** This host's id in {@link #map}. */
  private final int hostId;
  /** Partition id -> its site on this host, or null where another host leads the partition. */
  private final Site[] sitesByPartition;
  /**
   * Partition id -> this host's replica copy of a partition another host leads, or null. A replica's site takes
   * work only from its leader ({@link #offerReplicated}); calls for it are answered NOT_LEADER.
   */
  private final Site[] replicaSites;
  /**
   * Partition id -> true once this host's copy of it is no longer one of the partition's copies (the metadata
   * moved it to an epoch without this host, {@link #leftCopy}) until a rejoin opens a new one: its site may
   * still exist, but it is not a copy of the partition any more.
   */
  private final boolean[] left;
  /** Calls for partitions this host is about to lead, held until it does ({@link #expectLead}). */
  private final HeldCalls heldCalls;
  private final AdHocPlans adHocPlans = new AdHocPlans(new RowCounts(sites));
  private final AtomicLong inProcessSequence = new AtomicLong();
  private final AtomicInteger nextAnyPartition = new AtomicInteger();
  /**
   * Null on a cluster host that holds only some partitions until {@link #connectHosts}, and afterwards on every
   * host but the coordinator's (which reaches the others' partitions through the internal port).
   */
  private volatile MpCoordinator coordinator;
  /** A coordinator this host is starting (partition 0 came to it) until it holds the replicated tables; else null. */
  private CoordinatorStart starting;
  /** On a cluster host that is not the coordinator's once connected: where multi-partition calls go; else null. */
  private volatile ForwardedCalls forwarded;
  /** On a connected cluster host of several: serves the coordinator's steps for the partitions it leads. */
  private volatile FragmentServer fragments;
  /** On a connected cluster host of several: the other hosts, followed through failovers ({@link #followMap}). */
  private volatile LeaderFollowingTransport hosts;
  /** What this host's copies hold of multi-partition transactions (prepared parts, for failover's decisions). */
  private final MultiPartitionParts parts;
  /** On a connected cluster host of several: finishes parts a failover left prepared; else null. */
  private volatile InDoubtResolver resolver;
  /** Where this host's copies write a snapshot taken across hosts; null: they take none. */
  private volatile CopySnapshots copySnapshots;
  /** Runs {@code @SnapshotSave} forwarded to this host (the coordinator's); null: refused. */
  private volatile java.util.function.Supplier<CompletableFuture<ClientResponse>> snapshotSave;
  /** The other hosts, reached whatever they lead (a snapshot's completion is asked of every holder). */
  private volatile HostTransport directHosts;
  /** The query bounds a cluster host opened with (its coordinator's, once connected). */
  private QueryLimits hostLimits;
  /** A cluster host's site queue capacity (for the copies a rejoin opens later). */
  private int hostQueueCapacity = Site.DEFAULT_QUEUE_CAPACITY;
  /**
   * Cluster hosts: what each replica copy hands the items it ran to (the host's command log; set once at
   * open, before any site runs). The copies' own initiators stay immediate: a replayed item's answer is
   * the copy's own business.
   */
  private CommitPipeline replicaLog = ImmediateCommitPipeline.INSTANCE;
  // Published by the coordinator after every partition took it (on a cluster host: the newest catalog any of its
  // copies committed, adoptCatalog); read by any caller.
  private volatile CatalogSnapshot catalog;
  /** The catalog versions this host's copies use (a cluster host's schema changes). */
  private final CatalogVersions catalogs;

  private Database(CompiledCatalog catalog, PartitionMap map, int hostId) {
    this(CatalogHistory.initial(catalog), map, hostId);
  }

  private Database(CatalogHistory start, PartitionMap map, int hostId) {
    this.catalog = new CatalogSnapshot(start.catalog(), start.version());
    this.catalogs = new CatalogVersions(start);
    this.map = map;
    this.hostId = hostId;
    this.sitesByPartition = new Site[map.partitionCount()];
    this.replicaSites = new Site[map.partitionCount()];
    this.left = new boolean[map.partitionCount()];
    this.heldCalls = new HeldCalls(map.partitionCount());
    this.parts = new MultiPartitionParts(map.partitionCount());
  }

  /** Opens {@code partitions} partitions of {@code catalog} (empty tables) with default queue bounds. */
  public static Database open(CompiledCatalog catalog, int partitions) throws InterruptedException {
    return open(catalog, partitions, Site.DEFAULT_QUEUE_CAPACITY, DEFAULT_COORDINATOR_CAPACITY);
  }

  /**
   * Opens {@code partitions} partitions of {@code catalog} (empty tables);
   * each site queue holds at most {@code siteQueueCapacity} items (rounded
   * up to a power of two) and at most {@code coordinatorCapacity}
   * multi-partition calls wait for the coordinator.
   */
  public static Database open(CompiledCatalog catalog, int partitions, int siteQueueCapacity,
      int coordinatorCapacity) throws InterruptedException {
    return open(catalog, partitions, siteQueueCapacity, coordinatorCapacity, ImmediateCommitPipeline.INSTANCE);
  }

  /** As {@link #open(CompiledCatalog, int, int, int)}, every partition's answers passing through {@code pipeline}. */
  public static Database open(CompiledCatalog catalog, int partitions, int siteQueueCapacity, int coordinatorCapacity,
      CommitPipeline pipeline) throws InterruptedException {
    return open(catalog, partitions, siteQueueCapacity, coordinatorCapacity, pipeline, QueryLimits.EMBEDDED, 1);
  }

  /**
   * As {@link #open(CompiledCatalog, int, int, int, CommitPipeline)}, every
   * transaction bounded by {@code limits} (a server's --query-timeout and
   * --query-memory); the other overloads use {@link QueryLimits#EMBEDDED}.
   */
  public static Database open(CompiledCatalog catalog, int partitions, int siteQueueCapacity, int coordinatorCapacity,
      CommitPipeline pipeline, QueryLimits limits) throws InterruptedException {
    return open(catalog, partitions, siteQueueCapacity, coordinatorCapacity, pipeline, limits, 1);
  }

  /**
   * As {@link #open(CompiledCatalog, int, int, int, CommitPipeline,
   * QueryLimits)}, every initiator in {@code epoch} (a host restarting on
   * its command log begins the epoch after the log's last;
   * docs/durability.md).
   */
  public static Database open(CompiledCatalog catalog, int partitions, int siteQueueCapacity, int coordinatorCapacity,
      CommitPipeline pipeline, QueryLimits limits, long epoch) throws InterruptedException {
    return open(CatalogHistory.initial(catalog), partitions, siteQueueCapacity, coordinatorCapacity, pipeline, limits,
        epoch);
  }

  /**
   * As {@link #open(CompiledCatalog, int, int, int, CommitPipeline,
   * QueryLimits, long)}, at the catalog version of {@code start} (recovery
   * from a snapshot taken after schema changes; docs/durability.md): later
   * schema changes count from it, and snapshots carry its schema changes
   * with theirs.
   */
  public static Database open(CatalogHistory start, int partitions, int siteQueueCapacity, int coordinatorCapacity,
      CommitPipeline pipeline, QueryLimits limits, long epoch) throws InterruptedException {
    final CompiledCatalog catalog = start.catalog();
    if (partitions < 1) {
      throw new IllegalArgumentException("partitions must be at least 1, got " + partitions);
    }
    if (siteQueueCapacity < 2 || coordinatorCapacity < 1) {
      throw new IllegalArgumentException("queue capacities must be positive, got " + siteQueueCapacity + " and "
          + coordinatorCapacity);
    }
    final Database db = new Database(start, PartitionMap.singleHost(partitions, HOST_ID), HOST_ID);
    db.openSites(siteQueueCapacity, pipeline, limits, epoch);
    db.coordinator = new MpCoordinator(coordinatorCapacity, List.copyOf(db.sites), db.map, db.catalog,
        start.schemaChanges(), db.adHocPlans, next -> db.catalog = next, limits, epoch, pipeline);
    LOG.info("database open: " + partitions + " partition(s), " + catalog.schema().tables().size() + " table(s), "
        + catalog.procedures().size() + " procedure(s)");
    return db;
  }

  /**
   * Opens the partitions host {@code hostId} leads in {@code map}: one host
   * of a cluster with K = 0 (docs/cluster.md, milestone 2). A single-partition
   * call or statement whose partition another host leads is answered
   * NOT_LEADER; multi-partition work, which needs every partition, is
   * refused with an error naming the limitation until {@link #connectHosts}
   * connects the host to the cluster's coordinator, and never run on this
   * host's partitions alone. A host that leads every partition (a cluster of
   * one) runs it as a single host does.
   */
  public static Database openHost(CompiledCatalog catalog, PartitionMap map, int hostId, int siteQueueCapacity,
      CommitPipeline pipeline, QueryLimits limits) throws InterruptedException {
    return openHost(catalog, map, hostId, siteQueueCapacity, partition -> pipeline, limits);
  }

  /**
   * As {@link #openHost(CompiledCatalog, PartitionMap, int, int, CommitPipeline, QueryLimits)}, for a
   * cluster with K ≥ 1 (docs/cluster.md, milestone 3): a site for every copy this host holds. A partition it
   * leads sequences its calls in the map's epoch through {@code pipelines.apply(partition)} (the replication
   * pipeline sending them to its replicas); a copy it holds as a replica runs only what its leader sends
   * ({@link #offerReplicated}), and calls for it are answered NOT_LEADER. Multi-partition work runs only on a
   * host that leads every partition of a map without replicas.
   */
  public static Database openHost(CompiledCatalog catalog, PartitionMap map, int hostId, int siteQueueCapacity,
      IntFunction<CommitPipeline> pipelines, QueryLimits limits) throws InterruptedException {
    return openHost(catalog, map, hostId, siteQueueCapacity, pipelines, ImmediateCommitPipeline.INSTANCE, limits);
  }

  /**
   * As {@link #openHost(CompiledCatalog, PartitionMap, int, int, IntFunction, QueryLimits)}, every replica copy
   * passing what it runs through {@code replicaPipeline} (the host's command log, docs/durability.md, "On a
   * cluster"): each item its leader sent is handed to it, under the leader's header, once it ran here, and the
   * copy's acknowledgement waits for its release (in sync mode: until the item is on this host's disk).
   */
  public static Database openHost(CompiledCatalog catalog, PartitionMap map, int hostId, int siteQueueCapacity,
      IntFunction<CommitPipeline> pipelines, CommitPipeline replicaPipeline, QueryLimits limits)
      throws InterruptedException {
    if (siteQueueCapacity < 2) {
      throw new IllegalArgumentException("the site queue capacity must be at least 2, got " + siteQueueCapacity);
    }
    final Database db = new Database(catalog, map, hostId);
    db.hostLimits = limits;
    db.hostQueueCapacity = siteQueueCapacity;
    db.replicaLog = replicaPipeline;
    db.openCopies(siteQueueCapacity, pipelines, limits);
    if (db.sites.isEmpty() && db.replicaSiteCount() == 0) {
      db.close();
      throw new IllegalArgumentException("host " + hostId + " holds no partition of " + map);
    }
    if (db.sites.size() == map.partitionCount() && db.replicaSiteCount() == 0 && singleCopies(map)) {
      // A cluster of one host: every partition is here, so multi-partition work runs as on a single host.
      db.coordinator = new MpCoordinator(DEFAULT_COORDINATOR_CAPACITY, List.copyOf(db.sites), db.map, db.catalog,
          db.adHocPlans, next -> db.catalog = next, limits, 1, pipelines.apply(0));
    }
    LOG.info("database open: partitions " + db.sites.stream().map(Site::partition).toList() + " led and "
        + db.replicaPartitions() + " replicated of " + map.partitionCount() + " on host " + hostId + ", "
        + catalog.schema().tables().size() + " table(s), " + catalog.procedures().size() + " procedure(s)");
    return db;
  }

  /**
   * A cluster host back by rejoin (docs/cluster.md, "Rejoin"): no copy yet
   * ({@code map} gives it none); each comes later through
   * {@link #openRejoinCopy}. Calls are answered NOT_LEADER until then.
   */
  public static Database openJoining(CompiledCatalog catalog, PartitionMap map, int hostId, int siteQueueCapacity,
      CommitPipeline replicaPipeline, QueryLimits limits) {
    final Database db = new Database(catalog, map, hostId);
    db.hostLimits = limits;
    db.hostQueueCapacity = siteQueueCapacity;
    db.replicaLog = replicaPipeline;
    LOG.info("database open: no copy yet on rejoining host " + hostId + " of " + map.partitionCount()
        + " partition(s)");
    return db;
  }

  /**
   * Rejoin, the leader's side: fixes a copy-on-write snapshot of partition
   * {@code partition}, which this host leads, between two of its items,
   * streamed to {@code sink} between the next ones; {@code cut} hears where
   * (docs/cluster.md, "Rejoin"). Waits for room on a full queue.
   */
  public void beginRejoinSnapshot(int partition, SnapshotSink sink, RejoinCut cut) {
    final Site site = sitesByPartition[partition];
    if (site == null) {
      cut.refused("host " + hostId + " does not lead partition " + partition);
      return;
    }
    site.submit(new RejoinBegin(sink, cut));
  }

  /**
   * Rejoin, the joining host's side: opens an empty replica copy of
   * {@code partition} in {@code epoch} (stopping this host's earlier one) and
   * loads the snapshot {@code source} delivers into it, then takes
   * {@code cut} as its last item and {@code dedupTable} (the leader's
   * de-duplication table at the cut; empty: none) as its table; {@code chunkLoaded} hears each chunk and
   * {@code done} the end. The leader's items after the cut follow through
   * {@link #offerReplicated}. REQUIRES: an earlier copy's source was closed
   * (its load ended), since stopping it waits for its site. Not on a site
   * thread or the event loop.
   */
  public void openRejoinCopy(int partition, long epoch, SnapshotSource source, TxnHeader cut, byte[] dedupTable,
      Runnable chunkLoaded, CompletableFuture<Long> done) throws InterruptedException {
    final Site old = replicaSites[partition];
    if (old != null) {
      replicaSites[partition] = null;
      old.stop();
    }
    final Site site = new Site(partition, map, catalog, adHocPlans, hostQueueCapacity,
        ImmediateCommitPipeline.INSTANCE, hostLimits, epoch);
    site.start();
    site.submit(new RejoinLoad(source, cut, dedupTable, chunkLoaded, done));
    replicaSites[partition] = site;
    synchronized (left) {
      left[partition] = false;
    }
  }

  /**
   * This host's copy of {@code partition} is no longer one of the
   * partition's copies: the metadata moved the partition to an epoch without
   * this host (its replica was dropped, a rejoin gave up, a leader was
   * deposed). What the copy holds stops counting: {@code @Statistics
   * CHECKSUM} no longer lists it (a copy left behind is not a copy of the
   * partition, and comparing it with the partition's copies would report a
   * difference that is not there). A rejoin's new copy counts again
   * ({@link #openRejoinCopy}). Any thread.
   */
  public void leftCopy(int partition) {
    synchronized (left) {
      left[partition] = true;
    }
  }

  /** Whether this host's copy of {@code partition}, if any, is one of the partition's copies. */
  private boolean holdsCopy(int partition) {
    synchronized (left) {
      return !left[partition];
    }
  }

  /**
   * Connects this cluster host's database to the other hosts for
   * multi-partition work (docs/cluster.md, "Multi-partition transactions"):
   * the leader of partition 0 in the map the metadata group installed is
   * the cluster's coordinator, and its coordinator reaches the partitions
   * the other hosts lead through {@code transport}; every other host
   * forwards the calls that need every partition to it and serves its steps
   * ({@link #serveFragment}). A cluster of one host (which holds every
   * partition) needs none of it. Call once, when every host of the cluster
   * can take the others' frames; until then multi-partition work is
   * refused, and steps another host sends are answered with an error.
   */
  public synchronized void connectHosts(HostTransport transport) {
    if (coordinator != null || fragments != null) {
      return;
    }
    hosts = new LeaderFollowingTransport(transport, map);
    directHosts = transport;
    resolver = new InDoubtResolver(hostId, transport, () -> map, parts, () -> coordinator);
    fragments = new FragmentServer(hostId, p -> sitesByPartition[p], parts, resolver, () -> copySnapshots,
        catalogs, this::adoptCatalog);
    final int coordinatorHost = map.leaderOf(0);
    if (coordinatorHost == hostId) {
      coordinator = clusterCoordinator(map.replicas(0).epoch());
    } else {
      forwarded = new ForwardedCalls(hostId, () -> map.leaderOf(0), hosts, DEFAULT_COORDINATOR_CAPACITY);
    }
    LOG.info("multi-partition coordinator: " + (coordinatorHost == hostId ? "this host (" + hostId + ")"
        : "host " + coordinatorHost + " (calls that need every partition are forwarded there)"));
  }

  /**
   * The coordinator of a cluster host leading partition 0 in {@code epoch}:
   * each transaction joins the partitions this host leads then on their
   * sites and the others on their leaders in the map it follows then.
   */
  private MpCoordinator clusterCoordinator(long epoch) {
    final CatalogSnapshot now = catalog;
    return new MpCoordinator(DEFAULT_COORDINATOR_CAPACITY, List.copyOf(sites), map, now,
        catalogs.history(now.version()), adHocPlans, this::adoptCatalog, hostLimits, epoch,
        new MpCoordinator.AcrossHosts(hostId, hosts, BatchRequestWriter.detached(), () -> map,
            p -> sitesByPartition[p], parts, () -> catalog, catalogs::history));
  }

  /**
   * Partition 0, and so the cluster's coordinator, moved from {@code old}'s
   * leader to {@code next}'s (docs/cluster.md, "Coordinator failover"):
   * the parts this host serves for the old coordinator are finished
   * ({@link FragmentServer#coordinatorMoved}); a host that now leads
   * partition 0 becomes the coordinator (its merge engine loaded with the
   * replicated tables of its copy of partition 0) and stops forwarding; a
   * host that lost partition 0 forwards from now on. Calls reaching this
   * host while it switches are forwarded to the new coordinator, which
   * answers NOT_LEADER (not run) until it is ready.
   */
  private synchronized void coordinatorMoved(PartitionMap old, PartitionMap next) {
    fragments.coordinatorMoved(next);
    final int to = next.leaderOf(0);
    LOG.warning("multi-partition coordinator: partition 0 moved from host " + old.leaderOf(0) + " to host " + to
        + " in epoch " + next.replicas(0).epoch() + "; " + (to == hostId ? "this host coordinates from now on"
        : "calls that need every partition are forwarded there"));
    if (to == hostId) {
      coordinateWhenLed(next);
      return;
    }
    final CoordinatorStart abandoned = abandonStart();
    if (abandoned != null) {
      LOG.warning("multi-partition coordinator: the start in epoch " + abandoned.epoch() + " of partition 0 is"
          + " abandoned");
      closeAlone(abandoned.made());
    }
    if (coordinator != null) {
      final MpCoordinator deposed = coordinator;
      forwarded = new ForwardedCalls(hostId, () -> map.leaderOf(0), hosts, DEFAULT_COORDINATOR_CAPACITY);
      coordinator = null;
      closeAlone(deposed);
    }
  }

  /**
   * This host leads partition 0 in {@code next}: it becomes the cluster's
   * coordinator unless it is one or is becoming one, and stops forwarding
   * once its merge engine holds the replicated tables of its copy of
   * partition 0. The copy is taken on partition 0's site, which may first
   * hold a prepared part until the in-doubt resolver decides it; so this
   * does not wait for it: {@link #finishStart} completes the start on its
   * own thread when the copy arrives, and until then calls that need every
   * partition are answered NOT_LEADER (not run). With no site leading
   * partition 0 yet (a failover that keeps several copies waits for their
   * repair) it cannot start, and says so; the map that follows the repair
   * (the next epoch, led by this host again) calls this once more.
   */
  private synchronized void coordinateWhenLed(PartitionMap next) {
    if (coordinator != null || starting != null) {
      return;
    }
    if (sitesByPartition[0] == null) {
      LOG.severe("multi-partition coordinator: this host leads partition 0 in the map but has no site leading it"
          + " (a failover that keeps several copies waits for repair); multi-partition calls are not coordinated"
          + " until it has one");
      return;
    }
    final long epoch = next.replicas(0).epoch();
    final CoordinatorStart start = new CoordinatorStart(clusterCoordinator(epoch), epoch);
    starting = start;
    final CompletableFuture<List<byte[]>> chunks = new CompletableFuture<>();
    chunks.whenCompleteAsync((replicated, failure) -> finishStart(start, replicated, failure),
        work -> runAlone(work, "partita-coordinator-start"));
    sitesByPartition[0].submit(new ReplicatedTablesCopy(replicatedTables(), chunks));
    LOG.info("multi-partition coordinator: starting in epoch " + epoch + " of partition 0, once its copy of the"
        + " replicated tables is taken");
  }

  /** A coordinator made for {@code epoch} of partition 0, waiting for the replicated tables of its copy. */
  private record CoordinatorStart(MpCoordinator made, long epoch) {}

  /**
   * The replicated tables for {@code start} arrived (or could not be
   * copied): it becomes the coordinator, unless partition 0 moved away
   * meanwhile ({@link #coordinatorMoved} abandoned it).
   */
  private synchronized void finishStart(CoordinatorStart start, List<byte[]> replicated, Throwable failure) {
    if (starting != start) {
      return; // abandoned, and closed, by coordinatorMoved
    }
    starting = null;
    if (failure != null) {
      LOG.severe("multi-partition coordinator: copying the replicated tables from partition 0 failed (" + failure
          + "); multi-partition calls reaching this host are refused");
      closeAlone(start.made()); // not under this monitor: closing waits for the coordinator's thread
      return;
    }
    start.made().submit(new MpCoordinator.LoadReplicated(List.copyOf(replicated), response -> {
      if (!response.ok()) {
        LOG.severe("multi-partition coordinator: loading the replicated tables failed: " + response.message());
      }
    }));
    coordinator = start.made();
    forwarded = null;
    LOG.warning("multi-partition coordinator: this host coordinates from epoch " + start.epoch()
        + " of partition 0");
  }

  /** Forgets the coordinator this host was starting, if any, and returns it (the caller closes it). */
  private synchronized CoordinatorStart abandonStart() {
    final CoordinatorStart abandoned = starting;
    starting = null;
    return abandoned;
  }

  /** Runs {@code work} on a daemon thread of its own (rare, slow work that must not block its caller's thread). */
  private static void runAlone(Runnable work, String name) {
    final Thread thread = new Thread(work, name);
    thread.setDaemon(true);
    thread.start();
  }

  /** Closes a coordinator this host no longer runs or starts, on a thread of its own. */
  private static void closeAlone(MpCoordinator unused) {
    runAlone(() -> closeQuietly(unused), "partita-coordinator-close");
  }

  private static void closeQuietly(MpCoordinator deposed) {
    try {
      deposed.close();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The multi-partition parts open on this host for other hosts' coordinators (0 with none); for tests. */
  int openFragmentParts() throws InterruptedException, java.util.concurrent.ExecutionException {
    final FragmentServer server = fragments;
    return server == null ? 0 : server.openParts();
  }

  /**
   * Runs one step the coordinator's host sent for a partition this host
   * leads; {@code answer} gets its outcome exactly once, on any thread.
   * Never blocks; any thread.
   */
  public void serveFragment(org.partita.proto.cluster.FragmentRequest request,
      Consumer<org.partita.proto.cluster.FragmentAnswer> answer) {
    final FragmentServer server = fragments;
    final InDoubtResolver outcomes = resolver;
    if (request.hasOutcome() && outcomes != null) {
      outcomes.answer(request, answer);
      return;
    }
    if (request.hasSnapshotDone()) {
      answerSnapshotDone(request, answer);
      return;
    }
    if (server == null) {
      answer.accept(org.partita.proto.cluster.FragmentAnswer.newBuilder().setRequestId(request.getRequestId())
          .setError(org.partita.proto.cluster.RemoteError.newBuilder()
              .setErrorCode(ErrorCode.ERROR_CODE_NOT_LEADER.getNumber())
              .setMessage("host " + hostId + " takes no multi-partition steps")).build());
      return;
    }
    server.serve(request, answer);
  }

  /**
   * Runs a call another host forwarded to this one, the coordinator's, as
   * if its own client had sent it; {@code answer} gets the response exactly
   * once, on any thread. Never blocks; any thread.
   */
  public void serveForwarded(org.partita.proto.cluster.ForwardedCall call,
      Consumer<org.partita.proto.cluster.ForwardedAnswer> answer) {
    final Consumer<ClientResponse> done = response -> answer.accept(ForwardedCalls.encode(call.getRequestId(),
        response));
    if (coordinator == null || fragments == null) {
      done.accept(ErrorTable.response(ErrorCode.ERROR_CODE_NOT_LEADER, "host " + hostId + " is not the cluster's"
          + " multi-partition coordinator; the call was not run"));
      return;
    }
    final Invocation invocation;
    try {
      invocation = Invocation.fromProto(call.getInvocation());
    } catch (org.partita.server.txn.MalformedInvocationException | RuntimeException e) {
      done.accept(ErrorTable.response(ErrorCode.ERROR_CODE_BAD_REQUEST, "a forwarded call from host "
          + call.getFromHostId() + " is malformed: " + e.getMessage()));
      return;
    }
    final boolean taken;
    if (invocation.procedure().equals("@SnapshotSave")) {
      final java.util.function.Supplier<CompletableFuture<ClientResponse>> save = snapshotSave;
      if (save == null || invocation.parameters().length != 0) {
        done.accept(ErrorTable.response(ErrorCode.ERROR_CODE_BAD_REQUEST, "host " + hostId + " takes no"
            + (save == null ? "" : " path with a") + " @SnapshotSave forwarded from host " + call.getFromHostId()));
        return;
      }
      save.get().thenAccept(done);
      return;
    }
    if (invocation.procedure().equals("@AdHoc")) {
      final Object[] values = invocation.parameters();
      if (values.length == 0 || !(values[0] instanceof String sql)) {
        done.accept(ErrorTable.response(ErrorCode.ERROR_CODE_BAD_PARAMETER, "@AdHoc takes its SQL text first"));
        return;
      }
      taken = offerAdHoc(invocation, sql, java.util.Arrays.copyOfRange(values, 1, values.length), done);
    } else {
      taken = offerCall(invocation, done);
    }
    if (!taken) {
      done.accept(ErrorTable.response(ErrorCode.ERROR_CODE_SERVER_BUSY, "the multi-partition coordinator's queue"
          + " is full; the call was not run"));
    }
  }

  private static boolean singleCopies(PartitionMap map) {
    for (int p = 0; p < map.partitionCount(); p++) {
      if (map.replicas(p).replicaHosts().size() > 1) {
        return false;
      }
    }
    return true;
  }

  /** Starts a site for every partition of a single host's map, each initiator in {@code epoch}. */
  private void openSites(int siteQueueCapacity, CommitPipeline pipeline, QueryLimits limits, long epoch)
      throws InterruptedException {
    try {
      for (int p = 0; p < map.partitionCount(); p++) {
        final Site site = new Site(p, map, catalog, adHocPlans, siteQueueCapacity, pipeline, limits, epoch);
        site.start();
        sites.add(site);
        sitesByPartition[p] = site;
      }
    } catch (RuntimeException | InterruptedException e) {
      close();
      throw e;
    }
  }

  /** Starts a site for every copy this host holds in the map: the ones it leads and the ones it replicates. */
  private void openCopies(int siteQueueCapacity, IntFunction<CommitPipeline> pipelines, QueryLimits limits)
      throws InterruptedException {
    try {
      for (int p = 0; p < map.partitionCount(); p++) {
        final PartitionMap.Replicas copies = map.replicas(p);
        if (copies.leaderHost() == hostId) {
          final Site site = new Site(p, map, catalog, adHocPlans, siteQueueCapacity, pipelines.apply(p), limits,
              copies.epoch());
          site.start();
          sites.add(site);
          sitesByPartition[p] = site;
        } else if (copies.replicaHosts().contains(hostId)) {
          final Site site = new Site(p, map, catalog, adHocPlans, siteQueueCapacity,
              ImmediateCommitPipeline.INSTANCE, limits, copies.epoch());
          site.start();
          replicaSites[p] = site;
        }
      }
    } catch (RuntimeException | InterruptedException e) {
      close();
      throw e;
    }
  }

  private int replicaSiteCount() {
    return replicaPartitions().size();
  }

  /** The partitions this host holds a copy of, leader or replica, in order. Any thread. */
  public List<Integer> heldPartitions() {
    final List<Integer> out = new ArrayList<>();
    for (int p = 0; p < sitesByPartition.length; p++) {
      if (sitesByPartition[p] != null || replicaSites[p] != null) {
        out.add(p);
      }
    }
    return out;
  }

  /** The partitions this host holds a replica of (and does not lead), in order. */
  public List<Integer> replicaPartitions() {
    final List<Integer> out = new ArrayList<>();
    for (int p = 0; p < replicaSites.length; p++) {
      if (replicaSites[p] != null) {
        out.add(p);
      }
    }
    return out;
  }

  /**
   * Queues {@code item}, which partition p's leader sequenced and ran, on this host's replica copy of p (p is
   * the item's header's partition): it runs under the leader's header, in the order offered, and {@code done}
   * gets its write hash on the copy's thread (docs/cluster.md, "Data plane"). Returns false iff the copy's
   * queue is full. Never blocks; any thread. This is the database's {@link ReplicaExecutor}.
   *
   * @throws IllegalArgumentException when this host holds no replica of p
   */
  /** Where this host's replica copies hand each item they ran (its command log, or an immediate pipeline). */
  CommitPipeline replicaLog() {
    return replicaLog;
  }

  public boolean offerReplicated(org.partita.proto.txn.WorkItem item, ReplicaExecutor.Done done) {
    final int partition = item.getHeader().getPartition();
    final Site site = partition < replicaSites.length ? replicaSites[partition] : null;
    if (site == null) {
      throw new IllegalArgumentException("host " + hostId + " holds no replica of partition " + partition);
    }
    if (item.hasDecision()) {
      decide(partition, item, done);
      return true;
    }
    if (item.hasSnapshotCut()) {
      return site.offer(new ReplicaSnapshotCut(this, item, done));
    }
    if (item.hasMultiPartitionRun() && item.getMultiPartitionRun().getPrepared()) {
      final PreparedHold hold = parts.hold(TxnHeader.fromProto(item.getMultiPartitionRun().getJoin()
          .getCoordinator()).id(), partition);
      if (!site.offer(new ReplicaRun(this, item, done, hold))) {
        parts.dropped(hold);
        return false;
      }
      return true;
    }
    return site.offer(new ReplicaRun(this, item, done));
  }

  /**
   * A decision item from the leader: it goes to the prepared part the copy holds (its site waits for it
   * there, not in its queue), which answers {@code done} once it committed or rolled back.
   */
  private void decide(int partition, org.partita.proto.txn.WorkItem item, ReplicaExecutor.Done done) {
    final PreparedHold hold = parts.decisionFor(partition);
    final TxnId txn = TxnHeader.fromProto(item.getDecision().getCoordinator()).id();
    if (hold == null || !hold.txn().equals(txn)) {
      done.failed("a decision on transaction " + txn + " for partition " + partition + ", whose copy on host "
          + hostId + " holds " + (hold == null ? "no prepared part" : "the prepared part of " + hold.txn()));
      return;
    }
    if (!hold.decide(new PreparedHold.Decision(item.getDecision().getCommit(), TxnHeader.fromProto(item.getHeader()),
        done, item.getDecision().getAnswer(), item.getDecision().getAnswerUnknown()))) {
      // Decided before, after a failover: the leader's decision is the same one (one coordinator decides).
      done.ran(0);
    }
  }

  /** What this host's copies hold of multi-partition transactions. */
  MultiPartitionParts multiPartitionParts() {
    return parts;
  }

  /**
   * Failover (docs/cluster.md, "Failure detection and failover"): from now on
   * this host's copy of {@code partition} sequences the partition's work in
   * {@code epoch} behind {@code pipeline}. A replica copy becomes the
   * partition's leader here (calls for it are run, no longer answered
   * NOT_LEADER, once {@link #followMap} publishes the map naming this host);
   * a copy this host led keeps leading in the new epoch. The switch is queued
   * behind every item already on the copy's queue, so everything the old
   * leader's order gave it runs first. Waits for room on a full queue; any
   * thread but a site's.
   *
   * @throws IllegalArgumentException when this host holds no copy of {@code partition}
   */
  public void lead(int partition, long epoch, CommitPipeline pipeline) {
    lead(partition, epoch, pipeline, () -> { });
  }

  /**
   * {@link #lead}, and {@code switched} runs on the copy's site in the same
   * step as the switch: after the last item of the old epoch was released to
   * the old pipeline and before any item of {@code epoch} is sequenced (a
   * rejoin marks the old epoch's end on its stream there: docs/cluster.md,
   * "Rejoin"). Nothing can come between the two, not even a multi-partition
   * join, which would hold the site until its prepare step, in the new epoch,
   * was acknowledged by every copy. {@code switched} must not block.
   */
  public void lead(int partition, long epoch, CommitPipeline pipeline, Runnable switched) {
    final Site led = sitesByPartition[partition];
    final Site site = led != null ? led : replicaSites[partition];
    if (site == null) {
      throw new IllegalArgumentException("host " + hostId + " holds no copy of partition " + partition);
    }
    site.submit(new LeadInEpoch(epoch, pipeline, switched));
    synchronized (left) {
      left[partition] = false;
    }
    if (led == null) {
      sites.add(site);
      sitesByPartition[partition] = site;
      replicaSites[partition] = null;
      resolveHeld(partition);
    }
    heldCalls.release(partition, site);
  }

  /**
   * This host's copy of {@code partition} is to lead it once it repaired
   * with the other copies (a failover with several survivors, a hand-off):
   * until {@link #lead} or {@link #notLeading}, calls for it wait here
   * instead of being answered NOT_LEADER ({@link HeldCalls}). Any thread.
   */
  public void expectLead(int partition) {
    heldCalls.expect(partition);
  }

  /** The copy {@link #expectLead} named will not lead now: the calls held for it are refused NOT_LEADER. */
  public void notLeading(int partition, String why) {
    heldCalls.refuse(partition, ErrorTable.response(ErrorCode.ERROR_CODE_NOT_LEADER, "host " + hostId + " was to "
        + "lead partition " + partition + " but does not (" + why + "); the call was not run: send it to the "
        + "partition's leader"));
  }

  /**
   * Leader hand-off (docs/cluster.md, "Leader rebalancing"): holds the site
   * of {@code partition}, which this host leads, between two items until
   * {@code release} completes (at most {@code maxMillis}). The returned
   * future completes once the site holds: every item queued before ran and
   * was released to the commit pipeline. Waits for room on a full queue;
   * any thread but a site's.
   *
   * @throws IllegalArgumentException when this host does not lead {@code partition}
   */
  public CompletableFuture<Void> holdLedSite(int partition, CompletableFuture<Void> release, long maxMillis) {
    final Site site = sitesByPartition[partition];
    if (site == null) {
      throw new IllegalArgumentException("host " + hostId + " does not lead partition " + partition);
    }
    final CompletableFuture<Void> holding = new CompletableFuture<>();
    site.submit(new LeaderHandOffHold(holding, release, maxMillis));
    return holding;
  }

  /**
   * Leader hand-off, after {@link #followMap} published the map in which
   * another host leads {@code partition}: this host's copy, which led it,
   * becomes a replica copy (it takes work only from its new leader,
   * {@link #offerReplicated}; calls for it are answered NOT_LEADER). Its
   * site keeps its state and queue; the items still queued are refused by
   * its deposed pipeline. Any thread.
   *
   * @throws IllegalArgumentException when this host does not lead {@code partition}
   */
  public void stepDown(int partition) {
    final Site site = sitesByPartition[partition];
    if (site == null) {
      throw new IllegalArgumentException("host " + hostId + " does not lead partition " + partition);
    }
    site.stepDown();
    replicaSites[partition] = site;
    sitesByPartition[partition] = null;
    sites.remove(site);
  }

  /**
   * A replica copy that now leads {@code partition} and holds a prepared
   * part: its old leader will send no decision, so the cluster's
   * coordinator gives it ({@link InDoubtResolver}); until then the copy
   * keeps it prepared and takes no other work.
   */
  private void resolveHeld(int partition) {
    final PreparedHold hold = parts.undecided(partition);
    final InDoubtResolver outcomes = resolver;
    if (hold == null || outcomes == null) {
      return;
    }
    outcomes.watch(hold.txn(), "the prepared part of partition " + partition + " on host " + hostId + " (its leader"
        + " is gone)", commit -> hold.decide(PreparedHold.Decision.byCoordinator(commit)));
  }

  /**
   * The cluster's map after a failover: who leads each partition now, as
   * NOT_LEADER answers and the login topology report it. Call after
   * {@link #lead} for the partitions this host took over. Any thread.
   */
  public void followMap(PartitionMap next) {
    if (next.partitionCount() != map.partitionCount()) {
      throw new IllegalArgumentException("a map of " + next.partitionCount() + " partitions for a database of "
          + map.partitionCount());
    }
    final PartitionMap old = map;
    map = next;
    final LeaderFollowingTransport following = hosts;
    if (following != null) {
      following.follow(next);
      if (next.leaderOf(0) != old.leaderOf(0)) {
        coordinatorMoved(old, next);
      } else if (next.leaderOf(0) == hostId) {
        coordinateWhenLed(next);
      }
    }
  }

  /** One copy of a partition on this host: its role, the last transaction it ran (null: none) and its checksum. */
  public record CopyChecksum(int partition, boolean leader, TxnId lastApplied, long checksum) {}

  /**
   * A checksum of every copy of a partition this host holds (led and replicated; not one it left,
   * {@link #leftCopy}), each made on its site's thread between two transactions ({@code @Statistics CHECKSUM}):
   * two copies that ran the same transactions have the same checksum. In partition order; null iff some copy's queue was full. Any thread.
   */
  public CompletableFuture<List<CopyChecksum>> offerChecksums() {
    final List<CompletableFuture<CopyChecksum>> parts = new ArrayList<>();
    for (int p = 0; p < map.partitionCount(); p++) {
      final Site site = sitesByPartition[p] != null ? sitesByPartition[p] : replicaSites[p];
      if (site == null || !holdsCopy(p)) {
        continue;
      }
      final CompletableFuture<CopyChecksum> part = new CompletableFuture<>();
      if (!site.offer(new SiteChecksum(site == sitesByPartition[p], part))) {
        return null;
      }
      parts.add(part);
    }
    return CompletableFuture.allOf(parts.toArray(new CompletableFuture<?>[0]))
        .thenApply(ignored -> parts.stream().map(CompletableFuture::join).toList());
  }

  /**
   * True when multi-partition work runs here: a single host, a cluster of one, or the cluster's coordinator
   * host once connected ({@link #connectHosts}).
   */
  private boolean holdsEveryPartition() {
    return coordinator != null;
  }

  /** Whether this host runs the multi-partition coordinator (a cluster's: the leader of partition 0). Any thread. */
  public boolean runsCoordinator() {
    return coordinator != null;
  }

  /** An empty database (no tables); build the schema with DDL through {@link #adHoc}. */
  public static Database openEmpty(int partitions) throws InterruptedException, DdlException {
    return open(new CatalogCompiler(Database.class.getClassLoader()).compile(List.of()), partitions);
  }

  public int partitionCount() {
    return map.partitionCount();
  }

  /** Where every key and partition lives. */
  public PartitionMap partitionMap() {
    return map;
  }

  public CompiledCatalog catalog() {
    return catalog.catalog();
  }

  /** The schema's version: 1 when opened, plus one for each schema change that committed. */
  public long catalogVersion() {
    return catalog.version();
  }

  /**
   * The table row counts ad-hoc SQL is planned with now (sums of the
   * partitions' engine statistics, refreshed as sites run): what
   * {@code @Explain} plans with too, so it shows the order ad-hoc SQL runs in.
   */
  public TableStatistics adHocStatistics() {
    return adHocPlans.rowCounts(catalog.catalog());
  }

  /**
   * Recovery's entry: replays logged work items in log order before the
   * database serves anyone (docs/durability.md). One replay per opening.
   */
  public LogReplay replayer() {
    return new LogReplay(this, sites.toArray(new Site[0]), coordinator);
  }

  /**
   * A cluster host's recovery entry (docs/cluster.md, "Durability on a
   * cluster"): replays logged items on every copy this host holds, led or
   * replicated, before it serves; a copy's part of a multi-partition
   * transaction runs on that copy alone. One replay per opening.
   */
  /**
   * Loads this host's copy of {@code partition}, empty, from {@code source}
   * (a cluster host's part of a snapshot across hosts) and takes
   * {@code cut} as its last transaction: the log replayed next must follow
   * it. Replicated tables reach the coordinator from partition 0's copy
   * when it starts, as after any recovery on a cluster. Returns the chunks
   * loaded. Recovery's thread, before the database serves anyone.
   *
   * @throws IllegalArgumentException when this host holds no copy of {@code partition}
   * @throws RuntimeException the copy's failure to load (the database is then unusable)
   */
  public long loadCopySnapshot(int partition, SnapshotSource source, TxnId cut) {
    final Site site = sitesByPartition[partition] != null ? sitesByPartition[partition] : replicaSites[partition];
    if (site == null) {
      throw new IllegalArgumentException("host " + hostId + " holds no copy of partition " + partition);
    }
    final CompletableFuture<Long> done = new CompletableFuture<>();
    site.submit(new SnapshotLoad(source, cut, null, done));
    return done.join();
  }

  public LogReplay copyReplayer() {
    final Site[] copies = new Site[map.partitionCount()];
    for (int p = 0; p < copies.length; p++) {
      copies[p] = sitesByPartition[p] != null ? sitesByPartition[p] : replicaSites[p];
    }
    return new LogReplay(this, copies, null);
  }

  CatalogSnapshot catalogSnapshot() {
    return catalog;
  }

  /** The catalog versions this host's copies use. */
  CatalogVersions catalogs() {
    return catalogs;
  }

  /**
   * A copy of this cluster host committed the schema change that made
   * {@code next} (docs/cluster.md, "Schema changes across hosts"): the host
   * plans, admits and routes at it from now on, unless it is already at
   * that version or a later one. Any thread.
   */
  synchronized void adoptCatalog(CatalogSnapshot next) {
    if (next.version() > catalog.version()) {
      catalog = next;
      LOG.info("catalog version " + next.version() + " committed: host " + hostId + " plans and admits calls at it");
    }
  }

  AdHocPlans adHocPlans() {
    return adHocPlans;
  }

  /** Calls a procedure; the future completes with its response (never exceptionally). */
  public CompletableFuture<ClientResponse> call(String procedureName, Object... arguments) {
    final CompletableFuture<ClientResponse> response = new CompletableFuture<>();
    final Invocation invocation;
    try {
      invocation = Invocation.of(procedureName, arguments, IN_PROCESS_CLIENT, inProcessSequence.incrementAndGet());
    } catch (ServerException e) {
      response.complete(ErrorTable.response(e));
      return response;
    }
    route(invocation, response::complete, true);
    return response;
  }

  /** Calls a procedure and waits for its response. */
  public ClientResponse callSync(String procedureName, Object... arguments) {
    return call(procedureName, arguments).join();
  }

  /**
   * Routes a call without blocking, as {@link #offerCall(Invocation, Consumer)},
   * encoding {@code arguments} first (a parameter with no wire form is
   * answered BAD_PARAMETER).
   */
  public boolean offerCall(String procedureName, Object[] arguments, Consumer<ClientResponse> done) {
    final Invocation invocation;
    try {
      invocation = Invocation.of(procedureName, arguments, IN_PROCESS_CLIENT, inProcessSequence.incrementAndGet());
    } catch (ServerException e) {
      done.accept(ErrorTable.response(e));
      return true;
    }
    return offerCall(invocation, done);
  }

  /**
   * Routes a call without blocking: a single-partition call is offered to
   * its partition's queue, a multi-partition one to the coordinator. Returns
   * false iff that queue is full, in which case nothing was run and
   * {@code done} is not called (the caller retries later: backpressure).
   * Otherwise {@code done} gets the response exactly once, on a site or
   * coordinator thread, or at once on this thread when the call is rejected
   * before running (unknown procedure, bad partitioning parameter).
   */
  public boolean offerCall(Invocation invocation, Consumer<ClientResponse> done) {
    return route(invocation, done, false);
  }

  private boolean route(Invocation invocation, Consumer<ClientResponse> done, boolean mayWait) {
    if (refusedTimeout(invocation, done)) {
      return true;
    }
    final CatalogSnapshot snapshot = catalog;
    final CompiledProcedure procedure = snapshot.catalog().procedures().get(invocation.procedure()); // no Optional
    if (procedure == null) {
      done.accept(ErrorTable.response(ErrorCode.ERROR_CODE_PROCEDURE_NOT_FOUND,
          "procedure " + invocation.procedure() + " does not exist"));
      return true;
    }
    if (!procedure.singlePartition()) {
      return toCoordinator(new MpCoordinator.Call(invocation, done), mayWait);
    }
    final int partition;
    try {
      partition = partitionOfCall(procedure, invocation);
    } catch (ServerException e) {
      done.accept(ErrorTable.response(e));
      return true;
    }
    return toPartition(partition, new ProcedureCall(invocation, procedure, snapshot.version(), done), done, mayWait);
  }

  /**
   * Queues {@code call} on the site of {@code partition} when this host leads
   * it, holds it when this host is about to ({@link #expectLead}), and
   * otherwise answers {@code done} NOT_LEADER. Returns false iff the site's
   * queue was full and {@code mayWait} is false (nothing was queued).
   */
  private boolean toPartition(int partition, WorkItem call, Consumer<ClientResponse> done, boolean mayWait) {
    // Read the map first: a failover writes the site before it publishes the map.
    final PartitionMap map = this.map;
    final Site site = sitesByPartition[partition];
    if (site != null) {
      return enqueue(site, call, mayWait);
    }
    if (heldCalls.hold(partition, call)) {
      return true;
    }
    final Site led = sitesByPartition[partition];
    if (led != null) {
      // It began to lead between the two reads: its held calls were released before this one.
      return enqueue(led, call, mayWait);
    }
    done.accept(ErrorTable.response(ErrorCode.ERROR_CODE_NOT_LEADER, "partition " + partition + " is led by host "
        + map.leaderOf(partition) + ", not by this host (" + hostId + "); topology version " + map.version()
        + "; the call was not run: send it to the leader"));
    return true;
  }

  /** Answers BAD_PARAMETER iff the call asks for a time limit over the longest allowed; returns whether it did. */
  private static boolean refusedTimeout(Invocation invocation, Consumer<ClientResponse> done) {
    final String refusal = QueryLimits.checkRequested(invocation.timeoutMillis());
    if (refusal == null) {
      return false;
    }
    done.accept(ErrorTable.response(ErrorCode.ERROR_CODE_BAD_PARAMETER, refusal + "; the call to "
        + invocation.procedure() + " was not run"));
    return true;
  }

  /**
   * Cancels what runs for client {@code clientId} now: its call running on any
   * partition or on the coordinator (docs/system-procedures.md,
   * {@code @CancelQuery}). Calls still queued are not touched. Any thread.
   *
   * @return the calls cancelled (one per partition or coordinator that ran one)
   */
  public List<Invocation> cancelClient(long clientId) {
    final List<Invocation> cancelled = new ArrayList<>();
    for (Site site : sites) {
      addIfCancelled(cancelled, site.runningCall(), clientId);
    }
    final Invocation mp = coordinator == null ? null : coordinator.cancel(clientId);
    if (mp != null) {
      cancelled.add(mp);
    }
    return cancelled;
  }

  /**
   * Cancels whatever call partition {@code partition} runs now, whoever's
   * (a multi-partition call it serves is cancelled everywhere). Any thread.
   *
   * @return the cancelled call, or null when the partition ran none
   * @throws IllegalArgumentException when there is no such partition
   */
  public Invocation cancelPartition(int partition) {
    if (partition < 0 || partition >= sitesByPartition.length) {
      throw new IllegalArgumentException("no partition " + partition + " (partitions are 0 to "
          + (sitesByPartition.length - 1) + ")");
    }
    if (sitesByPartition[partition] == null) {
      throw new IllegalArgumentException("partition " + partition + " is led by host " + map.leaderOf(partition)
          + ", not by this host (" + hostId + ")");
    }
    final RunningCall running = sitesByPartition[partition].runningCall();
    return running == null ? null : running.cancelAny();
  }

  private static void addIfCancelled(List<Invocation> out, RunningCall running, long clientId) {
    final Invocation cancelled = running == null ? null : running.cancel(clientId);
    if (cancelled != null) {
      out.add(cancelled);
    }
  }

  /** The partition of a single-partition call: its partitioning parameter through the partition map. */
  private int partitionOfCall(CompiledProcedure procedure, Invocation invocation) {
    final int index = procedure.partition().parameterIndex();
    if (invocation.parameterCount() <= index) {
      throw ServerException.badParameter("procedure " + procedure.name() + " is partitioned on parameter "
          + (index + 1) + " but " + invocation.parameterCount() + " were given");
    }
    final int at = ParameterConverter.integerPartitionKeyAt(procedure, invocation);
    if (at >= 0) {
      return map.partitionOfLong(invocation.integerAt(at)); // no box, no conversion, no subject string per call
    }
    final ValueType type = procedure.partition().columnType();
    final Object value = invocation.parameter(index);
    final Object key = ParameterConverter.partitionValue(value, type, "procedure " + procedure.name(), index + 1);
    return map.partitionOf(key);
  }

  /**
   * Runs one SQL statement as its own transaction: a query or DML (on one
   * partition when its WHERE or VALUES fixes the partitioning column, else
   * through the coordinator), or DDL that changes the schema.
   */
  public CompletableFuture<ClientResponse> adHoc(String sql, Object... parameters) {
    final CompletableFuture<ClientResponse> response = new CompletableFuture<>();
    final Invocation invocation;
    try {
      invocation = adHocInvocation(sql, parameters);
    } catch (ServerException e) {
      response.complete(ErrorTable.response(e));
      return response;
    }
    routeAdHoc(invocation, sql, parameters == null ? new Object[0] : parameters, response::complete, true);
    return response;
  }

  public ClientResponse adHocSync(String sql, Object... parameters) {
    return adHoc(sql, parameters).join();
  }

  /**
   * Runs one SQL statement as its own transaction, like {@link #adHoc}, but
   * without blocking: returns false iff the queue it needs is full (nothing
   * was run, {@code done} is not called).
   */
  public boolean offerAdHoc(String sql, Object[] parameters, Consumer<ClientResponse> done) {
    final Invocation invocation;
    try {
      invocation = adHocInvocation(sql, parameters);
    } catch (ServerException e) {
      done.accept(ErrorTable.response(e));
      return true;
    }
    return offerAdHoc(invocation, sql, parameters == null ? new Object[0] : parameters, done);
  }

  /**
   * {@link #offerAdHoc(String, Object[], Consumer)} for an {@code @AdHoc}
   * invocation a front end received, already decoded into its SQL text and
   * parameters.
   */
  public boolean offerAdHoc(Invocation invocation, String sql, Object[] parameters, Consumer<ClientResponse> done) {
    return routeAdHoc(invocation, sql, parameters, done, false);
  }

  private Invocation adHocInvocation(String sql, Object[] parameters) {
    final Object[] values = new Object[1 + (parameters == null ? 0 : parameters.length)];
    values[0] = sql;
    if (parameters != null) {
      System.arraycopy(parameters, 0, values, 1, parameters.length);
    }
    return Invocation.of("@AdHoc", values, IN_PROCESS_CLIENT, inProcessSequence.incrementAndGet());
  }

  private boolean routeAdHoc(Invocation invocation, String sql, Object[] parameters, Consumer<ClientResponse> done,
      boolean mayWait) {
    if (refusedTimeout(invocation, done)) {
      return true;
    }
    if (isDdl(sql)) {
      return toCoordinator(new MpCoordinator.Ddl(invocation, sql, done), mayWait);
    }
    final CatalogSnapshot snapshot = catalog;
    final ExecutableStatement statement;
    try {
      statement = adHocPlans.plan(sql, snapshot.catalog());
    } catch (PlanningException e) {
      done.accept(ErrorTable.response(ErrorCode.ERROR_CODE_SQL_ERROR, e.getMessage()));
      return true;
    }
    final PlannedStatement planned = statement.planned();
    final int partition;
    try {
      partition = localPartition(planned, parameters);
    } catch (ServerException e) {
      done.accept(ErrorTable.response(e));
      return true;
    }
    if (partition < 0) {
      return toCoordinator(new MpCoordinator.Statement(invocation, sql, statement, parameters, snapshot.version(),
          done), mayWait);
    }
    return toPartition(partition, new AdHocCall(invocation, sql, statement, parameters, snapshot.version(), done),
        done, mayWait);
  }

  /**
   * The partition that can run a statement alone, or -1 when it needs the
   * coordinator. Reads of replicated tables only (ANY_PARTITION) take the
   * partitions in turn.
   */
  private int localPartition(PlannedStatement planned, Object[] parameters) {
    switch (planned.distribution()) {
      case ANY_PARTITION:
        if (sites.isEmpty()) {
          throw new ServerException(ErrorCode.ERROR_CODE_NOT_LEADER, "this host (" + hostId + ") leads no partition;"
              + " send the statement to a host that leads one");
        }
        return sites.get(Math.floorMod(nextAnyPartition.getAndIncrement(), sites.size())).partition();
      case SINGLE_PARTITION:
        return StatementPartitions.partition(planned, parameters, "statement", map);
      default:
        return -1;
    }
  }

  /**
   * Whether {@code sql} is a schema change (DDL, roles and grants included), which @AdHoc
   * runs through the catalog compiler rather than the planner.
   */
  public static boolean isDdl(String sql) {
    final String head = sql.stripLeading().toUpperCase(Locale.ROOT);
    return head.startsWith("CREATE") || head.startsWith("DROP") || head.startsWith("PARTITION")
        || head.startsWith("ALTER") || head.startsWith("GRANT") || head.startsWith("REVOKE");
  }

  /**
   * Whether ad-hoc statement {@code sql} (not DDL) only reads, from its plan (cached for the run
   * that follows). A statement that does not plan counts as a read: it fails the same way when run.
   */
  public boolean adHocReadOnly(String sql) {
    try {
      return adHocPlans.plan(sql, catalog.catalog()).planned().readOnly();
    } catch (PlanningException e) {
      return true;
    }
  }

  private static boolean enqueue(Site site, WorkItem item, boolean mayWait) {
    if (mayWait) {
      site.submit(item);
      return true;
    }
    return site.offer(item);
  }

  private boolean toCoordinator(MpCoordinator.Request request, boolean mayWait) {
    final ForwardedCalls to = forwarded;
    if (to != null) {
      return forward(to, request, mayWait);
    }
    if (!holdsEveryPartition()) {
      request.done().accept(ErrorTable.response(ErrorCode.ERROR_CODE_BAD_REQUEST, "this host holds " + sites.size()
          + " of the cluster's " + map.partitionCount() + " partitions, and multi-partition transactions, statements "
          + "that need every partition and schema changes do not run until it is connected to the other hosts "
          + "(docs/cluster.md, \"Multi-partition transactions\"); the call was not run"));
      return true;
    }
    if (mayWait) {
      coordinator.submit(request);
      return true;
    }
    return coordinator.offer(request);
  }

  /** Forwards a call, a statement or DDL to the coordinator's host, as the client's invocation. */
  private boolean forward(ForwardedCalls to, MpCoordinator.Request request, boolean mayWait) {
    final Invocation invocation;
    if (request instanceof MpCoordinator.Call c) {
      invocation = c.invocation();
    } else if (request instanceof MpCoordinator.Statement s) {
      invocation = s.invocation();
    } else if (request instanceof MpCoordinator.Ddl d) {
      invocation = d.invocation();
    } else {
      request.done().accept(ErrorTable.response(ErrorCode.ERROR_CODE_BAD_REQUEST, "a "
          + request.getClass().getSimpleName() + " is not forwarded to the coordinator's host; nothing was run"));
      return true;
    }
    if (to.forward(invocation, request.done())) {
      return true;
    }
    if (mayWait) {
      request.done().accept(ErrorTable.response(ErrorCode.ERROR_CODE_SERVER_BUSY, "too many calls wait for the"
          + " coordinator's host " + to.coordinatorHost() + "; the call was not run"));
      return true;
    }
    return false;
  }

  /**
   * Takes a snapshot: a marker run by the multi-partition coordinator fixes
   * one transaction-consistent cut on every partition, then each partition
   * streams its rows as of the cut to {@code sink} between its transactions
   * (docs/durability.md, "Snapshots"). Returns the cut once every partition
   * has fixed it; the streams go on after. Any thread.
   */
  public CompletableFuture<SnapshotCut> beginSnapshot(SnapshotSink sink) {
    final CompletableFuture<SnapshotCut> cut = new CompletableFuture<>();
    coordinator.submit(new MpCoordinator.Snapshot(sink, cut, response -> {}));
    return cut;
  }

  /** Sets where this host's copies write their part of a snapshot taken across hosts. Any thread. */
  public void copySnapshots(CopySnapshots snapshots) {
    this.copySnapshots = snapshots;
  }

  /**
   * Sets what runs {@code @SnapshotSave} when another host forwards it here
   * (this host runs the coordinator then); null: such calls are refused.
   */
  public void forwardedSnapshotSave(java.util.function.Supplier<CompletableFuture<ClientResponse>> save) {
    this.snapshotSave = save;
  }

  /**
   * Sends {@code @SnapshotSave} to the coordinator's host and completes with
   * its answer (an error answer when it could not be sent). Any thread.
   *
   * @throws IllegalStateException when this host forwards nothing (it runs the coordinator, or is not connected)
   */
  public CompletableFuture<ClientResponse> forwardSnapshotSave() {
    final ForwardedCalls to = forwarded;
    if (to == null) {
      throw new IllegalStateException("host " + hostId + " forwards no calls to a coordinator");
    }
    final CompletableFuture<ClientResponse> answer = new CompletableFuture<>();
    if (!to.forward(Invocation.of("@SnapshotSave", new Object[0], 0, 0), answer::complete)) {
      answer.complete(ErrorTable.response(ErrorCode.ERROR_CODE_SERVER_BUSY, "too many calls wait for the"
          + " coordinator's host; @SnapshotSave was not sent"));
    }
    return answer;
  }

  /** Where this host's copies write a snapshot taken across hosts, or null. Any thread. */
  CopySnapshots copySnapshots() {
    return copySnapshots;
  }

  /** Answers whether this host's part of the snapshot the request names is complete, once it is. */
  private void answerSnapshotDone(org.partita.proto.cluster.FragmentRequest request,
      Consumer<org.partita.proto.cluster.FragmentAnswer> answer) {
    final String name = request.getSnapshotDone().getName();
    final CopySnapshots snapshots = copySnapshots;
    final CompletableFuture<?> done = snapshots == null
        ? CompletableFuture.failedFuture(new IllegalStateException("it takes no snapshots"))
        : request.getSnapshotDone().getEveryHost() ? snapshots.doneOnEveryHost(name) : snapshots.done(name);
    done.whenComplete((ignored, failure) -> {
      final org.partita.proto.cluster.FragmentAnswer.Builder out = org.partita.proto.cluster.FragmentAnswer
          .newBuilder().setRequestId(request.getRequestId());
      if (failure == null) {
        out.setDone(org.partita.proto.cluster.FragmentDone.getDefaultInstance());
      } else {
        final Throwable cause = failure instanceof java.util.concurrent.CompletionException
            && failure.getCause() != null ? failure.getCause() : failure;
        out.setError(org.partita.proto.cluster.RemoteError.newBuilder()
            .setErrorCode(ErrorCode.ERROR_CODE_INTERNAL.getNumber())
            .setMessage("host " + hostId + " holds no complete part of snapshot " + name + ": " + cause.getMessage()));
      }
      answer.accept(out.build());
    });
  }

  /**
   * Completes once every host holding a copy in the map this host follows
   * (this one included) has its part of snapshot {@code name} durable; fails
   * naming the first host whose part failed or that did not answer within
   * {@code timeoutMillis}. Any thread, after {@link #connectHosts}.
   */
  public CompletableFuture<Void> snapshotCompleteOnHosts(String name, long timeoutMillis) {
    return snapshotCompleteOnHosts(name, timeoutMillis, false);
  }

  /**
   * As {@link #snapshotCompleteOnHosts(String, long)}; with
   * {@code everyHost} (called once that completed) it tells each host that
   * every host's part is durable ({@link CopySnapshots#doneOnEveryHost}) and
   * completes once each marked its part so.
   */
  public CompletableFuture<Void> snapshotCompleteOnHosts(String name, long timeoutMillis, boolean everyHost) {
    final java.util.TreeSet<Integer> holders = new java.util.TreeSet<>();
    final PartitionMap followed = map;
    for (int p = 0; p < followed.partitionCount(); p++) {
      holders.add(followed.replicas(p).leaderHost());
      holders.addAll(followed.replicas(p).replicaHosts());
    }
    final List<CompletableFuture<?>> parts = new ArrayList<>();
    for (int host : holders) {
      final CompletableFuture<?> part;
      if (host == hostId) {
        final CopySnapshots snapshots = copySnapshots;
        part = snapshots == null ? CompletableFuture.failedFuture(new IllegalStateException("host " + hostId
            + " takes no snapshots")) : everyHost ? snapshots.doneOnEveryHost(name) : snapshots.done(name);
      } else {
        part = directHosts.send(host, org.partita.proto.cluster.FragmentRequest.newBuilder()
            .setCoordinatorHostId(hostId).setPartition(0)
            .setSnapshotDone(org.partita.proto.cluster.FragmentSnapshotDone.newBuilder().setName(name)
                .setEveryHost(everyHost)).build())
            .thenApply(a -> {
              if (a.hasError()) {
                throw new IllegalStateException(a.getError().getMessage());
              }
              return a;
            });
      }
      parts.add(part.orTimeout(timeoutMillis, java.util.concurrent.TimeUnit.MILLISECONDS)
          .handle((ignored, failure) -> {
            if (failure != null) {
              final Throwable cause = failure instanceof java.util.concurrent.CompletionException
                  && failure.getCause() != null ? failure.getCause() : failure;
              throw new java.util.concurrent.CompletionException(new IllegalStateException("host " + host + ": "
                  + (cause instanceof java.util.concurrent.TimeoutException ? "no answer within " + timeoutMillis
                  + " ms" : cause.getMessage()), cause));
            }
            return null;
          }));
    }
    return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new));
  }

  /**
   * Takes a snapshot across the hosts of a cluster (docs/durability.md, "On
   * a cluster"): the coordinator, which this host must run, cuts every
   * partition between two multi-partition transactions with a mark in its
   * order that every copy cuts at, each into its host's
   * {@link CopySnapshots}. Completes with the cuts by partition once every
   * copy began (not finished) its snapshot; fails naming the partition that
   * could not cut. Any thread.
   *
   * @throws IllegalStateException when this host does not run the coordinator
   */
  public CompletableFuture<List<TxnId>> cutSnapshotAcrossHosts(String name) {
    final MpCoordinator running = coordinator;
    if (running == null) {
      throw new IllegalStateException("host " + hostId + " does not run the multi-partition coordinator");
    }
    final CompletableFuture<List<TxnId>> cuts = new CompletableFuture<>();
    running.submit(new MpCoordinator.ClusterSnapshot(name, copySnapshots, cuts, response -> {
      if (!response.ok()) {
        cuts.completeExceptionally(new ServerException(response.errorCode(), response.message()));
      }
    }));
    return cuts;
  }

  /**
   * Loads a snapshot into this database, which holds no rows yet and whose
   * catalog is the snapshot's: partition p's chunks from {@code sources.get(p)},
   * all partitions in parallel (indexes built as rows arrive, views loaded from
   * their own chunks or, from a stream written before views were, rebuilt), the
   * replicated tables' copy on the coordinator from partition 0's; then each
   * partition continues after its cut ({@code cuts.get(p)}, null for none),
   * so the log replayed next must follow it. Returns the chunks loaded.
   * Recovery's thread, before the database serves anyone.
   *
   * @throws RuntimeException the first partition's failure (the database is then unusable)
   */
  public long loadSnapshot(List<SnapshotSource> sources, List<TxnId> cuts) {
    if (sources.size() != sites.size() || cuts.size() != sites.size()) {
      throw new IllegalArgumentException("a snapshot of " + sources.size() + " partition(s) for a database of "
          + sites.size());
    }
    final Set<String> replicatedTables = replicatedTables();
    final List<byte[]> replicated = Collections.synchronizedList(new ArrayList<>());
    final List<CompletableFuture<Long>> loads = new ArrayList<>();
    for (Site site : sites) {
      final CompletableFuture<Long> done = new CompletableFuture<>();
      final Consumer<byte[]> copy = site.partition() != 0 ? null : chunk -> {
        if (replicatedTables.contains(SnapshotChunks.table(chunk))) {
          replicated.add(chunk);
        }
      };
      site.submit(new SnapshotLoad(sources.get(site.partition()), cuts.get(site.partition()), copy, done));
      loads.add(done);
    }
    long chunks = 0;
    for (CompletableFuture<Long> load : loads) {
      chunks += load.join();
    }
    final CompletableFuture<ClientResponse> copied = new CompletableFuture<>();
    coordinator.submit(new MpCoordinator.LoadReplicated(List.copyOf(replicated), copied::complete));
    final ClientResponse response = copied.join();
    if (!response.ok()) {
      throw new IllegalStateException("loading the replicated tables on the coordinator: " + response.message());
    }
    return chunks;
  }

  /**
   * Restores a snapshot into this running database (docs/durability.md,
   * "Restoring a snapshot"): on the multi-partition coordinator, once the
   * work before it has finished, checks that every table of every partition
   * is empty, loads partition p's chunks from {@code sources.get(p)} (taken
   * with this catalog's tables), then cuts a snapshot of the result into
   * {@code sink}, as {@link #beginSnapshot} does. Returns that cut; it
   * completes exceptionally with a {@link ServerException} (BAD_REQUEST)
   * when a table holds rows, having changed nothing. REQUIRES: the commit
   * pipeline refuses new transactions from before this call until the
   * snapshot is durable (nothing runs between the load and the cut, and
   * nothing is answered that a crash before the snapshot could take back).
   */
  public CompletableFuture<SnapshotCut> restoreSnapshot(List<SnapshotSource> sources, SnapshotSink sink) {
    if (sources.size() != sites.size()) {
      throw new IllegalArgumentException("a snapshot of " + sources.size() + " partition(s) for a database of "
          + sites.size());
    }
    final CompletableFuture<SnapshotCut> cut = new CompletableFuture<>();
    coordinator.submit(new MpCoordinator.Restore(List.copyOf(sources), replicatedTables(), sink, cut,
        response -> {}));
    return cut;
  }

  /**
   * The names of the replicated tables of the current catalog, and of the views over them: a snapshot
   * stream carries the views' rows, which the coordinator's copy loads with its tables'. (Every view is
   * marked replicated; one over a partitioned table holds each partition's own rows.)
   */
  private Set<String> replicatedTables() {
    final Schema schema = catalog.catalog().schema();
    final Set<String> names = new HashSet<>();
    for (TableDef table : schema.tables()) {
      final TableDef base = table.isView() ? schema.table(table.view().sourceTable()).orElse(table) : table;
      if (base.isReplicated() && !base.isView()) {
        names.add(table.name());
      }
    }
    return names;
  }

  /**
   * Bytes of row images the partitions keep for the snapshot being taken:
   * rows changed before the snapshot's scan reached them, kept as of the
   * cut (docs/durability.md, "Snapshots"); 0 when none is taken. Each
   * partition publishes its figure between its transactions. Any thread.
   */
  public long snapshotKeptBytes() {
    long total = 0;
    for (Site site : sites) {
      total += site.snapshotKeptBytes();
    }
    return total;
  }

  /** Queue depth, capacity, busy time and items run of one partition's site; any thread. */
  public record PartitionStatus(int partition, int queueDepth, int queueCapacity, long busyNanos, long tasksRun) {}

  /** The status of every partition, in partition order. */
  public List<PartitionStatus> partitionStatuses() {
    final List<PartitionStatus> out = new ArrayList<>(sites.size());
    for (Site s : sites) {
      out.add(new PartitionStatus(s.partition(), s.queueDepth(), s.queueCapacity(), s.busyNanos(), s.tasksRun()));
    }
    return out;
  }

  /** The most multi-partition calls that may wait for the coordinator. */
  public int coordinatorCapacity() {
    return coordinator == null ? 0 : coordinator.capacity();
  }

  /** Multi-partition calls accepted and not yet finished. */
  public int coordinatorBacklog() {
    return coordinator == null ? 0 : coordinator.backlog();
  }

  /**
   * Rows and memory of every table in every partition, read on each site's
   * thread, in partition order. Never blocks: returns null iff some site's
   * queue was full (the partitions already asked answer into a future
   * nobody reads; reading statistics has no effect).
   */
  public CompletableFuture<List<TableStatsList>> offerTableStats() {
    final List<CompletableFuture<TableStatsList>> parts = new ArrayList<>();
    for (Site site : sites) {
      final CompletableFuture<TableStatsList> part = new CompletableFuture<>();
      if (!site.offer(new SiteRead(part))) {
        return null;
      }
      parts.add(part);
    }
    return CompletableFuture.allOf(parts.toArray(new CompletableFuture<?>[0]))
        .thenApply(ignored -> parts.stream().map(CompletableFuture::join).toList());
  }

  @Override
  public void close() throws InterruptedException {
    if (resolver != null) {
      resolver.close();
    }
    if (coordinator != null) {
      coordinator.close();
    }
    final CoordinatorStart unfinished = abandonStart();
    if (unfinished != null) {
      unfinished.made().close();
    }
    for (int p = 0; p < replicaSites.length; p++) {
      final PreparedHold hold = parts.undecided(p);
      if (hold != null) {
        // Closing: the copy's memory goes with it; a part not committed here is not logged here.
        hold.decide(PreparedHold.Decision.byCoordinator(false));
      }
    }
    if (fragments != null) {
      fragments.close();
    }
    for (Site site : sites) {
      site.stop();
    }
    for (Site site : replicaSites) {
      if (site != null) {
        site.stop();
      }
    }
    LOG.info("database closed");
  }
}
