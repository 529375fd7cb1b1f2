package org.partita.server.http;

import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.Map;

/**
 * Serves the files under a web root (docs/http-api.md, "Static files"):
 * {@code GET /} is {@code index.html}, a path ending in {@code /} is that
 * directory's {@code index.html}. Only regular files inside the root are
 * served: a path with an empty, {@code .} or {@code ..} segment (also when
 * percent-encoded), a hidden name (leading dot), a backslash or NUL, or one
 * that resolves (through symbolic links) outside the root is answered 404
 * like a missing file. Thread-safe (immutable); file opening blocks the
 * calling event loop briefly, which suits the small files of a dashboard.
 */
final class StaticFiles {
  private static final String INDEX = "index.html";
  private static final String DEFAULT_TYPE = "application/octet-stream";
  private static final Map<String, String> TYPES = Map.ofEntries(
      Map.entry("html", "text/html; charset=utf-8"),
      Map.entry("htm", "text/html; charset=utf-8"),
      Map.entry("js", "text/javascript; charset=utf-8"),
      Map.entry("mjs", "text/javascript; charset=utf-8"),
      Map.entry("css", "text/css; charset=utf-8"),
      Map.entry("json", "application/json"),
      Map.entry("svg", "image/svg+xml"),
      Map.entry("png", "image/png"),
      Map.entry("ico", "image/x-icon"),
      Map.entry("txt", "text/plain; charset=utf-8"));

  private final Path root;

  /** A file to serve: its real path, and the content type its requested name implies. */
  record Found(Path file, String contentType) {}

  /**
   * @param root an existing directory
   * @throws IllegalArgumentException if {@code root} is not a readable directory
   */
  StaticFiles(Path root) {
    try {
      this.root = root.toRealPath();
    } catch (IOException e) {
      throw new IllegalArgumentException("web root " + root + " cannot be read: " + e, e);
    }
    if (!Files.isDirectory(this.root)) {
      throw new IllegalArgumentException("web root " + root + " is not a directory");
    }
  }

  /** Answers a request for {@code rawPath} (percent-encoded, without the query). REQUIRES: on the event loop. */
  void serve(HttpMethod method, String rawPath, ByteBufAllocator alloc, ReplySink sink) {
    if (!method.equals(HttpMethod.GET) && !method.equals(HttpMethod.HEAD)) {
      sink.send(Replies.methodNotAllowed(alloc, method.name(), HttpRouter.abbreviate(rawPath), "GET, HEAD"));
      return;
    }
    final Found found = resolve(rawPath);
    if (found == null) {
      sink.send(Replies.notFound(alloc, HttpRouter.abbreviate(rawPath)));
      return;
    }
    final FileChannel channel;
    final long size;
    try {
      channel = FileChannel.open(found.file(), StandardOpenOption.READ);
      size = channel.size();
    } catch (IOException e) {
      sink.send(Replies.notFound(alloc, HttpRouter.abbreviate(rawPath)));
      return;
    }
    sink.send(new FileReply(channel, size, found.contentType()));
  }

  /** The regular file inside the root that {@code rawPath} names, or null when there is none or it is refused. */
  Found resolve(String rawPath) {
    final String path;
    try {
      path = new QueryStringDecoder(rawPath, StandardCharsets.UTF_8).path();
    } catch (IllegalArgumentException e) {
      return null;
    }
    if (!path.startsWith("/") || path.indexOf('\\') >= 0 || path.indexOf('\0') >= 0) {
      return null;
    }
    final String relative = path.endsWith("/") ? path.substring(1) + INDEX : path.substring(1);
    Path candidate = root;
    for (String segment : relative.split("/", -1)) {
      if (segment.isEmpty() || segment.startsWith(".")) {
        return null;
      }
      candidate = candidate.resolve(segment);
    }
    try {
      final Path real = candidate.toRealPath();
      return real.startsWith(root) && Files.isRegularFile(real) ? new Found(real, contentType(candidate)) : null;
    } catch (IOException e) {
      return null;
    }
  }

  /** The Content-Type for {@code file}, by its extension. */
  static String contentType(Path file) {
    final String name = file.getFileName().toString();
    final int dot = name.lastIndexOf('.');
    final String extension = dot < 0 ? "" : name.substring(dot + 1).toLowerCase(Locale.ROOT);
    return TYPES.getOrDefault(extension, DEFAULT_TYPE);
  }
}
