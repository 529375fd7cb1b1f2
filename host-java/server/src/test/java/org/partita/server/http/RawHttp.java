package org.partita.server.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** A plain socket speaking raw bytes to the server, for requests HttpClient will not send. Close it after use. */
final class RawHttp implements AutoCloseable {
  /** One response read from the socket. */
  record Response(int status, Map<String, String> headers, String body) {
    String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }
  }

  private final Socket socket = new Socket();
  private final InputStream in;

  RawHttp(int port) throws IOException {
    socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
    socket.setSoTimeout(10_000);
    in = socket.getInputStream();
  }

  void send(String text) throws IOException {
    send(text.getBytes(StandardCharsets.ISO_8859_1));
  }

  void send(byte[] bytes) throws IOException {
    socket.getOutputStream().write(bytes);
    socket.getOutputStream().flush();
  }

  /** The next response, or null when the server closed the connection before one began. */
  Response read() throws IOException {
    final Response head = readHead();
    if (head == null) {
      return null;
    }
    final int length = Integer.parseInt(head.headers().getOrDefault("content-length", "0"));
    return new Response(head.status(), head.headers(), new String(in.readNBytes(length), StandardCharsets.UTF_8));
  }

  /** The next response's status and headers only (the answer to a HEAD request has no body). */
  Response readHead() throws IOException {
    final String statusLine = line();
    if (statusLine == null) {
      return null;
    }
    final int status = Integer.parseInt(statusLine.split(" ")[1]);
    final Map<String, String> headers = new TreeMap<>();
    for (String header = line(); header != null && !header.isEmpty(); header = line()) {
      final int colon = header.indexOf(':');
      headers.put(header.substring(0, colon).trim().toLowerCase(Locale.ROOT), header.substring(colon + 1).trim());
    }
    return new Response(status, headers, "");
  }

  /** Whether the server has closed the connection (reads end of stream, or the connection is reset). */
  boolean isClosedByServer() {
    try {
      return in.read() < 0;
    } catch (IOException e) {
      return true;
    }
  }

  private String line() throws IOException {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    int b;
    while ((b = in.read()) >= 0 && b != '\n') {
      if (b != '\r') {
        out.write(b);
      }
    }
    if (b < 0 && out.size() == 0) {
      return null;
    }
    return out.toString(StandardCharsets.ISO_8859_1);
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
