package org.partita.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

/** An HttpApiServer on 127.0.0.1 (ephemeral port) over a FakeDispatcher, with an HTTP client. Close it after use. */
final class HttpFixture implements AutoCloseable {
  static final ObjectMapper JSON = new ObjectMapper();

  final FakeDispatcher dispatcher = new FakeDispatcher();
  final HttpApiServer server;
  final int port;
  private final EventLoopGroup boss = new NioEventLoopGroup(1);
  private final EventLoopGroup workers = new NioEventLoopGroup(2);
  private final HttpClient client = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5))
      .build();

  HttpFixture() throws InterruptedException {
    this(null, HttpApiLimits.DEFAULTS);
  }

  HttpFixture(Path webRoot, HttpApiLimits limits) throws InterruptedException {
    this(webRoot, limits, false);
  }

  /** With {@code clusterPage}: a cluster host's server, serving the cluster page too. */
  HttpFixture(Path webRoot, HttpApiLimits limits, boolean clusterPage) throws InterruptedException {
    server = new HttpApiServer(dispatcher, webRoot, limits, null, null, clusterPage);
    try {
      port = server.start("127.0.0.1", 0, boss, workers, NioServerSocketChannel.class);
    } catch (RuntimeException | InterruptedException e) {
      close();
      throw e;
    }
  }

  URI uri(String pathAndQuery) {
    return URI.create("http://127.0.0.1:" + port + pathAndQuery);
  }

  HttpResponse<String> get(String pathAndQuery) throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(uri(pathAndQuery)).GET());
  }

  HttpResponse<String> post(String path, String contentType, String body) throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(uri(path)).header("Content-Type", contentType)
        .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)));
  }

  HttpResponse<String> postJson(String body) throws IOException, InterruptedException {
    return post("/api/1.0/", "application/json", body);
  }

  HttpClient client() {
    return client;
  }

  HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
    return client.send(request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
  }

  static JsonNode json(HttpResponse<String> response) throws IOException {
    return JSON.readTree(response.body());
  }

  @Override
  public void close() {
    server.close();
    boss.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
    workers.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
  }
}
