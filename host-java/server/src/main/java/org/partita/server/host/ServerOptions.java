package org.partita.server.host;

import java.nio.file.Path;
import java.util.List;
import org.partita.server.database.QueryLimits;
import org.partita.server.durability.CommandLogMode;
import org.partita.server.durability.CommandLogOptions;
import org.partita.server.network.ConnectionLimits;

/**
 * How to start a server (docs/command-line.md, {@code partita start}).
 *
 * @param schema DDL files compiled in order into the schema (may be empty: an empty database)
 * @param classes jars or class directories holding the procedure classes
 * @param sites partitions on this host, one site thread each
 * @param bindAddress the address every listener binds
 * @param clientPort the binary protocol's port (0 = any free port)
 * @param httpPort the HTTP/JSON port (0 = any free port, -1 = no HTTP listener)
 * @param dataDir where the server writes its process file (server.properties); null = none
 * @param webRoot a directory of static files the HTTP port serves at /, or null
 * @param limits per-connection bounds of the binary protocol
 * @param siteQueueCapacity bound of each site's queue
 * @param networkThreads event-loop threads for client connections
 * @param queryLimits every transaction's time limit and each statement's memory bound (--query-timeout,
 *     --query-memory)
 * @param commandLog the command log (docs/durability.md); sync or async need a {@code dataDir}
 */
public record ServerOptions(List<Path> schema, List<Path> classes, int sites, String bindAddress, int clientPort,
    int httpPort, Path dataDir, Path webRoot, ConnectionLimits limits, int siteQueueCapacity, int networkThreads,
    QueryLimits queryLimits, CommandLogOptions commandLog) {
  public static final int DEFAULT_CLIENT_PORT = 21212;
  public static final int DEFAULT_HTTP_PORT = 8080;
  public static final String DEFAULT_BIND = "127.0.0.1";

  public ServerOptions {
    schema = List.copyOf(schema);
    classes = List.copyOf(classes);
    if (sites < 1) {
      throw new IllegalArgumentException("--sites must be at least 1, got " + sites);
    }
    if (commandLog.mode() != CommandLogMode.OFF && dataDir == null) {
      throw new IllegalArgumentException("--command-log " + commandLog.mode() + " needs --data-dir");
    }
    if (networkThreads < 1) {
      throw new IllegalArgumentException("network threads must be at least 1, got " + networkThreads);
    }
    if (queryLimits == null) {
      throw new IllegalArgumentException("query limits are required");
    }
  }

  /** Options with the default query limits ({@link QueryLimits#DEFAULT}) and no command log. */
  public ServerOptions(List<Path> schema, List<Path> classes, int sites, String bindAddress, int clientPort,
      int httpPort, Path dataDir, Path webRoot, ConnectionLimits limits, int siteQueueCapacity, int networkThreads) {
    this(schema, classes, sites, bindAddress, clientPort, httpPort, dataDir, webRoot, limits, siteQueueCapacity,
        networkThreads, QueryLimits.DEFAULT, CommandLogOptions.of(CommandLogMode.OFF));
  }

  /**
   * The same options on the ports a running server bound ({@code httpPort} -1: none), so that a host
   * starting again in the same process (a rejoin) is found where its clients knew it.
   */
  public ServerOptions onPorts(int boundClientPort, int boundHttpPort) {
    return new ServerOptions(schema, classes, sites, bindAddress, boundClientPort, boundHttpPort, dataDir, webRoot,
        limits, siteQueueCapacity, networkThreads, queryLimits, commandLog);
  }

  /** Defaults for tests and embedding: loopback, any free ports, no data dir, no HTTP root. */
  public static ServerOptions ephemeral(List<Path> schema, int sites) {
    return new ServerOptions(schema, List.of(), sites, DEFAULT_BIND, 0, 0, null, null, ConnectionLimits.defaults(),
        org.partita.server.database.Database.DEFAULT_SITE_QUEUE_CAPACITY, 1, QueryLimits.DEFAULT,
        CommandLogOptions.of(CommandLogMode.OFF));
  }
}
