package org.partita.server.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.partita.proto.ErrorCode;
import org.partita.proto.cluster.ForwardedAnswer;
import org.partita.proto.cluster.ForwardedCall;
import org.partita.proto.cluster.FragmentAnswer;
import org.partita.proto.cluster.FragmentRequest;
import org.partita.proto.cluster.InternalFrame;
import org.partita.proto.cluster.ReplicationAck;
import org.partita.server.cluster.InternalConnector;
import org.partita.server.cluster.InternalFrames;

/**
 * The multi-partition frames of the internal port as they come off the
 * wire, with bad input: an answer to nothing asked, a request from a host
 * outside the cluster, a malformed frame, an oversized one, a replication
 * frame on a cluster without replicas. Each closes only its own connection;
 * a good request on another connection is served. Answers too large for a
 * frame become errors naming their size.
 */
class MultiPartitionFramesTest {
  private NioEventLoopGroup group;
  private MultiPartitionLinks links;
  private final List<FragmentRequest> steps = new ArrayList<>();
  private final List<ForwardedCall> calls = new ArrayList<>();

  /** Host 1 of three; nothing listens for its outgoing links (they retry in the background). */
  @BeforeEach
  void open() throws Exception {
    group = new NioEventLoopGroup(1);
    final InetSocketAddress nowhere = new InetSocketAddress("127.0.0.1", 1);
    links = new MultiPartitionLinks(1, List.of(nowhere, nowhere, nowhere),
        InternalConnector.plain(group, InetAddress.getByName("127.0.0.1")), group);
    links.serve((request, answer) -> steps.add(request), (call, answer) -> calls.add(call));
  }

  @AfterEach
  void close() {
    links.close();
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }

  private EmbeddedChannel connection() {
    final EmbeddedChannel channel = new EmbeddedChannel();
    InternalFrames.install(channel.pipeline());
    channel.pipeline().addLast(links.inboundHandler(null));
    return channel;
  }

  private static ByteBuf framed(byte[] body) {
    return Unpooled.buffer().writeInt(body.length).writeBytes(body);
  }

  private static ByteBuf framed(InternalFrame frame) {
    return framed(frame.toByteArray());
  }

  private static InternalFrame step(int fromHost) {
    return InternalFrame.newBuilder().setFragmentRequest(FragmentRequest.newBuilder().setRequestId(9)
        .setCoordinatorHostId(fromHost).setPartition(1).setCommit(true)).build();
  }

  @Test
  void shouldServeAGoodStepAndCallAndKeepTheConnection() {
    final EmbeddedChannel channel = connection();
    channel.writeInbound(framed(step(0)));
    channel.writeInbound(framed(InternalFrame.newBuilder().setForwardedCall(ForwardedCall.newBuilder()
        .setRequestId(4).setFromHostId(2)).build()));
    assertTrue(channel.isOpen());
    assertEquals(1, steps.size());
    assertEquals(1, calls.size());
  }

  @Test
  void shouldCloseOnlyTheConnectionThatAnsweredNothingAsked() {
    final EmbeddedChannel bad = connection();
    final EmbeddedChannel good = connection();
    bad.writeInbound(framed(InternalFrame.newBuilder().setFragmentAnswer(FragmentAnswer.newBuilder()
        .setRequestId(12345)).build()));
    assertFalse(bad.isOpen());
    good.writeInbound(framed(step(0)));
    assertTrue(good.isOpen());
    assertEquals(1, steps.size());
  }

  @Test
  void shouldCloseTheConnectionOfAStepOrCallFromAHostOutsideTheCluster() {
    final EmbeddedChannel stranger = connection();
    stranger.writeInbound(framed(step(7)));
    assertFalse(stranger.isOpen());
    final EmbeddedChannel itself = connection();
    itself.writeInbound(framed(InternalFrame.newBuilder().setForwardedCall(ForwardedCall.newBuilder()
        .setFromHostId(1)).build()));
    assertFalse(itself.isOpen(), "a host does not forward to itself over the wire");
    assertTrue(steps.isEmpty() && calls.isEmpty());
  }

  @Test
  void shouldCloseTheConnectionOfAMalformedOrOversizedFrame() {
    final EmbeddedChannel malformed = connection();
    malformed.writeInbound(framed(new byte[] {(byte) 0x32, (byte) 0xff, 1, 2}));
    assertFalse(malformed.isOpen());
    final EmbeddedChannel oversized = connection();
    oversized.writeInbound(Unpooled.buffer().writeInt(InternalFrames.MAX_FRAME_BYTES + 1).writeBytes(new byte[64]));
    assertFalse(oversized.isOpen());
    final EmbeddedChannel good = connection();
    good.writeInbound(framed(step(2)));
    assertTrue(good.isOpen());
  }

  @Test
  void shouldCloseTheConnectionOfAReplicationFrameWithoutReplicas() {
    final EmbeddedChannel channel = connection();
    channel.writeInbound(framed(InternalFrame.newBuilder().setReplicationAck(ReplicationAck.newBuilder()
        .setPartition(0)).build()));
    assertFalse(channel.isOpen());
  }

  @Test
  void shouldReplaceAnAnswerTooLargeForAFrameByAnErrorNamingItsSize() {
    final ByteString big = ByteString.copyFrom(new byte[InternalFrames.MAX_FRAME_BYTES]);
    final FragmentAnswer fragment = MultiPartitionLinks.bounded(FragmentAnswer.newBuilder().setRequestId(3)
        .setResult(big).build());
    assertEquals(3, fragment.getRequestId());
    assertTrue(fragment.hasError());
    assertTrue(fragment.getError().getMessage().contains("over the internal port's frame bound"),
        fragment.getError().getMessage());
    final ForwardedAnswer forwarded = MultiPartitionLinks.bounded(ForwardedAnswer.newBuilder().setRequestId(5)
        .addResults(big).build());
    assertEquals(ErrorCode.ERROR_CODE_RESULT_TOO_LARGE.getNumber(), forwarded.getErrorCode());
    assertEquals(0, forwarded.getResultsCount());
    assertTrue(forwarded.getMessage().contains("its outcome stands"), forwarded.getMessage());
    final FragmentAnswer small = FragmentAnswer.newBuilder().setRequestId(4).setResult(ByteString.copyFrom(
        new byte[16])).build();
    assertSame(small, MultiPartitionLinks.bounded(small));
  }

  @Test
  void shouldFailASendToAHostOutsideTheCluster() {
    final ExecutionException e = assertThrows(ExecutionException.class,
        () -> links.send(9, FragmentRequest.getDefaultInstance()).get(5, TimeUnit.SECONDS));
    assertTrue(e.getCause().getMessage().contains("no host 9"), e.getCause().getMessage());
  }
}
