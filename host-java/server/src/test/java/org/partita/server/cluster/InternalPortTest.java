package org.partita.server.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import java.io.DataInputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.partita.proto.cluster.HostRecord;
import org.partita.proto.cluster.InternalFrame;
import org.partita.proto.cluster.MetadataSnapshot;
import org.partita.proto.cluster.WatchMetadata;

/**
 * The internal port between two addresses (127.0.0.1 listening, 127.0.0.2
 * connecting): heartbeats reach the table, the watch delivers the voter's
 * metadata at once and on every change, and bad frames close only their own
 * connection. Every socket and event loop is closed after each test.
 */
@Timeout(30)
class InternalPortTest {
  private final EventLoopGroup group = new NioEventLoopGroup(1);
  private final HeartbeatTable heartbeats = new HeartbeatTable();
  private final AtomicReference<MetadataSnapshot> voterState = new AtomicReference<>(state(3));
  private final InternalServer server = new InternalServer(heartbeats, voterState::get);
  private InternalLinks links;

  @AfterEach
  void close() {
    if (links != null) {
      links.close();
    }
    server.close();
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }

  private static MetadataSnapshot state(long appliedIndex) {
    return MetadataSnapshot.newBuilder().setAppliedIndex(appliedIndex)
        .addHosts(HostRecord.newBuilder().setHostId(0).setIncarnation(appliedIndex)).build();
  }

  private int startServer() throws Exception {
    return server.start(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), group);
  }

  @Test
  void shouldCarryHeartbeatsAndTheMetadataWatch() throws Exception {
    final int port = startServer();
    final MetadataView view = new MetadataView();
    links = new InternalLinks(2, 77, InetAddress.getByName("127.0.0.2"),
        List.of(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), port)), view, group);
    links.start();

    assertEquals(3, view.await(s -> s.getAppliedIndex() == 3, 10_000).getAppliedIndex());
    final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (heartbeats.lastHeard(2) == null && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertEquals(77, heartbeats.lastHeard(2).incarnation());

    voterState.set(state(5));
    server.publish(state(5));
    assertEquals(5, view.await(s -> s.getAppliedIndex() == 5, 10_000).getAppliedIndex());
    // An older snapshot arriving late never moves the view back.
    server.publish(state(4));
    view.offer(state(4));
    assertEquals(5, view.current().getAppliedIndex());
  }

  @Test
  void shouldCloseOnlyTheConnectionThatSentABadFrame() throws Exception {
    final int port = startServer();
    try (Socket bad = new Socket("127.0.0.1", port, InetAddress.getByName("127.0.0.2"), 0)) {
      bad.setSoTimeout(10_000);
      final OutputStream out = bad.getOutputStream();
      out.write(new byte[] {0, 0, 0, 3, (byte) 0xff, (byte) 0xff, (byte) 0xff});
      out.flush();
      assertEquals(-1, bad.getInputStream().read(), "the server closes the connection");
    }
    try (Socket huge = new Socket("127.0.0.1", port, InetAddress.getByName("127.0.0.2"), 0)) {
      huge.setSoTimeout(10_000);
      huge.getOutputStream().write(new byte[] {0x7f, 0, 0, 0});
      assertEquals(-1, huge.getInputStream().read(), "a frame over the bound closes the connection");
    }
    // The server still answers a well-formed watch.
    try (Socket good = new Socket("127.0.0.1", port, InetAddress.getByName("127.0.0.2"), 0)) {
      good.setSoTimeout(10_000);
      final byte[] watch = InternalFrame.newBuilder().setWatch(WatchMetadata.newBuilder().setHostId(1)).build()
          .toByteArray();
      final DataInputStream in = new DataInputStream(good.getInputStream());
      final OutputStream out = good.getOutputStream();
      out.write(new byte[] {0, 0, 0, (byte) watch.length});
      out.write(watch);
      out.flush();
      final byte[] answer = new byte[in.readInt()];
      in.readFully(answer);
      assertTrue(InternalFrame.parseFrom(answer).hasMetadata());
      assertEquals(3, InternalFrame.parseFrom(answer).getMetadata().getAppliedIndex());
    }
  }

  @Test
  void shouldRefuseAWatchOnAHostThatIsNotAVoter() throws Exception {
    final InternalServer notVoter = new InternalServer(heartbeats, null);
    try {
      final int port = notVoter.start(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), group);
      try (Socket s = new Socket("127.0.0.1", port, InetAddress.getByName("127.0.0.2"), 0)) {
        s.setSoTimeout(10_000);
        final byte[] watch = InternalFrame.newBuilder().setWatch(WatchMetadata.newBuilder().setHostId(1)).build()
            .toByteArray();
        s.getOutputStream().write(new byte[] {0, 0, 0, (byte) watch.length});
        s.getOutputStream().write(watch);
        assertEquals(-1, s.getInputStream().read());
      }
    } finally {
      notVoter.close();
    }
  }
}
