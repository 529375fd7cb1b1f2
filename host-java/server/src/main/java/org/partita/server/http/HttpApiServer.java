package org.partita.server.http;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import io.netty.handler.ssl.SslContext;
import org.partita.server.dispatch.Dispatcher;
import org.partita.server.security.Authenticator;

/**
 * The HTTP/JSON API of a Partita server (docs/http-api.md): procedure calls
 * at {@code /api/1.0/}, a health check at {@code /health}, and optionally
 * static files from a web root and, on a cluster host, the cluster page. Calls go through a {@link Dispatcher}; the
 * answer to every call the dispatcher ran is HTTP 200 with the call's status
 * inside the JSON.
 *
 * <p>Lifecycle: construct, {@link #start} once, {@link #setShuttingDown()}
 * when the server begins to stop (health turns 503, new calls are refused
 * with 503), {@link #close()} to stop listening and drop connections. The
 * event loop groups belong to the caller, who shuts them down after close.
 *
 * <p>Thread-safe: start and close may be called from any thread; each
 * connection is served on its own event loop.
 */
public final class HttpApiServer implements AutoCloseable {
  private static final long CLOSE_WAIT_SECONDS = 5;

  private final HttpApiLimits limits;
  private final HttpRouter router;
  private final ChannelGroup channels = new DefaultChannelGroup("partita-http", GlobalEventExecutor.INSTANCE);
  private volatile boolean shuttingDown;
  private Channel listener;
  private final SslContext tls;

  /**
   * @param dispatcher runs the calls
   * @param webRoot directory of static files to serve, or null for none
   * @param limits the request limits ({@link HttpApiLimits#DEFAULTS})
   * @throws IllegalArgumentException if {@code webRoot} is not a readable directory
   */
  public HttpApiServer(Dispatcher dispatcher, Path webRoot, HttpApiLimits limits) {
    this(dispatcher, webRoot, limits, null, null);
  }

  /**
   * A server whose API calls need HTTP Basic credentials or a token checked by {@code authenticator} (null: none)
   * and whose connections speak TLS with {@code tls} (null: plain HTTP); docs/security.md.
   */
  public HttpApiServer(Dispatcher dispatcher, Path webRoot, HttpApiLimits limits, Authenticator authenticator,
      SslContext tls) {
    this(dispatcher, webRoot, limits, authenticator, tls, false);
  }

  /**
   * As the constructor above; with {@code clusterPage}, also the cluster page at {@code /cluster}
   * (a cluster host; docs/cluster.md, "The cluster page").
   */
  public HttpApiServer(Dispatcher dispatcher, Path webRoot, HttpApiLimits limits, Authenticator authenticator,
      SslContext tls, boolean clusterPage) {
    this.limits = limits;
    this.tls = tls;
    final HttpAuthentication authentication = authenticator == null ? null : new HttpAuthentication(authenticator);
    final ApiEndpoint api = new ApiEndpoint(dispatcher, this::isShuttingDown, limits.busyTimeout(), authentication);
    this.router = new HttpRouter(api, new TokenEndpoint(authentication),
        webRoot == null ? null : new StaticFiles(webRoot), clusterPage ? new ClusterPage() : null,
        this::isShuttingDown);
  }

  /** A server with the default limits. */
  public HttpApiServer(Dispatcher dispatcher, Path webRoot) {
    this(dispatcher, webRoot, HttpApiLimits.DEFAULTS);
  }

  /**
   * Binds {@code bindAddress:port} (port 0: an ephemeral port) and starts
   * accepting connections. REQUIRES: not started yet.
   *
   * @return the port bound
   * @throws IllegalStateException if already started
   * @throws io.netty.channel.ChannelException (or another exception of the bind) if the address cannot be bound
   */
  public synchronized int start(String bindAddress, int port, EventLoopGroup bossGroup, EventLoopGroup workerGroup,
      Class<? extends ServerChannel> channelClass) throws InterruptedException {
    if (listener != null) {
      throw new IllegalStateException("the HTTP API server is already started");
    }
    final ServerBootstrap bootstrap = new ServerBootstrap()
        .group(bossGroup, workerGroup)
        .channel(channelClass)
        .option(ChannelOption.SO_REUSEADDR, true)
        .childOption(ChannelOption.TCP_NODELAY, true)
        .childHandler(new ChannelInitializer<>() {
          @Override
          protected void initChannel(Channel ch) {
            channels.add(ch);
            if (tls != null) {
              ch.pipeline().addLast("tls", tls.newHandler(ch.alloc()));
            }
            ch.pipeline()
                .addLast(new HttpServerCodec(limits.maxRequestLineBytes(), limits.maxHeaderBytes(), 8192))
                .addLast(new BodyLimitAggregator(limits.maxBodyBytes()))
                .addLast(new HttpConnectionHandler(router));
          }
        });
    listener = bootstrap.bind(bindAddress, port).sync().channel();
    channels.add(listener);
    return ((InetSocketAddress) listener.localAddress()).getPort();
  }

  /** From now on health answers 503 and new calls are refused with 503 SHUTTING_DOWN. Irreversible. */
  public void setShuttingDown() {
    shuttingDown = true;
  }

  public boolean isShuttingDown() {
    return shuttingDown;
  }

  /** Stops listening and closes every open connection (calls in flight get no answer). Idempotent. */
  @Override
  public synchronized void close() {
    shuttingDown = true;
    channels.close().awaitUninterruptibly(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS);
  }
}
