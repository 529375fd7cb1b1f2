package org.partita.server.http;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The cluster page a cluster host serves at {@code /cluster} (docs/cluster.md,
 * "The cluster page"; docs/http-api.md, "The cluster page"): plain HTML, CSS
 * and JavaScript shipped inside the server (resources under
 * {@code org/partita/server/http/cluster/}), read once at construction. The
 * page reads {@code @Statistics CLUSTER} from the same host's API. Paths:
 * {@code /cluster} and {@code /cluster/} (the page), {@code /cluster/NAME}
 * for its other files; anything else under {@code /cluster/} is 404. These
 * paths come before a web root's files. Thread-safe (immutable).
 */
final class ClusterPage {
  static final String PATH = "/cluster";
  private static final String RESOURCES = "cluster/";
  private static final List<String> FILES = List.of("index.html", "cluster.js", "cluster.css");

  private final Map<String, byte[]> files = new HashMap<>();

  /** @throws UncheckedIOException if a file of the page is missing from the server's resources */
  ClusterPage() {
    for (String name : FILES) {
      try (InputStream in = ClusterPage.class.getResourceAsStream(RESOURCES + name)) {
        if (in == null) {
          throw new IOException("resource " + RESOURCES + name + " is missing");
        }
        files.put(name, in.readAllBytes());
      } catch (IOException e) {
        throw new UncheckedIOException("the cluster page cannot be loaded: " + e.getMessage(), e);
      }
    }
  }

  /** Whether {@code rawPath} is the page's or under it. */
  static boolean owns(String rawPath) {
    return rawPath.equals(PATH) || rawPath.startsWith(PATH + "/");
  }

  /** Answers a request for {@code rawPath}. REQUIRES: {@link #owns}({@code rawPath}); on the event loop. */
  void serve(HttpMethod method, String rawPath, ByteBufAllocator alloc, ReplySink sink) {
    if (!method.equals(HttpMethod.GET) && !method.equals(HttpMethod.HEAD)) {
      sink.send(Replies.methodNotAllowed(alloc, method.name(), HttpRouter.abbreviate(rawPath), "GET, HEAD"));
      return;
    }
    final String rest = rawPath.length() <= PATH.length() + 1 ? "" : rawPath.substring(PATH.length() + 1);
    final String name = rest.isEmpty() ? FILES.get(0) : rest;
    final byte[] body = files.get(name);
    if (body == null) {
      sink.send(Replies.notFound(alloc, HttpRouter.abbreviate(rawPath)));
      return;
    }
    sink.send(new BufferReply(HttpResponseStatus.OK, StaticFiles.contentType(Path.of(name)),
        alloc.buffer(body.length).writeBytes(body), false, "Cache-Control", "no-store",
        "X-Content-Type-Options", "nosniff"));
  }
}
