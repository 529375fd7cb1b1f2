package org.partita.client;

import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link PartitaClient} behaves: timeouts, limits, reconnection and
 * transport. Immutable; made with {@link #builder()}.
 *
 * <pre>{@code
 * ClientConfig config = ClientConfig.builder()
 *     .clientName("voter-driver")
 *     .callTimeout(Duration.ofSeconds(10))
 *     .rateLimitPerSecond(50_000)
 *     .build();
 * }</pre>
 */
public final class ClientConfig {
  /** The client port a "host" without ":port" means. */
  public static final int DEFAULT_PORT = 21212;
  /** The longest time limit a call may ask the server for (the server refuses longer ones). */
  public static final Duration MAX_QUERY_TIMEOUT = Duration.ofHours(1);

  private final String clientName;
  private final Duration connectTimeout;
  private final Duration callTimeout;
  private final Duration queryTimeout;
  private final int maxInFlightPerConnection;
  private final int maxInFlight;
  private final Duration backpressureTimeout;
  private final long rateLimitPerSecond;
  private final boolean reconnect;
  private final boolean discoverHosts;
  private final Duration reconnectInitialBackoff;
  private final Duration reconnectMaxBackoff;
  private final boolean epoll;
  private final int ioThreads;
  private final int maxResponseFrameBytes;
  private final String user;
  private final String password;
  private final TlsOptions tls;

  private ClientConfig(Builder b) {
    this.user = b.user;
    this.password = b.password;
    this.tls = b.tls;
    this.clientName = b.clientName;
    this.connectTimeout = b.connectTimeout;
    this.callTimeout = b.callTimeout;
    this.queryTimeout = b.queryTimeout;
    this.maxInFlightPerConnection = b.maxInFlightPerConnection;
    this.maxInFlight = b.maxInFlight;
    this.backpressureTimeout = b.backpressureTimeout;
    this.rateLimitPerSecond = b.rateLimitPerSecond;
    this.reconnect = b.reconnect;
    this.discoverHosts = b.discoverHosts;
    this.reconnectInitialBackoff = b.reconnectInitialBackoff;
    this.reconnectMaxBackoff = b.reconnectMaxBackoff;
    this.epoll = b.epoll;
    this.ioThreads = b.ioThreads;
    this.maxResponseFrameBytes = b.maxResponseFrameBytes;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The defaults: every builder setting left alone. */
  public static ClientConfig defaults() {
    return builder().build();
  }

  /** Sent at login, shown in the server's logs and connection statistics. Default "partita-java". */
  public String clientName() {
    return clientName;
  }

  /** How long connect() waits for the TCP connection and the login answer. Default 10 s. */
  public Duration connectTimeout() {
    return connectTimeout;
  }

  /** The timeout of calls made without an explicit one. Default 2 min. */
  public Duration callTimeout() {
    return callTimeout;
  }

  /**
   * The time limit the server gives the work of a call made without an
   * explicit timeout (sent as the invocation's timeout_millis): past it the
   * server rolls the transaction back and answers TRANSACTION_TIMEOUT.
   * Default zero: the server's own default ({@code partita start
   * --query-timeout}, 10 s unless set). A call with an explicit timeout sends
   * that timeout instead.
   */
  public Duration queryTimeout() {
    return queryTimeout;
  }

  /** Calls in flight on one connection before new calls wait for room. Default 4,096. */
  public int maxInFlightPerConnection() {
    return maxInFlightPerConnection;
  }

  /**
   * Calls in flight on the whole client, over all its connections, before
   * new calls wait for room, as they wait for room on a connection. Default
   * 0: no bound but the one per connection. A client of a cluster connects
   * to every host, so the calls it has in flight grow with the hosts unless
   * this bounds them (docs/java-client.md, "Backpressure"). The client's
   * own calls (reading a new topology) and calls sent again do not count.
   */
  public int maxInFlight() {
    return maxInFlight;
  }

  /** How long a call waits for room before failing with BackpressureException. Default 10 s. */
  public Duration backpressureTimeout() {
    return backpressureTimeout;
  }

  /** Calls per second the whole client may start; 0 = unlimited (the default). */
  public long rateLimitPerSecond() {
    return rateLimitPerSecond;
  }

  /** Whether a dropped connection is reopened in the background. Default true. */
  public boolean reconnect() {
    return reconnect;
  }

  /**
   * Whether the client connects to every host a login's topology lists (a
   * cluster's other hosts) besides the addresses given to connect. Default
   * true.
   */
  public boolean discoverHosts() {
    return discoverHosts;
  }

  /** The first wait before reconnecting; doubled after each failure. Default 100 ms. */
  public Duration reconnectInitialBackoff() {
    return reconnectInitialBackoff;
  }

  /** The longest wait between reconnection attempts. Default 5 s. */
  public Duration reconnectMaxBackoff() {
    return reconnectMaxBackoff;
  }

  /** Whether to use Linux's native epoll transport when it is available (else NIO). Default true. */
  public boolean epoll() {
    return epoll;
  }

  /** I/O threads shared by all connections. Default: min(4, available processors). */
  public int ioThreads() {
    return ioThreads;
  }

  /** The largest server frame accepted; a larger one closes the connection. Default 256 MiB. */
  public int maxResponseFrameBytes() {
    return maxResponseFrameBytes;
  }

  /** The user this client logs in as (SCRAM-SHA-256), or null to log in without authentication. */
  public String user() {
    return user;
  }

  /** The user's password (never sent: SCRAM proves knowledge of it), or null without a user. */
  public String password() {
    return password;
  }

  /** How to speak TLS to the servers, or null for plain TCP. */
  public TlsOptions tls() {
    return tls;
  }

  @Override
  public String toString() {
    return "ClientConfig{clientName=" + clientName + ", connectTimeout=" + connectTimeout + ", callTimeout="
        + callTimeout + ", queryTimeout=" + queryTimeout + ", maxInFlightPerConnection=" + maxInFlightPerConnection
        + ", maxInFlight=" + maxInFlight + ", backpressureTimeout="
        + backpressureTimeout + ", rateLimitPerSecond=" + rateLimitPerSecond + ", reconnect=" + reconnect
        + ", discoverHosts=" + discoverHosts + ", epoll=" + epoll + ", ioThreads=" + ioThreads
        + ", maxResponseFrameBytes=" + maxResponseFrameBytes + ", user=" + user + ", tls=" + tls + "}";
  }

  /** Builds a {@link ClientConfig}; each setter checks its argument. Not thread-safe. */
  public static final class Builder {
    private String clientName = "partita-java";
    private Duration connectTimeout = Duration.ofSeconds(10);
    private Duration callTimeout = Duration.ofMinutes(2);
    private Duration queryTimeout = Duration.ZERO;
    private int maxInFlightPerConnection = 4096;
    private int maxInFlight;
    private Duration backpressureTimeout = Duration.ofSeconds(10);
    private long rateLimitPerSecond;
    private boolean reconnect = true;
    private boolean discoverHosts = true;
    private Duration reconnectInitialBackoff = Duration.ofMillis(100);
    private Duration reconnectMaxBackoff = Duration.ofSeconds(5);
    private boolean epoll = true;
    private int ioThreads = Math.min(4, Runtime.getRuntime().availableProcessors());
    private int maxResponseFrameBytes = 256 << 20;
    private String user;
    private String password;
    private TlsOptions tls;

    private Builder() {}

    /**
     * Logs in as {@code user} with SCRAM-SHA-256 (docs/security.md): the
     * password never leaves the client. A server without security ignores them.
     */
    public Builder credentials(String user, String password) {
      if (user == null || user.isEmpty()) {
        throw new IllegalArgumentException("the user name must not be empty");
      }
      this.user = user;
      this.password = Objects.requireNonNull(password, "password");
      return this;
    }

    /** Speaks TLS to every server with these options (null: plain TCP, the default). */
    public Builder tls(TlsOptions options) {
      this.tls = options;
      return this;
    }

    public Builder clientName(String name) {
      this.clientName = Objects.requireNonNull(name, "clientName");
      return this;
    }

    public Builder connectTimeout(Duration timeout) {
      this.connectTimeout = positive(timeout, "connectTimeout");
      return this;
    }

    public Builder callTimeout(Duration timeout) {
      this.callTimeout = positive(timeout, "callTimeout");
      return this;
    }

    /** See {@link ClientConfig#queryTimeout()}: zero (the server's default) up to 1 hour, whole milliseconds. */
    public Builder queryTimeout(Duration timeout) {
      if (timeout == null || timeout.isNegative() || timeout.compareTo(MAX_QUERY_TIMEOUT) > 0) {
        throw new IllegalArgumentException("queryTimeout must be between zero (the server's default) and "
            + MAX_QUERY_TIMEOUT + ", got " + timeout);
      }
      this.queryTimeout = timeout;
      return this;
    }

    public Builder maxInFlightPerConnection(int max) {
      if (max < 1) {
        throw new IllegalArgumentException("maxInFlightPerConnection must be at least 1, got " + max);
      }
      this.maxInFlightPerConnection = max;
      return this;
    }

    /** Zero means: no bound over all connections. */
    public Builder maxInFlight(int max) {
      if (max < 0) {
        throw new IllegalArgumentException("maxInFlight must be 0 (no bound) or more, got " + max);
      }
      this.maxInFlight = max;
      return this;
    }

    /** Zero means: fail at once when there is no room. */
    public Builder backpressureTimeout(Duration timeout) {
      Objects.requireNonNull(timeout, "backpressureTimeout");
      if (timeout.isNegative()) {
        throw new IllegalArgumentException("backpressureTimeout must not be negative, got " + timeout);
      }
      this.backpressureTimeout = timeout;
      return this;
    }

    public Builder rateLimitPerSecond(long callsPerSecond) {
      if (callsPerSecond < 0) {
        throw new IllegalArgumentException("rateLimitPerSecond must be 0 (unlimited) or positive, got " + callsPerSecond);
      }
      this.rateLimitPerSecond = callsPerSecond;
      return this;
    }

    public Builder reconnect(boolean on) {
      this.reconnect = on;
      return this;
    }

    /** Whether to connect to the hosts a login's topology lists; off = only the addresses given to connect. */
    public Builder discoverHosts(boolean on) {
      this.discoverHosts = on;
      return this;
    }

    public Builder reconnectBackoff(Duration initial, Duration max) {
      this.reconnectInitialBackoff = positive(initial, "reconnect initial backoff");
      this.reconnectMaxBackoff = positive(max, "reconnect max backoff");
      if (max.compareTo(initial) < 0) {
        throw new IllegalArgumentException("reconnect max backoff " + max + " is shorter than the initial " + initial);
      }
      return this;
    }

    public Builder epoll(boolean on) {
      this.epoll = on;
      return this;
    }

    public Builder ioThreads(int threads) {
      if (threads < 1) {
        throw new IllegalArgumentException("ioThreads must be at least 1, got " + threads);
      }
      this.ioThreads = threads;
      return this;
    }

    public Builder maxResponseFrameBytes(int bytes) {
      if (bytes < 1024) {
        throw new IllegalArgumentException("maxResponseFrameBytes must be at least 1024, got " + bytes);
      }
      this.maxResponseFrameBytes = bytes;
      return this;
    }

    public ClientConfig build() {
      return new ClientConfig(this);
    }

    private static Duration positive(Duration d, String what) {
      Objects.requireNonNull(d, what);
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException(what + " must be positive, got " + d);
      }
      return d;
    }
  }
}
