package org.partita.client;

import io.netty.handler.ssl.SslContext;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.partita.client.internal.CallStats;
import org.partita.client.internal.CallTracker;
import org.partita.client.internal.ClientTls;
import org.partita.client.internal.Connection;
import org.partita.client.internal.ConnectionListener;
import org.partita.client.internal.PendingCall;
import org.partita.client.internal.RateLimiter;
import org.partita.client.internal.Router;
import org.partita.client.internal.Routes;
import org.partita.client.internal.ServerAddress;
import org.partita.client.internal.StatsRegistry;
import org.partita.client.internal.Transport;
import org.partita.client.internal.DelayedResends;
import org.partita.client.proto.Host;
import org.partita.client.proto.LoginResponse;
import org.partita.client.proto.Topology;

/**
 * A client of one or more Partita servers (docs/java-client.md): one TCP
 * connection per server, calls routed to the partition's leader, answers
 * matched to calls in any order. A server's login answer lists the hosts of
 * its cluster; the client connects to each host it is not yet connected to,
 * in the background, so one address of a cluster is enough.
 *
 * <pre>{@code
 * try (PartitaClient client = new PartitaClient(ClientConfig.defaults())) {
 *   client.connect("localhost:21212");
 *   ClientResponse r = client.call("Vote", 6175551234L, 3, 2L);
 *   client.callAsync("Vote", 2125550100L, 1, 2L).thenAccept(a -> System.out.println(a.firstLong()));
 *   client.drain();
 * }
 * }</pre>
 *
 * <p>Asynchronous calls complete normally with every answer of the server,
 * failures included (look at {@link ClientResponse#status()}); they complete
 * exceptionally only for client-side failures ({@link PartitaClientException}
 * subclasses). The synchronous {@link #call} throws {@link
 * ProcedureCallException} for an answer other than SUCCESS.
 *
 * <p>Thread model: thread-safe; any number of threads may call at once.
 * Futures complete and callbacks run on the client's I/O threads: code
 * chained to them must not block (in particular, must not make synchronous
 * calls). {@link #close()} releases every thread.
 */
public final class PartitaClient implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(PartitaClient.class.getName());
  private static final String SYSTEM_CATALOG = "@SystemCatalog";

  private final ClientConfig config;
  private final Transport transport;
  private final Router router = new Router();
  private final StatsRegistry stats = new StatsRegistry();
  private final ClientStatistics statistics = new ClientStatistics(stats);
  private final CallTracker tracker = new CallTracker();
  private final RateLimiter rateLimiter;
  private final AtomicLong handles = new AtomicLong();
  private final AtomicLong refreshedVersion = new AtomicLong(-1);
  private final AtomicLong refreshedTopology = new AtomicLong(-1);
  /** The leaders' question under way (askLeaders), or null. */
  private final AtomicReference<CompletableFuture<Void>> leadersAsked = new AtomicReference<>();
  /** Completes when the latest topology refresh asked for ended (either way). */
  private volatile CompletableFuture<Void> topologyFollowed = CompletableFuture.completedFuture(null);
  /** Times a call answered NOT_LEADER is sent again at most (a call not routed by the client: once per other host). */
  static final int MAX_NOT_LEADER_RESENDS = 2;
  /** Reads of a topology made again, at most, when the host asked had not followed it yet. */
  static final int STALE_TOPOLOGY_READS = 20;
  /** The pause before reading a topology again from a host that had not followed it yet. */
  static final long STALE_TOPOLOGY_READ_PAUSE_MILLIS = 50;
  private final Map<String, Connection> connections = new ConcurrentHashMap<>();
  private final Object connectLock = new Object();
  private final long defaultTimeoutNanos;
  private final int defaultServerTimeoutMillis;
  private final long backpressureNanos;
  /** The bound on calls in flight over all connections (ClientConfig.maxInFlight), or null for none. */
  private final Semaphore clientRoom;
  private final Events events = new Events();
  /** This client's session (LoginRequest.client_session): random, never 0, the same on every connection. */
  private final long session = newSession();
  /** Hosts the last login listed: calls whose outcome is unknown are sent again only on a cluster. */
  private volatile int clusterHosts = 1;
  private final DelayedResends delayedResends = new DelayedResends(this::askLeaders, call -> start(call, true));
  private volatile boolean closed;

  /** A client with the default configuration. */
  public PartitaClient() {
    this(ClientConfig.defaults());
  }

  /** The TLS context of every connection, or null for plain TCP. */
  private final SslContext tls;

  public PartitaClient(ClientConfig config) {
    this.config = Objects.requireNonNull(config, "config");
    this.tls = config.tls() == null ? null : ClientTls.context(config.tls());
    this.transport = new Transport(config.epoll(), config.ioThreads());
    this.rateLimiter = config.rateLimitPerSecond() > 0 ? new RateLimiter(config.rateLimitPerSecond()) : null;
    this.defaultTimeoutNanos = saturatedNanos(config.callTimeout());
    this.defaultServerTimeoutMillis = (int) config.queryTimeout().toMillis();
    this.backpressureNanos = saturatedNanos(config.backpressureTimeout());
    this.clientRoom = config.maxInFlight() > 0 ? new Semaphore(config.maxInFlight()) : null;
  }

  public ClientConfig config() {
    return config;
  }

  /**
   * Connects to the server at {@code hostAndPort} ("host", "host:port",
   * "[::1]:port"; the default port is 21212) and logs in, waiting up to the
   * connect timeout. Connecting again to an address already connected (or
   * reconnecting) does nothing; with reconnection off, it reopens a dropped
   * connection.
   *
   * @throws IllegalArgumentException for a malformed address
   * @throws LoginRefusedException when the server refuses the login (its message says why)
   * @throws PartitaClientException when the server cannot be reached or does not answer in time
   */
  public void connect(String hostAndPort) {
    ensureOpen();
    final ServerAddress address = ServerAddress.parse(hostAndPort, ClientConfig.DEFAULT_PORT);
    synchronized (connectLock) {
      ensureOpen();
      final Connection existing = connections.get(address.toString());
      if (existing != null && (existing.isUp() || config.reconnect())) {
        return;
      }
      if (existing != null) {
        existing.close();
        connections.remove(address.toString());
        router.remove(existing);
      }
      final Connection connection = new Connection(address, transport, config, events, tls);
      connections.put(address.toString(), connection);
      router.add(connection);
      boolean opened = false;
      try {
        awaitLogin(connection);
        opened = true;
      } finally {
        if (!opened) {
          connection.close();
          connections.remove(address.toString());
          router.remove(connection);
        }
      }
    }
  }

  private void awaitLogin(Connection connection) {
    final long timeout = config.connectTimeout().toMillis();
    try {
      connection.open().get(timeout, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new PartitaClientException("no login answer from " + connection.address() + " within " + timeout + " ms");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new PartitaClientException("interrupted while connecting to " + connection.address(), e);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof PartitaClientException p ? p
          : new PartitaClientException("cannot connect to " + connection.address() + ": " + e.getCause(), e.getCause());
    }
  }

  /**
   * Calls {@code procedure} with the default timeout. The future completes
   * with the server's answer, whatever its status, or exceptionally with a
   * {@link PartitaClientException} for a client-side failure.
   *
   * <p>Parameters: Long, Integer, Short, Byte, Double, Float, BigDecimal,
   * String, byte[], java.time.Instant, or null (SQL NULL).
   *
   * @throws IllegalArgumentException for a parameter of another type (nothing is sent)
   * @throws IllegalStateException when the client is closed
   */
  public CompletableFuture<ClientResponse> callAsync(String procedure, Object... parameters) {
    return callAsync(defaultTimeoutNanos, defaultServerTimeoutMillis, procedure, parameters);
  }

  /**
   * {@link #callAsync(String, Object...)} with its own timeout, which is also
   * the time limit the server gives the call's work (the invocation's
   * timeout_millis, whole milliseconds rounded up, at most
   * {@link ClientConfig#MAX_QUERY_TIMEOUT}): the server rolls the work back
   * and answers TRANSACTION_TIMEOUT, unless this client gave up waiting first.
   */
  public CompletableFuture<ClientResponse> callAsync(Duration timeout, String procedure, Object... parameters) {
    return callAsync(timeoutNanos(timeout), serverTimeoutMillis(timeout), procedure, parameters);
  }

  /**
   * Calls {@code procedure} with the default timeout and hands the outcome
   * to {@code callback} (on an I/O thread, or on this thread when the call
   * fails before being sent).
   *
   * @throws IllegalArgumentException for a parameter of an unsupported type (nothing is sent)
   */
  public void callAsync(ProcedureCallback callback, String procedure, Object... parameters) {
    Objects.requireNonNull(callback, "callback");
    ensureOpen();
    start(newCall(defaultTimeoutNanos, defaultServerTimeoutMillis, procedure, parameters, null, callback), false);
  }

  /** {@link #callAsync(ProcedureCallback, String, Object...)} with its own timeout. */
  public void callAsync(ProcedureCallback callback, Duration timeout, String procedure, Object... parameters) {
    Objects.requireNonNull(callback, "callback");
    ensureOpen();
    start(newCall(timeoutNanos(timeout), serverTimeoutMillis(timeout), procedure, parameters, null, callback), false);
  }

  /**
   * Calls {@code procedure} and waits for the answer.
   *
   * @return the answer, whose status is SUCCESS
   * @throws ProcedureCallException when the server answered with another status
   * @throws PartitaClientException for a client-side failure (a {@link RetriableException} when worth retrying)
   * @throws IllegalArgumentException for a parameter of an unsupported type (nothing is sent)
   */
  public ClientResponse call(String procedure, Object... parameters) {
    return await(procedure, callAsync(procedure, parameters));
  }

  /** {@link #call(String, Object...)} with its own timeout. */
  public ClientResponse call(Duration timeout, String procedure, Object... parameters) {
    return await(procedure, callAsync(timeout, procedure, parameters));
  }

  /** Waits until no call of this client is in flight. */
  public void drain() throws InterruptedException {
    tracker.awaitIdle();
  }

  /** The client's live statistics. */
  public ClientStatistics statistics() {
    return statistics;
  }

  /** The cluster layout and routing table as last learnt. */
  public ClusterTopology topology() {
    return router.topology();
  }

  /**
   * The version of the cluster map (topology) calls are routed by: a
   * login's, or a newer one the client followed (an answer naming it, a
   * topology push). 0 before any login.
   */
  public long topologyVersion() {
    return router.topologyVersion();
  }

  /**
   * The partition a call of {@code procedure} with {@code parameters} is
   * routed to now, by the topology and routes the client knows, or -1 when
   * it is not routed (a multi-partition or system procedure, a value the
   * client cannot hash, or routes not read yet: a client reads them after
   * its first login). Only a routed call is sent again when its outcome
   * becomes unknown (docs/java-client.md, "Calls sent again").
   */
  public int partitionOf(String procedure, Object... parameters) {
    return router.partitionOf(procedure, parameters == null ? new Object[] {null} : parameters);
  }

  /** The servers ("host:port") whose connection is up now. */
  public List<String> connectedServers() {
    return router.connectedServers();
  }

  /**
   * Closes every connection: calls still in flight fail with
   * ConnectionLostException, reconnection stops, and the I/O threads end.
   * Idempotent.
   */
  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    final List<CompletableFuture<Void>> closing = new ArrayList<>();
    connections.values().forEach(c -> closing.add(c.close()));
    for (CompletableFuture<Void> f : closing) {
      try {
        f.get(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      } catch (ExecutionException | TimeoutException e) {
        LOG.log(Level.WARNING, "a connection did not close cleanly", e);
      }
    }
    transport.close();
    connections.values().forEach(Connection::close);
    delayedResends.close();
  }

  private static long newSession() {
    final SecureRandom random = new SecureRandom();
    long session;
    do {
      session = random.nextLong();
    } while (session == 0);
    return session;
  }

  // ---- starting a call ----

  private CompletableFuture<ClientResponse> callAsync(long timeoutNanos, int serverTimeoutMillis, String procedure,
      Object[] parameters) {
    ensureOpen();
    final CompletableFuture<ClientResponse> future = new CompletableFuture<>();
    start(newCall(timeoutNanos, serverTimeoutMillis, procedure, parameters, future, null), false);
    return future;
  }

  private PendingCall newCall(long timeoutNanos, int serverTimeoutMillis, String procedure, Object[] parameters,
      CompletableFuture<ClientResponse> future, ProcedureCallback callback) {
    Objects.requireNonNull(procedure, "procedure");
    if (procedure.isEmpty()) {
      throw new IllegalArgumentException("procedure name is empty");
    }
    // call("P", null) passes a null array: one NULL parameter is what was meant.
    final Object[] values = parameters == null ? new Object[] {null} : parameters;
    return new PendingCall(handles.incrementAndGet(), procedure, values, timeoutNanos, serverTimeoutMillis,
        stats.of(procedure), tracker,
        future, callback);
  }

  /** Routes {@code call}, waits for room, and hands it to its connection; or fails it. */
  private void start(PendingCall call, boolean internal) {
    if (rateLimiter != null && !internal) {
      rateLimiter.acquire();
    }
    final long waitedNanos = internal ? 0 : takeClientRoom(call);
    if (waitedNanos < 0) {
      return;
    }
    final Connection connection = router.choose(call);
    if (connection == null) {
      notSent(call, new NoConnectionsException(noConnectionMessage(call.procedure())));
      return;
    }
    final int messageBytes = call.messageBytes();
    if (messageBytes > connection.maxFrameBytes()) {
      notSent(call, new FrameTooLargeException("the call to " + call.procedure() + " encodes to " + messageBytes
          + " bytes; the server at " + connection.address() + " accepts at most " + connection.maxFrameBytes()));
      return;
    }
    if (!acquireRoom(connection, call, internal ? 0 : Math.max(0, backpressureNanos - waitedNanos))) {
      return;
    }
    connection.submit(call);
  }

  /**
   * Takes room for a call of the user's in the client's bound on calls in
   * flight, waiting up to the backpressure timeout (not on an I/O thread): how long it waited, or
   * -1 when it failed the call (no room in time, or interrupted).
   */
  private long takeClientRoom(PendingCall call) {
    if (clientRoom == null) {
      return 0;
    }
    final long began = System.nanoTime();
    try {
      // Never waiting on an I/O thread (a call made from a callback): those are the threads that make room.
      if (clientRoom.tryAcquire() || (backpressureNanos > 0 && !transport.inIoThread()
          && clientRoom.tryAcquire(backpressureNanos, TimeUnit.NANOSECONDS))) {
        call.holdsRoomIn(clientRoom);
        return System.nanoTime() - began;
      }
      notSent(call, new BackpressureException("no room for the call to " + call.procedure() + ": "
          + config.maxInFlight() + " calls in flight on the client and none finished within "
          + config.backpressureTimeout().toMillis() + " ms"));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      notSent(call, new PartitaClientException("interrupted while waiting for room for the call to " + call.procedure(),
          e));
    }
    return -1;
  }

  private boolean acquireRoom(Connection connection, PendingCall call, long waitNanos) {
    try {
      if (connection.acquirePermit(waitNanos)) {
        return true;
      }
      notSent(call, new BackpressureException("no room for the call to " + call.procedure() + ": "
          + config.maxInFlightPerConnection() + " calls in flight on " + connection.address() + " and none finished within "
          + config.backpressureTimeout().toMillis() + " ms"));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      notSent(call, new PartitaClientException("interrupted while waiting for room for the call to " + call.procedure(),
          e));
    }
    return false;
  }

  /**
   * Fails {@code call} with {@code why} (this sending did not happen), unless
   * it is being sent again with an unknown outcome: an earlier sending may
   * have run, so it is tried again while its time lasts (the client may be
   * reconnecting), then completes unknown, never as not sent.
   */
  private void notSent(PendingCall call, PartitaClientException why) {
    if (call.unknownReason() == null) {
      call.fail(why, CallStats.Outcome.REJECTED_BY_CLIENT);
    } else if (closed || !delayedResends.resend(call, call.unknownReason())) {
      call.unknown(System.nanoTime());
    }
  }

  private String noConnectionMessage(String procedure) {
    if (connections.isEmpty()) {
      return "no connection to a Partita server (call connect() first); the call to " + procedure + " was not sent";
    }
    return "no connection to a Partita server is up (" + String.join(", ", connections.keySet())
        + (config.reconnect() ? " reconnecting" : " down, reconnect is off") + "); the call to " + procedure
        + " was not sent";
  }

  private static ClientResponse await(String procedure, CompletableFuture<ClientResponse> future) {
    final ClientResponse response;
    try {
      response = future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new PartitaClientException("interrupted while waiting for the answer to " + procedure, e);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof PartitaClientException p ? p
          : new PartitaClientException("the call to " + procedure + " failed: " + e.getCause(), e.getCause());
    }
    if (!response.ok()) {
      throw new ProcedureCallException(procedure, response);
    }
    return response;
  }

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("the client is closed");
    }
  }

  private static long timeoutNanos(Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive, got " + timeout);
    }
    return saturatedNanos(timeout);
  }

  /** The server time limit a call's own timeout asks for: whole milliseconds, rounded up, at most 1 hour. */
  private static int serverTimeoutMillis(Duration timeout) {
    if (timeout.compareTo(ClientConfig.MAX_QUERY_TIMEOUT) >= 0) {
      return (int) ClientConfig.MAX_QUERY_TIMEOUT.toMillis();
    }
    final long millis = timeout.toMillis();
    return (int) (Duration.ofMillis(millis).equals(timeout) ? millis : millis + 1);
  }

  /** The duration in nanoseconds, capped at about 73 years so that deadlines never overflow. */
  private static long saturatedNanos(Duration d) {
    try {
      return Math.min(d.toNanos(), Long.MAX_VALUE / 4);
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE / 4;
    }
  }

  // ---- routes refresh ----

  /** Asks the server for the routes of {@code version} once; on failure the old routes stay. */
  private void refreshRoutes(long version) {
    final long asked = refreshedVersion.get();
    if (version <= asked || closed || !refreshedVersion.compareAndSet(asked, version)) {
      return;
    }
    final CompletableFuture<ClientResponse> answer = new CompletableFuture<>();
    final PendingCall call = new PendingCall(handles.incrementAndGet(), SYSTEM_CATALOG, new Object[] {"PROCEDURES"},
        defaultTimeoutNanos, 0, null, tracker, answer, null);
    answer.whenComplete((response, failure) -> routesAnswered(version, asked, response, failure));
    start(call, true);
  }

  private void routesAnswered(long version, long asked, ClientResponse response, Throwable failure) {
    if (failure != null || !response.ok() || response.results().isEmpty()) {
      LOG.fine(() -> "keeping the routes of catalog version " + router.catalogVersion() + ": " + SYSTEM_CATALOG
          + " failed: " + (failure != null ? failure.getMessage() : response));
      if (failure instanceof RetriableException) {
        refreshedVersion.compareAndSet(version, asked);
      }
      return;
    }
    try {
      router.install(Routes.fromTable(response.results().get(0), version));
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "keeping the old routes: the " + SYSTEM_CATALOG + " PROCEDURES table is unreadable", e);
    }
  }

  /**
   * Asks for the partition leaders of topology {@code version} once
   * ({@code @SystemCatalog PARTITIONS}; a failover moved some): later calls
   * go to the new leaders. On failure the old leaders stay.
   */
  private CompletableFuture<Void> refreshTopology(long version) {
    return refreshTopology(version, STALE_TOPOLOGY_READS);
  }

  /**
   * As {@link #refreshTopology(long)}. The host the read reaches may not
   * have followed the new map yet (hosts follow it independently, some
   * milliseconds apart): its table is then older than {@code version}, and
   * the read is made again after {@link #STALE_TOPOLOGY_READ_PAUSE_MILLIS},
   * at most {@code readsLeft} more times, before the calls waiting for it
   * go on; the version is not counted as read until a table of it came.
   */
  private CompletableFuture<Void> refreshTopology(long version, int readsLeft) {
    final long asked = refreshedTopology.get();
    if (version <= asked || closed || !refreshedTopology.compareAndSet(asked, version)) {
      return topologyFollowed;
    }
    final CompletableFuture<Void> followed = new CompletableFuture<>();
    topologyFollowed = followed;
    readLeaders(followed, version, readsLeft, () -> refreshedTopology.compareAndSet(version, asked));
    return followed;
  }

  /**
   * Reads {@code @SystemCatalog PARTITIONS} and routes by its leaders;
   * {@code notRead} runs when the read fails or its table is older than
   * {@code version} (then it is read again through
   * {@link #refreshTopology(long, int)} while {@code readsLeft} allows), and
   * {@code followed} completes either way.
   */
  private void readLeaders(CompletableFuture<Void> followed, long version, int readsLeft, Runnable notRead) {
    final CompletableFuture<ClientResponse> answer = new CompletableFuture<>();
    final PendingCall call = new PendingCall(handles.incrementAndGet(), SYSTEM_CATALOG, new Object[] {"PARTITIONS"},
        defaultTimeoutNanos, 0, null, tracker, answer, null);
    answer.whenComplete((response, failure) -> {
      boolean readAgain = false;
      try {
        if (failure != null || !response.ok() || response.results().isEmpty()) {
          notRead.run();
          return;
        }
        if (followLeaders(response.results().get(0)) < version) {
          notRead.run();
          readAgain = readsLeft > 0 && !closed;
        }
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "keeping the old partition leaders: the " + SYSTEM_CATALOG + " PARTITIONS table is "
            + "unreadable", e);
      } finally {
        if (readAgain) {
          CompletableFuture.delayedExecutor(STALE_TOPOLOGY_READ_PAUSE_MILLIS, TimeUnit.MILLISECONDS).execute(
              () -> refreshTopology(version, readsLeft - 1).whenComplete((ignored, again) -> followed.complete(null)));
        } else {
          followed.complete(null);
        }
      }
    });
    start(call, true);
  }

  /**
   * Asks for the partition leaders now ({@code @SystemCatalog PARTITIONS}),
   * whatever version was followed; concurrent askers share one question.
   * Completes when it was answered, either way.
   */
  private CompletableFuture<Void> askLeaders() {
    final CompletableFuture<Void> followed = new CompletableFuture<>();
    final CompletableFuture<Void> earlier = leadersAsked.compareAndExchange(null, followed);
    if (earlier != null) {
      return earlier;
    }
    followed.whenComplete((ignored, failure) -> leadersAsked.compareAndSet(followed, null));
    readLeaders(followed, 0, 0, () -> { });
    return followed;
  }

  /**
   * Routes by the leaders of a {@code @SystemCatalog PARTITIONS} table (PARTITION_ID, LEADER_HOST_ID, ...,
   * TOPOLOGY_VERSION last); returns the table's topology version.
   */
  private long followLeaders(ResultTable partitions) {
    final List<int[]> rows = new ArrayList<>();
    long version = 0;
    final int versionColumn = partitions.columnCount() - 1;
    while (partitions.advanceRow()) {
      rows.add(new int[] {(int) partitions.getLong(0), (int) partitions.getLong(1)});
      version = Math.max(version, partitions.getLong(versionColumn));
    }
    final int[] leaders = new int[rows.size()];
    for (int[] row : rows) {
      if (row[0] < 0 || row[0] >= leaders.length) {
        throw new IllegalArgumentException("partition " + row[0] + " in a table of " + leaders.length);
      }
      leaders[row[0]] = row[1];
    }
    router.followLeaders(leaders, version);
    return version;
  }

  /**
   * Sends {@code call}, answered NOT_LEADER, again by the topology just
   * followed. When the connection to its partition's leader is down (a host
   * that came back and leads again while this client waits to reconnect to
   * it), that connection dials now and the call waits for it, at most the
   * connect timeout, instead of going round-robin to hosts that would answer
   * NOT_LEADER again.
   */
  private void sendToLeader(PendingCall call) {
    final Connection leader = router.leaderConnection(call.routedPartitionPlusOne() - 1);
    if (leader == null || leader.isUp()) {
      start(call, true);
      return;
    }
    leader.reconnectNow();
    leader.onceUp(() -> start(call, true), config.connectTimeout().toNanos());
  }

  private boolean connectedToHost(int hostId) {
    for (Connection c : connections.values()) {
      if (c.hostId() == hostId) {
        return true;
      }
    }
    return false;
  }

  /** Connects to each of {@code addresses} (hosts a login listed), logging the ones that cannot be reached. */
  private void connectToHosts(List<String> addresses) {
    for (String address : addresses) {
      if (closed) {
        return;
      }
      try {
        connect(address);
      } catch (RuntimeException e) {
        LOG.warning("could not connect to " + address + ", a host of the cluster's topology: " + e.getMessage());
      }
    }
  }

  /** What the connections report; runs on their event loops. */
  private final class Events implements ConnectionListener {
    @Override
    public void loggedIn(Connection connection, LoginResponse login) {
      router.loggedIn(login);
      clusterHosts = Math.max(1, login.getTopology().getHostsCount());
      discover(login.getTopology());
    }

    /** With host discovery on, connects in the background to every host of {@code topology} not reached yet. */
    private void discover(Topology topology) {
      if (!config.discoverHosts()) {
        return;
      }
      final List<String> unknown = new ArrayList<>();
      for (Host host : topology.getHostsList()) {
        final String address = host.getAddress() + ":" + host.getClientPort();
        if (!connectedToHost(host.getHostId()) && !connections.containsKey(address)) {
          unknown.add(address);
        }
      }
      if (!unknown.isEmpty() && !closed) {
        // connect() waits for the login: never on this event loop.
        final Thread discovery = new Thread(() -> connectToHosts(unknown), "partita-client-discovery");
        discovery.setDaemon(true);
        discovery.start();
      }
    }

    @Override
    public void wentDown(Connection connection) {
      router.rebuildConnections();
    }

    @Override
    public void catalogVersionSeen(long version) {
      if (version > router.catalogVersion()) {
        refreshRoutes(version);
      }
    }

    @Override
    public long clientSession() {
      return session;
    }

    @Override
    public void topologyPushed(Topology topology) {
      final int[] leaders = new int[topology.getPartitionLeadersCount()];
      for (int p = 0; p < leaders.length; p++) {
        leaders[p] = topology.getPartitionLeaders(p);
      }
      router.followLeaders(leaders, topology.getTopologyVersion());
      discover(topology);
    }

    @Override
    public boolean outcomeUnknown(PendingCall call, String reason) {
      return !closed && clusterHosts > 1 && delayedResends.resend(call, reason);
    }

    @Override
    public boolean notLeader(PendingCall call, long topologyVersion, ClientResponse answer) {
      if (call.unknownReason() != null) {
        // Not run there: keep looking for the leader until the call's time is up, then report it unknown.
        if (closed || !delayedResends.resend(call, call.unknownReason())) {
          call.unknown(System.nanoTime());
        }
        return true;
      }
      if (call.routedPartitionPlusOne() > 0 && topologyVersion < router.topologyVersion()) {
        // The host has not followed the topology this client routes by yet (hosts follow a new map some
        // milliseconds apart): it will, so the call goes to the leader again after a short wait, not counted
        // against the resends below.
        return !closed && delayedResends.resendAfterHostCatchesUp(call, answer);
      }
      // A call routed to a partition is sent to its leader by the newer topology; one the client could not route
      // (ad hoc) tries each host in turn.
      final int limit = call.routedPartitionPlusOne() > 0 ? MAX_NOT_LEADER_RESENDS
          : Math.max(MAX_NOT_LEADER_RESENDS, router.connectionsUp() - 1);
      if (closed || call.resends() >= limit) {
        return false;
      }
      call.giveBack();
      refreshTopology(topologyVersion).whenComplete((ignored, failure) -> sendToLeader(call));
      return true;
    }

    @Override
    public void topologyVersionSeen(long version) {
      if (version > router.topologyVersion()) {
        refreshTopology(version);
      }
    }

    @Override
    public void lateResponse() {
      stats.lateResponse();
    }
  }
}
