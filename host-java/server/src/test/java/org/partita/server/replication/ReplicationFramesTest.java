package org.partita.server.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.partita.proto.cluster.InternalFrame;
import org.partita.server.cluster.InternalFrames;
import org.partita.server.topology.PartitionMap;

/**
 * Replication frames as they come off the wire, through the internal port's
 * framing, with bad input: a malformed frame, an oversized one, a batch of
 * an older epoch, missing items, a partition this host holds no copy of, an
 * acknowledgement of a partition it does not lead. Each closes only its own
 * connection; another connection goes on being served.
 */
class ReplicationFramesTest {
  private NioEventLoopGroup group;
  private Replication replication;
  private FakeExecutor executor;

  /** Host 1 of two: replica of partition 0 (led by host 0, epoch 2), leader of partition 1 (replicated on host 0). */
  @BeforeEach
  void open() throws Exception {
    final int[] buckets = new int[PartitionMap.BUCKETS];
    for (int b = 0; b < buckets.length; b++) {
      buckets[b] = b % 2;
    }
    final PartitionMap map = PartitionMap.of(1, buckets, List.of(
        new PartitionMap.Replicas(0, 0, List.of(0, 1), 2), new PartitionMap.Replicas(1, 1, List.of(1, 0), 1)));
    group = new NioEventLoopGroup(1);
    // Nothing listens at port 1: the links keep retrying in the background, which these tests do not need.
    replication = new Replication(1, map, List.of(new InetSocketAddress("127.0.0.1", 1),
        new InetSocketAddress("127.0.0.1", 1)), InetAddress.getByName("127.0.0.1"), group);
    executor = new FakeExecutor(1024, item -> item.getHeader().getSequence() * 31);
    replication.start(executor);
  }

  @AfterEach
  void close() {
    replication.close();
    group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
  }

  private EmbeddedChannel connection() {
    final EmbeddedChannel channel = new EmbeddedChannel();
    InternalFrames.install(channel.pipeline());
    channel.pipeline().addLast(replication.inboundHandler());
    return channel;
  }

  private static ByteBuf framed(byte[] body) {
    return Unpooled.buffer().writeInt(body.length).writeBytes(body);
  }

  private static ByteBuf framed(InternalFrame frame) {
    return framed(frame.toByteArray());
  }

  @Test
  void shouldTakeAGoodBatchAndKeepTheConnection() {
    final EmbeddedChannel channel = connection();
    channel.writeInbound(framed(TestItems.frame(TestItems.batch(0, 2, 0, 0, TestItems.replicated(0, 2, 1, 31)))));
    assertTrue(channel.isOpen());
    assertEquals(1, executor.queued());
  }

  @Test
  void shouldCloseOnlyTheConnectionThatSentAMalformedFrame() {
    final EmbeddedChannel bad = connection();
    final EmbeddedChannel good = connection();
    bad.writeInbound(framed(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, 0x7f, 1, 2, 3}));
    assertFalse(bad.isOpen());
    good.writeInbound(framed(TestItems.frame(TestItems.batch(0, 2, 0, 0, TestItems.replicated(0, 2, 1, 31)))));
    assertTrue(good.isOpen());
    assertEquals(1, executor.queued());
  }

  @Test
  void shouldCloseAConnectionAnnouncingAFrameOverTheBound() {
    final EmbeddedChannel channel = connection();
    channel.writeInbound(Unpooled.buffer().writeInt(InternalFrames.MAX_FRAME_BYTES + 1).writeZero(16));
    assertFalse(channel.isOpen());
  }

  @Test
  void shouldCloseTheConnectionOfABatchOfAnOlderEpoch() {
    final EmbeddedChannel channel = connection();
    channel.writeInbound(framed(TestItems.frame(TestItems.batch(0, 1, 0, 0, TestItems.replicated(0, 1, 1, 31)))));
    assertFalse(channel.isOpen());
    assertEquals(0, executor.queued());
  }

  @Test
  void shouldCloseTheConnectionOfABatchWithMissingItems() {
    final EmbeddedChannel channel = connection();
    channel.writeInbound(framed(TestItems.frame(TestItems.batch(0, 2, 0, 0, TestItems.replicated(0, 2, 2, 62)))));
    assertFalse(channel.isOpen());
  }

  @Test
  void shouldCloseTheConnectionOfFramesForCopiesThisHostDoesNotHold() {
    final EmbeddedChannel batch = connection();
    batch.writeInbound(framed(TestItems.frame(TestItems.batch(1, 1, 0, 0, TestItems.replicated(1, 1, 1, 31)))));
    assertFalse(batch.isOpen(), "host 1 leads partition 1: it takes no batches of it");
    final EmbeddedChannel ack = connection();
    ack.writeInbound(framed(TestItems.frame(TestItems.ack(0, 2, 0, 1, 31))));
    assertFalse(ack.isOpen(), "host 1 does not lead partition 0");
    final EmbeddedChannel unknown = connection();
    unknown.writeInbound(framed(TestItems.frame(TestItems.batch(9, 1, 0, 0))));
    assertFalse(unknown.isOpen());
  }

  @Test
  void shouldCloseTheConnectionOfAnAcknowledgementOfAnItemNeverSent() {
    final EmbeddedChannel channel = connection();
    channel.writeInbound(framed(TestItems.frame(TestItems.ack(1, 1, 0, 1, 31))));
    assertFalse(channel.isOpen());
  }

  @Test
  void shouldCloseTheConnectionOfAFrameThatIsNotReplication() {
    final EmbeddedChannel channel = connection();
    channel.writeInbound(framed(InternalFrame.newBuilder().setHeartbeat(
        org.partita.proto.cluster.Heartbeat.newBuilder().setHostId(0).setIncarnation(1)).build()));
    assertFalse(channel.isOpen());
  }
}
