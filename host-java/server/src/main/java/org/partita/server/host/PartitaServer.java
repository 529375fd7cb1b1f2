package org.partita.server.host;

import io.netty.channel.EventLoopGroup;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;
import java.util.function.Supplier;
import org.partita.client.proto.Host;
import org.partita.server.cluster.ClusterMember;
import org.partita.server.compiler.CatalogCompiler;
import org.partita.server.compiler.CompiledCatalog;
import org.partita.server.compiler.SourceFile;
import org.partita.server.compiler.ddl.DdlException;
import org.partita.server.database.Database;
import org.partita.server.durability.CommandLog;
import org.partita.server.sysproc.ClusterStatus;
import org.partita.server.sysproc.LogFigures;
import org.partita.server.http.HttpApiLimits;
import org.partita.server.http.HttpApiServer;
import org.partita.server.security.ClusterTlsFiles;
import org.partita.server.security.SecurityOptions;
import org.partita.server.network.ClientProtocolServer;
import org.partita.server.network.Transports;
import org.partita.server.stats.ProcedureStatistics;
import org.partita.server.sysproc.ServerIdentity;
import org.partita.server.sysproc.Snapshots;
import org.partita.server.sysproc.SystemProcedures;
import org.partita.server.txn.ImmediateCommitPipeline;

/**
 * A running Partita server on one host: the database (sites and
 * coordinator), the binary client protocol, the HTTP/JSON API and the
 * system procedures, with their lifecycle. {@link #start} returns once
 * every listener is bound; {@link #shutdown} (also run by {@code @Shutdown}
 * and SIGTERM) stops accepting, answers every accepted call, then closes
 * everything. Thread-safe.
 */
public final class PartitaServer implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(PartitaServer.class.getName());
  private static final long DRAIN_TIMEOUT_SECONDS = 30;
  /**
   * How long a host declared dead waits for its unanswered calls before it
   * closes their connections: it leads nothing any more, so what it still
   * holds is mostly calls that cannot finish (forwarded to a coordinator it
   * was cut off from); their clients see the connection close, an unknown
   * outcome, and the sooner it stops the sooner it rejoins.
   */
  private static final long REJOIN_DRAIN_SECONDS = 2;
  /** The process file written in the data directory while the server runs (pid, host, clientPort, httpPort). */
  public static final String PROCESS_FILE = "server.properties";

  private final ServerOptions options;
  private final Database database;
  /** The command log, or null when off; closed after the database. */
  private final CommandLog commandLog;
  private final ServerDispatcher dispatcher;
  private final SystemProcedures systemProcedures;
  /** The snapshots; null without a command log. */
  private final SnapshotService snapshotService;
  /** A cluster host's snapshots across hosts, or null. */
  private final ClusterSnapshots clusterSnapshots;
  private final ClientProtocolServer clientServer;
  private final HttpApiServer httpServer;
  private final long startedAtMillis = System.currentTimeMillis();
  private final EventLoopGroup acceptors = Transports.eventLoopGroup(1, "partita-accept");
  private final EventLoopGroup workers;
  private final AtomicBoolean stopping = new AtomicBoolean();
  private final CountDownLatch stopped = new CountDownLatch(1);
  private final HostIdentity identity;
  private int clientPort;
  private int httpPort = -1;
  /** This host's part in its cluster, or null on a single host; closed after the database. */
  private volatile ClusterMember cluster;
  /** Why this cluster host stopped to rejoin as a new incarnation, or null. */
  private volatile String rejoinReason;

  /** The command log's figures for {@code @Statistics COMMANDLOG} (any thread). */
  private LogFigures logFigures() {
    if (commandLog == null) {
      return LogFigures.OFF;
    }
    final CommandLog.Figures f = commandLog.figures();
    return new LogFigures(commandLog.options().mode().name(), f.records(), f.bytes(), f.syncs(), f.largestBatch(),
        f.longestSyncNanos(), f.throttledNanos(), f.syncP50Micros(), f.syncP99Micros(), f.syncP999Micros());
  }

  /** A server; {@code clusterHost}: one host of a cluster, whose HTTP port serves the cluster page too. */
  private PartitaServer(ServerOptions options, Database database, CommandLog commandLog, ServerSecurity security,
      boolean clusterHost) {
    this(options, database, commandLog, security, clusterHost, null);
  }

  /** As above; {@code clusterSnapshots}: a cluster host's snapshots across hosts, or null. */
  private PartitaServer(ServerOptions options, Database database, CommandLog commandLog, ServerSecurity security,
      boolean clusterHost, ClusterSnapshots clusterSnapshots) {
    this.options = options;
    this.clusterSnapshots = clusterSnapshots;
    this.database = database;
    this.commandLog = commandLog;
    this.workers = Transports.eventLoopGroup(options.networkThreads(), "partita-network");
    this.identity = new HostIdentity(database, options.bindAddress(), options.limits().maxFrameBytes());
    final ProcedureStatistics statistics = new ProcedureStatistics();
    final ClientProtocolServer[] network = new ClientProtocolServer[1];
    this.snapshotService = commandLog == null ? null : new SnapshotService(database, options.dataDir(), commandLog,
        options.commandLog().snapshotLogBytes());
    final Snapshots snapshots = clusterSnapshots != null ? clusterSnapshots
        : snapshotService == null ? Snapshots.NONE : snapshotService;
    this.systemProcedures = new SystemProcedures(database, statistics,
        () -> network[0].connections(), this::serverIdentity, this::shutdownInBackground, this::logFigures,
        snapshots);
    if (security.authenticator() != null) {
      systemProcedures.enableUserAdministration(security.authenticator().users());
    }
    this.dispatcher = new ServerDispatcher(database, systemProcedures, statistics, security.authenticator() != null);
    this.clientServer = new ClientProtocolServer(dispatcher, identity, options.limits(), security.authenticator(),
        security.tls());
    network[0] = clientServer;
    this.httpServer = options.httpPort() < 0 ? null : new HttpApiServer(dispatcher, options.webRoot(),
        HttpApiLimits.DEFAULTS, security.authenticator(), security.tls(), clusterHost);
  }

  private ServerIdentity serverIdentity() {
    return new ServerIdentity(identity.hostId(), options.bindAddress(), clientPort, httpPort, startedAtMillis,
        HostIdentity.SERVER_VERSION);
  }

  /** Compiles the schema, opens the database and binds every listener; no authentication, no TLS. */
  public static PartitaServer start(ServerOptions options) throws StartupException, InterruptedException {
    return start(options, SecurityOptions.OFF);
  }

  /**
   * {@link #start(ServerOptions)} with users, roles and TLS as {@code securityOptions} say
   * (docs/security.md).
   */
  public static PartitaServer start(ServerOptions options, SecurityOptions securityOptions)
      throws StartupException, InterruptedException {
    final long begin = System.nanoTime();
    final ServerSecurity security = ServerSecurity.open(securityOptions, options.bindAddress(), options.httpPort());
    final CompiledCatalog catalog = compile(options, DurableStart.procedureClasses(options));
    final DurableStart.Opened opened = DurableStart.open(options, catalog);
    final PartitaServer server = new PartitaServer(options, opened.database(), opened.log(), security, false);
    try {
      server.bind();
    } catch (RuntimeException | InterruptedException | IOException e) {
      server.close();
      throw new StartupException("cannot listen on " + options.bindAddress() + ": " + e.getMessage(), e);
    }
    LOG.info(server.readyLine(catalog, (System.nanoTime() - begin) / 1_000_000));
    return server;
  }

  /**
   * Starts one host of a cluster (docs/cluster.md, milestone 2): joins the
   * cluster, opens the partitions this host leads, binds every listener and
   * returns once every host of the cluster serves.
   */
  public static PartitaServer start(ServerOptions options, ClusterOptions cluster)
      throws StartupException, InterruptedException {
    return start(options, cluster, SecurityOptions.OFF, null);
  }

  /**
   * {@link #start(ServerOptions, ClusterOptions)} with users, roles and TLS on the client and HTTP ports as
   * {@code securityOptions} say, and, with {@code clusterTls} (null: a trusted network), mutual TLS between the
   * hosts (docs/security.md).
   */
  public static PartitaServer start(ServerOptions options, ClusterOptions cluster, SecurityOptions securityOptions,
      ClusterTlsFiles clusterTls) throws StartupException, InterruptedException {
    return ClusterStart.start(options, cluster, securityOptions, clusterTls);
  }

  /**
   * Binds the listeners of a cluster host whose partitions {@code database} holds; {@code @Statistics CLUSTER}
   * and the cluster page answer from {@code status}.
   */
  static PartitaServer bindClusterHost(ServerOptions options, Database database, ClusterMember member,
      Supplier<List<Host>> hosts, Supplier<ClusterStatus> status, ServerSecurity security, CommandLog log)
      throws StartupException, InterruptedException {
    final PartitaServer server = new PartitaServer(options, database, null, security, true,
        clusterSnapshots(options, database, member.hostId(), log));
    server.cluster = member;
    server.identity.joinCluster(member.hostId(), hosts);
    server.systemProcedures.followCluster(status);
    try {
      server.bind();
    } catch (RuntimeException | InterruptedException | IOException e) {
      server.close();
      throw new StartupException("cannot listen on " + options.bindAddress() + ": " + e.getMessage(), e);
    }
    return server;
  }

  /**
   * A cluster host's snapshots across hosts (docs/durability.md, "On a
   * cluster"), its copies writing into its data directory; none without one.
   * With {@code log} (null: none) and {@code --snapshot-log-size} above 0 it
   * takes them by itself and truncates the log after them.
   */
  private static ClusterSnapshots clusterSnapshots(ServerOptions options, Database database, int hostId,
      CommandLog log) {
    if (options.dataDir() == null) {
      return null;
    }
    final long size = log == null ? 0 : options.commandLog().snapshotLogBytes();
    final ClusterCopySnapshots copies = new ClusterCopySnapshots(database, options.dataDir(), hostId, log, size > 0);
    database.copySnapshots(copies);
    return new ClusterSnapshots(database, options.dataDir(), copies, size);
  }

  static CompiledCatalog compile(ServerOptions options, List<Path> classes) throws StartupException {
    final List<SourceFile> files = new ArrayList<>();
    for (Path p : options.schema()) {
      try {
        files.add(new SourceFile(p.toString(), Files.readString(p, StandardCharsets.UTF_8)));
      } catch (IOException e) {
        throw new StartupException("cannot read schema file " + p + ": " + e.getMessage(), e);
      }
    }
    try {
      final URLClassLoader loader = new URLClassLoader(classUrls(classes), PartitaServer.class.getClassLoader());
      return new CatalogCompiler(loader).compile(files);
    } catch (DdlException e) {
      throw new StartupException(e.getMessage(), e);
    }
  }

  private static URL[] classUrls(List<Path> classes) throws StartupException {
    final List<URL> urls = new ArrayList<>();
    for (Path p : classes) {
      if (!Files.exists(p)) {
        throw new StartupException("no such procedure classes jar or directory: " + p, null);
      }
      try {
        urls.add(p.toUri().toURL());
      } catch (MalformedURLException e) {
        throw new StartupException("bad classes path " + p + ": " + e.getMessage(), e);
      }
    }
    return urls.toArray(new URL[0]);
  }

  private void bind() throws InterruptedException, IOException {
    clientPort = clientServer.start(options.bindAddress(), options.clientPort(), acceptors, workers);
    if (httpServer != null) {
      httpPort = httpServer.start(options.bindAddress(), options.httpPort(), acceptors, workers,
          Transports.serverChannelClass());
    }
    identity.bound(clientPort, httpPort);
    writeProcessFile();
  }

  private String readyLine(CompiledCatalog catalog, long millis) {
    return "ready: client port " + options.bindAddress() + ":" + clientPort
        + (httpPort >= 0 ? ", HTTP port " + options.bindAddress() + ":" + httpPort : ", no HTTP port")
        + ", " + options.sites() + " site(s), " + catalog.schema().tables().size() + " table(s) and view(s), "
        + catalog.procedures().size() + " procedure(s), command log " + options.commandLog().mode() + ", "
        + (Transports.nativeEpoll() ? "epoll" : "nio")
        + ", started in " + millis + " ms";
  }

  private void writeProcessFile() throws IOException {
    if (options.dataDir() == null) {
      return;
    }
    Files.createDirectories(options.dataDir());
    final String text = "pid=" + ProcessHandle.current().pid() + "\nhost=" + options.bindAddress()
        + "\nclientPort=" + clientPort + "\nhttpPort=" + httpPort + "\n";
    final Path tmp = options.dataDir().resolve(PROCESS_FILE + ".tmp");
    Files.writeString(tmp, text, StandardCharsets.UTF_8);
    Files.move(tmp, options.dataDir().resolve(PROCESS_FILE), java.nio.file.StandardCopyOption.ATOMIC_MOVE,
        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
  }

  public int clientPort() {
    return clientPort;
  }

  /** The HTTP port, or -1 when there is no HTTP listener. */
  public int httpPort() {
    return httpPort;
  }

  public Database database() {
    return database;
  }

  private void shutdownInBackground() {
    final Thread t = new Thread(() -> {
      try {
        shutdown();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "partita-shutdown");
    t.start();
  }

  /**
   * A cluster host declared dead (docs/cluster.md, "Network partitions"):
   * shuts this server down in the background, recording {@code why}, so
   * that its owner starts the host again with {@code --rejoin} ({@link
   * #stoppedToRejoin}). Any thread; does not block.
   */
  void stopToRejoin(String why) {
    rejoinReason = why;
    LOG.warning("cluster: this host stops to rejoin the cluster as a new incarnation: " + why);
    shutdownInBackground();
  }

  /** Why this server stopped so that its host rejoins its cluster, or null when it did not. */
  public String stoppedToRejoin() {
    return rejoinReason;
  }

  /**
   * Stops accepting connections and calls, waits (up to 30 s, or 2 s when
   * stopping to rejoin) until every accepted call is answered, then closes connections, the database and
   * the event loops. Idempotent; a second caller waits for the first.
   */
  public void shutdown() throws InterruptedException {
    if (!stopping.compareAndSet(false, true)) {
      stopped.await();
      return;
    }
    try {
      LOG.info("shutting down: no new connections or calls; finishing " + clientServer.unanswered() + " call(s)");
      clientServer.stopAccepting();
      if (httpServer != null) {
        httpServer.setShuttingDown();
      }
      dispatcher.beginShutdown();
      if (snapshotService != null) {
        snapshotService.close();
      }
      if (clusterSnapshots != null) {
        clusterSnapshots.close();
      }
      final long drainSeconds = rejoinReason == null ? DRAIN_TIMEOUT_SECONDS : REJOIN_DRAIN_SECONDS;
      if (!clientServer.awaitQuiet(drainSeconds, TimeUnit.SECONDS)) {
        LOG.warning("shutting down with " + clientServer.unanswered() + " call(s) still unanswered after "
            + drainSeconds + " s" + (rejoinReason == null ? "" : " (stopping to rejoin: their outcome is unknown to"
            + " their clients)"));
      }
      clientServer.closeConnections();
      if (httpServer != null) {
        httpServer.close();
      }
      database.close();
      if (commandLog != null) {
        commandLog.close();
      }
      if (cluster != null) {
        cluster.close();
      }
      acceptors.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
      workers.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
      deleteProcessFile();
      LOG.info("stopped");
    } finally {
      stopped.countDown();
    }
  }

  private void deleteProcessFile() {
    if (options.dataDir() != null) {
      try {
        Files.deleteIfExists(options.dataDir().resolve(PROCESS_FILE));
      } catch (IOException e) {
        LOG.warning("could not delete " + options.dataDir().resolve(PROCESS_FILE) + ": " + e.getMessage());
      }
    }
  }

  /** Blocks until the server has stopped. */
  public void awaitStopped() throws InterruptedException {
    stopped.await();
  }

  @Override
  public void close() throws InterruptedException {
    shutdown();
  }
}
