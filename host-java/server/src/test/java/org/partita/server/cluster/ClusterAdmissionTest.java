package org.partita.server.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.partita.proto.cluster.Heartbeat;
import org.partita.proto.cluster.HostRecord;
import org.partita.proto.cluster.InternalFrame;
import org.partita.proto.cluster.MetadataSnapshot;
import org.partita.proto.cluster.WatchMetadata;
import org.partita.server.security.AuditLog;
import org.partita.server.security.ClusterTlsFiles;

/**
 * Cluster admission (docs/security.md, "Cluster admission"): with the
 * cluster's certificates (made by {@code scripts/cluster-certs} for
 * 127.0.0.1-3, and a second authority's for a non-member), a member on
 * 127.0.0.2 sends heartbeats to and watches a secured internal port on
 * 127.0.0.1; a process without TLS, with another authority's certificate or
 * with a member's certificate for another address is refused before its
 * first frame, with an audit line; fuzzed handshakes close only their own
 * connection while a member's keeps working; and the metadata port (Ratis
 * gRPC) answers a member's client but not a client without the cluster's
 * certificate. Every socket, event loop and Ratis server is closed after
 * each test.
 */
@Timeout(90)
class ClusterAdmissionTest {
  private static final Path SCRIPT = Path.of("../../scripts/cluster-certs");

  @TempDir
  static Path certificates;

  private final EventLoopGroup group = new NioEventLoopGroup(1);
  private final HeartbeatTable heartbeats = new HeartbeatTable();
  private final List<AutoCloseable> opened = new ArrayList<>();
  private final List<String> audit = new CopyOnWriteArrayList<>();
  private final Handler auditCapture = new Handler() {
    @Override
    public void publish(LogRecord record) {
      audit.add(record.getMessage());
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
    }
  };

  @BeforeAll
  static void makeCertificates() throws Exception {
    run(SCRIPT.toString(), certificates.resolve("cluster").toString(), "127.0.0.1", "127.0.0.2", "127.0.0.3");
    run(SCRIPT.toString(), certificates.resolve("other").toString(), "127.0.0.2");
  }

  private static void run(String... command) throws IOException, InterruptedException {
    final Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      p.destroyForcibly();
      throw new IllegalStateException(String.join(" ", command) + " failed: " + out);
    }
  }

  @AfterEach
  void close() throws Exception {
    Logger.getLogger(AuditLog.LOGGER).removeHandler(auditCapture);
    for (int i = opened.size() - 1; i >= 0; i--) {
      opened.get(i).close();
    }
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }

  /** The files of the host on {@code address} under the authority in {@code authority}/. */
  private static ClusterTlsFiles files(String authority, String address) {
    final Path dir = certificates.resolve(authority);
    return new ClusterTlsFiles(dir.resolve("host-" + address + ".crt"), dir.resolve("host-" + address + ".key"),
        dir.resolve("ca.crt"));
  }

  private static ClusterTls tls(String authority, String address) throws ClusterException {
    return ClusterTls.open(files(authority, address), address(address));
  }

  private static InetAddress address(String address) {
    try {
      return InetAddress.getByName(address);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static MetadataSnapshot state(long appliedIndex) {
    return MetadataSnapshot.newBuilder().setAppliedIndex(appliedIndex)
        .addHosts(HostRecord.newBuilder().setHostId(0).setIncarnation(appliedIndex)).build();
  }

  /** A secured internal port on 127.0.0.1, a voter's (it answers watches); returns its port. */
  private int startSecuredServer() throws Exception {
    Logger.getLogger(AuditLog.LOGGER).addHandler(auditCapture);
    final InternalServer server = new InternalServer(heartbeats, () -> state(3), tls("cluster", "127.0.0.1"));
    opened.add(server);
    return server.start(new InetSocketAddress(address("127.0.0.1"), 0), group);
  }

  private InternalLinks member(int hostId, int port, MetadataView view) throws ClusterException {
    final InternalLinks links = new InternalLinks(hostId, 77, address("127.0.0.2"),
        List.of(new InetSocketAddress(address("127.0.0.1"), port)), view, group, tls("cluster", "127.0.0.2"));
    opened.add(links);
    links.start();
    return links;
  }

  private HeartbeatTable.Heard awaitHeartbeat(int hostId, long after) throws InterruptedException {
    final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (System.nanoTime() < deadline) {
      final HeartbeatTable.Heard heard = heartbeats.lastHeard(hostId);
      if (heard != null && heard.atNanos() > after) {
        return heard;
      }
      Thread.sleep(20);
    }
    return null;
  }

  @Test
  void shouldAdmitAMemberThatHoldsTheClusterCertificate() throws Exception {
    final int port = startSecuredServer();
    final MetadataView view = new MetadataView();
    member(2, port, view);

    assertEquals(3, view.await(s -> s.getAppliedIndex() == 3, 20_000).getAppliedIndex(), "the watch answers");
    final HeartbeatTable.Heard heard = awaitHeartbeat(2, Long.MIN_VALUE);
    assertNotNull(heard, "the member's heartbeats arrive");
    assertEquals(77, heard.incarnation());
    assertTrue(audit.stream().noneMatch(line -> line.contains("host refused")), audit.toString());
  }

  @Test
  void shouldRefuseAProcessWithoutTls() throws Exception {
    final int port = startSecuredServer();
    try (Socket plain = new Socket("127.0.0.1", port, address("127.0.0.2"), 0)) {
      plain.setSoTimeout(20_000);
      final OutputStream out = plain.getOutputStream();
      writeFrame(out, InternalFrame.newBuilder().setHeartbeat(Heartbeat.newBuilder().setHostId(2).setIncarnation(5))
          .build());
      writeFrame(out, InternalFrame.newBuilder().setWatch(WatchMetadata.newBuilder().setHostId(2)).build());
      assertEquals(-1, plain.getInputStream().read(), "the server closes the connection without a metadata frame");
    }
    assertNull(heartbeats.lastHeard(2), "no heartbeat was recorded");
    assertRefusalAudited("127.0.0.2");
  }

  @Test
  void shouldRefuseACertificateOfAnotherAuthority() throws Exception {
    final int port = startSecuredServer();
    assertRefused(port, files("other", "127.0.0.2"));
    assertNull(heartbeats.lastHeard(2), "no heartbeat was recorded");
    assertRefusalAudited("127.0.0.2");
  }

  @Test
  void shouldRefuseAMembersCertificateUsedFromAnotherAddress() throws Exception {
    final int port = startSecuredServer();
    // The certificate of the host on 127.0.0.3, presented by a process on 127.0.0.2.
    assertRefused(port, files("cluster", "127.0.0.3"));
    assertNull(heartbeats.lastHeard(2), "no heartbeat was recorded");
    assertTrue(audit.stream().anyMatch(line -> line.contains("host refused") && line.contains("127.0.0.2")
        && line.contains("does not name the address it connects from")), audit.toString());
  }

  @Test
  void shouldRefuseToStartWithACertificateForAnotherAddress() {
    final ClusterException e = assertThrows(ClusterException.class,
        () -> ClusterTls.open(files("cluster", "127.0.0.3"), address("127.0.0.2")));
    assertTrue(e.getMessage().contains("does not name this host's address 127.0.0.2"), e.getMessage());
    final ClusterException other = assertThrows(ClusterException.class, () -> ClusterTls.open(
        new ClusterTlsFiles(files("other", "127.0.0.2").certificate(), files("other", "127.0.0.2").key(),
            files("cluster", "127.0.0.2").authorities()), address("127.0.0.2")));
    assertTrue(other.getMessage().contains("is not signed by an authority in --cluster-ca"), other.getMessage());
  }

  @Test
  void shouldCloseOnlyTheFuzzedConnections() throws Exception {
    final int port = startSecuredServer();
    try (SSLSocket member = tlsSocket(port, files("cluster", "127.0.0.2"))) {
      assertEquals(3, watch(member).getAppliedIndex(), "the member is admitted first");

      final Random random = new Random(18);
      for (int i = 0; i < 150; i++) {
        final byte[] bytes = fuzzedHandshake(random);
        try (Socket fuzz = new Socket("127.0.0.1", port, address("127.0.0.2"), 0)) {
          fuzz.setSoTimeout(20_000);
          fuzz.getOutputStream().write(bytes);
          fuzz.shutdownOutput();
          drainUntilClosed(fuzz.getInputStream());
        }
      }
      // The member's own connection was not among those closed: it is answered on it again.
      assertEquals(3, watch(member).getAppliedIndex(), "the member's connection still works after the fuzzing");
    }
    assertTrue(audit.stream().anyMatch(line -> line.contains("host refused")), "the fuzzed connections are audited");
  }

  /** Sends a watch on {@code socket} and returns the metadata it is answered with. */
  private static MetadataSnapshot watch(SSLSocket socket) throws IOException {
    writeFrame(socket.getOutputStream(), InternalFrame.newBuilder().setWatch(WatchMetadata.newBuilder().setHostId(2))
        .build());
    final java.io.DataInputStream in = new java.io.DataInputStream(socket.getInputStream());
    final byte[] frame = new byte[in.readInt()];
    in.readFully(frame);
    return InternalFrame.parseFrom(frame).getMetadata();
  }

  /**
   * Random bytes, half of them behind a TLS record header (handshake, alert or application data, any version)
   * with a random body, so that both the record layer and the handshake parser see garbage.
   */
  private static byte[] fuzzedHandshake(Random random) {
    final int length = random.nextInt(600);
    final byte[] body = new byte[length];
    random.nextBytes(body);
    if (random.nextBoolean()) {
      return body;
    }
    final byte[] record = new byte[5 + length];
    record[0] = (byte) (21 + random.nextInt(3));
    record[1] = 3;
    record[2] = (byte) random.nextInt(5);
    record[3] = (byte) (length >> 8);
    record[4] = (byte) length;
    System.arraycopy(body, 0, record, 5, length);
    return record;
  }

  private static void drainUntilClosed(InputStream in) throws IOException {
    final byte[] buffer = new byte[4096];
    try {
      while (in.read(buffer) >= 0) {
        // An alert may come first; the connection then closes.
      }
    } catch (javax.net.ssl.SSLException | java.net.SocketException e) {
      // Reset by the server: closed too.
    }
  }

  @Test
  void shouldKeepTheMetadataPortToTheClusterHosts() throws Exception {
    final InetAddress local = address("127.0.0.1");
    final MetadataPeer peer = new MetadataPeer("0", new InetSocketAddress(local, MetadataGroupTest.freePort(local)));
    final MetadataGroup metadataGroup = new MetadataGroup(List.of(peer), Duration.ofMillis(150), Duration.ofMillis(300));
    opened.add(MetadataServer.start(metadataGroup, "0", certificates.resolve("voter").toFile(),
        tls("cluster", "127.0.0.1")));

    final MetadataClient member = new MetadataClient(metadataGroup, Duration.ofSeconds(20), tls("cluster", "127.0.0.2"));
    opened.add(member);
    assertEquals(0, member.currentState().getState().getHostsCount(), "a member's client is answered");

    final MetadataClient plain = new MetadataClient(metadataGroup, Duration.ofSeconds(2));
    opened.add(plain);
    assertThrows(IOException.class, plain::currentState, "a client without TLS is not answered");
    final MetadataClient other = new MetadataClient(metadataGroup, Duration.ofSeconds(2), tls("other", "127.0.0.2"));
    opened.add(other);
    assertThrows(IOException.class, other::currentState, "a client with another authority's certificate is not");
  }

  private static void writeFrame(OutputStream out, InternalFrame frame) throws IOException {
    final byte[] bytes = frame.toByteArray();
    out.write(new byte[] {0, 0, (byte) (bytes.length >> 8), (byte) bytes.length});
    out.write(bytes);
    out.flush();
  }

  /**
   * Connects from 127.0.0.2 with {@code files}' certificate, trusting the cluster's authority (so that only the
   * server's refusal can end it), sends a heartbeat and a watch, and expects the connection to end without an
   * answer.
   */
  private static void assertRefused(int port, ClusterTlsFiles files) throws Exception {
    try (SSLSocket socket = tlsSocket(port, files)) {
      try {
        final OutputStream out = socket.getOutputStream();
        writeFrame(out, InternalFrame.newBuilder().setHeartbeat(Heartbeat.newBuilder().setHostId(2)
            .setIncarnation(5)).build());
        writeFrame(out, InternalFrame.newBuilder().setWatch(WatchMetadata.newBuilder().setHostId(2)).build());
        assertEquals(-1, socket.getInputStream().read(), "the server closes the connection without answering");
      } catch (javax.net.ssl.SSLException | java.net.SocketException e) {
        // The server refused the handshake: the connection ended without an answer, as expected.
      }
    }
  }

  /** A TLS connection from 127.0.0.2 presenting {@code files}' certificate and trusting the cluster's authority. */
  private static SSLSocket tlsSocket(int port, ClusterTlsFiles files) throws Exception {
    final JdkSslContext context = (JdkSslContext) SslContextBuilder.forClient().sslProvider(SslProvider.JDK)
        .keyManager(files.certificate().toFile(), files.key().toFile())
        .trustManager(certificates.resolve("cluster").resolve("ca.crt").toFile()).build();
    final SSLSocket socket = (SSLSocket) context.context().getSocketFactory()
        .createSocket("127.0.0.1", port, address("127.0.0.2"), 0);
    socket.setSoTimeout(20_000);
    return socket;
  }

  private void assertRefusalAudited(String peer) throws InterruptedException {
    final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < deadline) {
      if (audit.stream().anyMatch(line -> line.startsWith("audit: host refused: peer=/" + peer))) {
        return;
      }
      Thread.sleep(20);
    }
    throw new AssertionError("no 'host refused' audit line for " + peer + ": " + audit);
  }
}
