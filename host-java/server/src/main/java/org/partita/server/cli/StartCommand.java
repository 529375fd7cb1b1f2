package org.partita.server.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.partita.server.database.Database;
import org.partita.server.database.QueryLimits;
import org.partita.server.durability.CommandLogMode;
import org.partita.server.durability.CommandLogOptions;
import org.partita.server.host.ClusterOptions;
import org.partita.server.host.PartitaServer;
import org.partita.server.host.ServerOptions;
import org.partita.server.host.StartupException;
import org.partita.server.security.ClusterTlsFiles;
import org.partita.server.network.ConnectionLimits;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code partita start}: compiles the schema, opens the database and serves
 * clients until SIGTERM, SIGINT or {@code @Shutdown}, then shuts down
 * gracefully. Prints one line when ready. Exit code 1 when it cannot start.
 */
@Command(name = "start", mixinStandardHelpOptions = true,
    description = {"Start a Partita server on this machine and serve until stopped (SIGTERM, Ctrl-C, "
        + "'partita stop' or @Shutdown).",
        "Prints one line starting with 'partita: ready' when it accepts clients."})
final class StartCommand implements Callable<Integer> {
  @Option(names = "--schema", paramLabel = "DDL", split = ",",
      description = "DDL files compiled in order into the schema (default: none, an empty database; "
          + "build one with @AdHoc DDL)")
  private List<Path> schema = new ArrayList<>();

  @Option(names = "--classes", paramLabel = "JAR|DIR", split = ",",
      description = "jars or class directories holding the procedure classes")
  private List<Path> classes = new ArrayList<>();

  @Option(names = "--sites", paramLabel = "N", description = "partitions (site threads) on this host (default: "
      + "the number of cores, ${DEFAULT-VALUE})")
  private int sites = Runtime.getRuntime().availableProcessors();

  @Option(names = "--port", paramLabel = "PORT", description = "client protocol port (default: ${DEFAULT-VALUE}; "
      + "0 = any free port)")
  private int port = ServerOptions.DEFAULT_CLIENT_PORT;

  @Option(names = "--http-port", paramLabel = "PORT", description = "HTTP/JSON port (default: ${DEFAULT-VALUE}; "
      + "0 = any free port; -1 = no HTTP)")
  private int httpPort = ServerOptions.DEFAULT_HTTP_PORT;

  @Option(names = "--bind", paramLabel = "ADDRESS", description = "address to listen on (default: ${DEFAULT-VALUE})")
  private String bind = ServerOptions.DEFAULT_BIND;

  @Option(names = "--data-dir", paramLabel = "DIR", description = "directory for the command log (commandlog/, "
      + "replayed at start) and the server's process file (server.properties: pid and ports, used by "
      + "'partita stop --data-dir')")
  private Path dataDir;

  @Option(names = "--command-log", paramLabel = "MODE", description = "sync: no answer before its record is on "
      + "disk; async: records written every --log-interval; off: nothing written, every row lost at stop "
      + "(default: sync with --data-dir, else off; off on a cluster host unless given; docs/durability.md)")
  private String commandLog;

  @Option(names = "--log-interval", paramLabel = "MS", description = "async command log: how often records are "
      + "written and synced (default: ${DEFAULT-VALUE})")
  private int logInterval = CommandLogOptions.DEFAULT_INTERVAL_MILLIS;

  @Option(names = "--log-max-lag", paramLabel = "MS", description = "async command log: new writes wait while "
      + "the disk is this far behind (default: ${DEFAULT-VALUE})")
  private int logMaxLag = CommandLogOptions.DEFAULT_MAX_LAG_MILLIS;

  @Option(names = "--log-segment-mb", paramLabel = "MB", description = "size each command log segment file is "
      + "preallocated to (default: ${DEFAULT-VALUE})")
  private int logSegmentMb = (int) (CommandLogOptions.DEFAULT_SEGMENT_BYTES >> 20);

  @Option(names = "--snapshot-log-size", paramLabel = "MB", description = "take a snapshot automatically once "
      + "this much command log was written since the last one, then delete the log segments the snapshots make "
      + "unneeded; 0 = never (default: ${DEFAULT-VALUE}; docs/durability.md)")
  private long snapshotLogMb = CommandLogOptions.DEFAULT_SNAPSHOT_LOG_BYTES >> 20;

  @Option(names = "--web-root", paramLabel = "DIR", description = "static files served at / on the HTTP port")
  private Path webRoot;

  @Option(names = "--max-in-flight", paramLabel = "N", description = "calls a connection may have unanswered "
      + "before the server stops reading from it (default: ${DEFAULT-VALUE})")
  private int maxInFlight = ConnectionLimits.DEFAULT_MAX_IN_FLIGHT;

  @Option(names = "--max-frame-bytes", paramLabel = "N", description = "largest client frame accepted "
      + "(default: ${DEFAULT-VALUE})")
  private int maxFrameBytes = ConnectionLimits.DEFAULT_MAX_FRAME_BYTES;

  @Option(names = "--site-queue", paramLabel = "N", description = "bound of each site's queue "
      + "(default: ${DEFAULT-VALUE})")
  private int siteQueue = Database.DEFAULT_SITE_QUEUE_CAPACITY;

  @Option(names = "--network-threads", paramLabel = "N", description = "event-loop threads for client "
      + "connections (default: ${DEFAULT-VALUE})")
  private int networkThreads = 1;

  @Option(names = "--query-timeout", paramLabel = "DURATION", description = "time limit of every transaction "
      + "(a procedure's whole run, an ad-hoc statement), read-only or not, unless the call sets its own: past it "
      + "the transaction is rolled back and answered TRANSACTION_TIMEOUT; e.g. 10s, 500ms, 2m; 0 = none; at most "
      + "1h (default: ${DEFAULT-VALUE})")
  private String queryTimeout = "10s";

  @Option(names = "--query-memory", paramLabel = "SIZE", description = "bound on one statement's intermediate "
      + "results (hash tables, sorts, DISTINCT) per partition: past it the statement fails with QUERY_MEMORY_LIMIT; "
      + "e.g. 512m, 2g, or bytes; 0 = unbounded (default: a quarter of this machine's memory over the sites and "
      + "the coordinator, at least 64m)")
  private String queryMemory;

  @Mixin
  private SecurityArgs security = new SecurityArgs();

  @Mixin
  private ClusterTlsArgs clusterTlsArgs = new ClusterTlsArgs();

  @Option(names = "--cluster", paramLabel = "HOST:PORT,...", description = "start this host as one of a cluster: "
      + "every host's internal address and port, the same list on every host (a host's id is its position, from 0; "
      + "its metadata port is the next port); needs --host-id, --data-dir and a --bind equal to its own address "
      + "(docs/cluster.md)")
  private String cluster;

  @Option(names = "--host-id", paramLabel = "N", description = "with --cluster: this host's position in the list, "
      + "from 0")
  private Integer hostId;

  @Option(names = "--kfactor", paramLabel = "K", description = "with --cluster: copies of each partition minus one "
      + "(default: ${DEFAULT-VALUE})")
  private int kFactor;

  @Option(names = "--sites-per-host", paramLabel = "S", description = "with --cluster: partitions (site threads) "
      + "on each host (default: --sites)")
  private Integer sitesPerHost;

  @Option(names = "--join-timeout", paramLabel = "DURATION", description = "with --cluster: how long this host "
      + "waits at start for the metadata group and every other host before it gives up (default: 60s)")
  private String joinTimeout;

  @Option(names = "--heartbeat-timeout", paramLabel = "DURATION", description = "with --cluster and K >= 1: how "
      + "long the metadata leader waits without a host's heartbeat before it declares the host dead and moves its "
      + "partitions to their other copies (default: 3s)")
  private String heartbeatTimeout;

  @Option(names = "--leader-rebalance-delay", paramLabel = "DURATION", description = "with --cluster and K >= 1: "
      + "how long the map must stay the same, with every host up and every partition on its K+1 hosts, before "
      + "partition leaders move back to copies on hosts that lead too few (after a rejoin); 0: never (default: 5s)")
  private String leaderRebalanceDelay;

  @Option(names = "--rejoin", description = "with --cluster and K >= 1: this host returns to the running cluster "
      + "that declared it dead; it receives a copy of each partition it is given from that partition's leader "
      + "(docs/cluster.md, \"Rejoin\")")
  private boolean rejoin;

  @Option(names = "--recover", description = "with --cluster and a command log: the whole cluster restarts on its "
      + "hosts' data directories (every host was stopped or killed; start each with --recover): the metadata from "
      + "its Raft log, every copy replayed from its host's command log, the copies of each partition reconciled "
      + "(docs/cluster.md, \"Durability on a cluster\")")
  private boolean recover;

  /** The cluster options, or null for a single host; IllegalArgumentException on options that need --cluster. */
  private ClusterOptions clusterOptions() {
    if (cluster == null) {
      if (hostId != null || sitesPerHost != null || kFactor != 0 || joinTimeout != null || heartbeatTimeout != null
          || leaderRebalanceDelay != null || rejoin || recover) {
        throw new IllegalArgumentException("--host-id, --kfactor, --sites-per-host, --join-timeout, "
            + "--heartbeat-timeout, --leader-rebalance-delay, --rejoin and --recover need --cluster");
      }
      return null;
    }
    if (hostId == null) {
      throw new IllegalArgumentException("--cluster needs --host-id (this host's position in the list, from 0)");
    }
    return new ClusterOptions(cluster, hostId, kFactor, sitesPerHost != null ? sitesPerHost : sites,
        joinTimeout == null ? ClusterOptions.DEFAULT_JOIN_TIMEOUT
            : java.time.Duration.ofMillis(Sizes.millis("--join-timeout", joinTimeout)),
        heartbeatTimeout == null ? ClusterOptions.DEFAULT_HEARTBEAT_TIMEOUT
            : java.time.Duration.ofMillis(Sizes.millis("--heartbeat-timeout", heartbeatTimeout)), rejoin, recover,
        leaderRebalanceDelay == null ? ClusterOptions.DEFAULT_LEADER_REBALANCE_DELAY
            : java.time.Duration.ofMillis(Sizes.millis("--leader-rebalance-delay", leaderRebalanceDelay)));
  }

  private CommandLogOptions commandLogOptions() {
    // A cluster host logs only when asked (docs/durability.md, "On a cluster", says why the default stays off).
    final CommandLogMode mode = commandLog != null ? CommandLogMode.parse(commandLog)
        : dataDir != null && cluster == null ? CommandLogMode.SYNC : CommandLogMode.OFF;
    return new CommandLogOptions(mode, logInterval, logMaxLag, (long) logSegmentMb << 20, snapshotLogMb << 20);
  }

  @Override
  public Integer call() throws Exception {
    final ServerOptions options;
    final PartitaServer server;
    final ClusterOptions clusterOptions;
    final ClusterTlsFiles clusterTls;
    try {
      clusterOptions = clusterOptions();
      final int sites = clusterOptions == null ? this.sites : clusterOptions.sitesPerHost();
      final QueryLimits queryLimits = new QueryLimits(Sizes.millis("--query-timeout", queryTimeout),
          queryMemory == null ? QueryLimits.machineMemoryBytes(QueryLimits.physicalMemoryBytes(), sites)
              : Sizes.bytes("--query-memory", queryMemory));
      options = new ServerOptions(schema, classes, sites, bind, port, httpPort, dataDir, webRoot,
          new ConnectionLimits(maxInFlight, maxFrameBytes), siteQueue, networkThreads, queryLimits,
          commandLogOptions());
      clusterTls = clusterTlsArgs.files(clusterOptions != null);
      server = clusterOptions == null ? PartitaServer.start(options, security.options())
          : PartitaServer.start(options, clusterOptions, security.options(), clusterTls);
    } catch (StartupException | IllegalArgumentException e) {
      System.err.println("partita start: " + e.getMessage());
      return 1;
    }
    final java.util.concurrent.atomic.AtomicReference<PartitaServer> running =
        new java.util.concurrent.atomic.AtomicReference<>(server);
    final java.util.concurrent.atomic.AtomicBoolean exiting = new java.util.concurrent.atomic.AtomicBoolean();
    final Runnable shutdown = () -> {
      exiting.set(true);
      try {
        running.get().shutdown();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    };
    StopSignals.install(shutdown);
    Runtime.getRuntime().addShutdownHook(new Thread(shutdown, "partita-exit"));
    printReady(options, clusterOptions, server);
    PartitaServer current = server;
    while (true) {
      current.awaitStopped();
      final String why = current.stoppedToRejoin();
      if (why == null || clusterOptions == null || exiting.get()) {
        return 0;
      }
      current = rejoin(options.onPorts(current.clientPort(), current.httpPort()), clusterOptions, clusterTls, why);
      if (current == null) {
        return 1;
      }
      running.set(current);
      if (exiting.get()) {
        current.shutdown();
      }
    }
  }

  /**
   * A cluster host declared dead starts again in this process as a new
   * incarnation, on the same ports (docs/cluster.md, "Network partitions");
   * null (and the reason printed) when it cannot.
   */
  private PartitaServer rejoin(ServerOptions options, ClusterOptions clusterOptions, ClusterTlsFiles clusterTls,
      String why) throws InterruptedException {
    System.out.println("partita: rejoining: " + why + "; this host starts again as a new incarnation with "
        + "--rejoin and takes its copies from their leaders");
    System.out.flush();
    final PartitaServer again;
    try {
      again = PartitaServer.start(options, clusterOptions.forRejoin(), security.options(), clusterTls);
    } catch (StartupException | IllegalArgumentException e) {
      System.err.println("partita start: this host was declared dead and could not rejoin: " + e.getMessage());
      return null;
    }
    printReady(options, clusterOptions, again);
    return again;
  }

  private void printReady(ServerOptions options, ClusterOptions clusterOptions, PartitaServer server) {
    System.out.println("partita: ready: client port " + bind + ":" + server.clientPort()
        + (server.httpPort() >= 0 ? ", HTTP port " + bind + ":" + server.httpPort() : "")
        + ", " + options.sites() + " site(s), command log " + options.commandLog().mode()
        + (clusterOptions == null ? "" : ", cluster host " + clusterOptions.hostId() + " of "
        + clusterOptions.hosts().split(",").length + ", every host serving"));
    System.out.flush();
  }
}
