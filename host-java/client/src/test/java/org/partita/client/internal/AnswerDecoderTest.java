package org.partita.client.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.partita.client.ClientResponse;
import org.partita.client.ResultFormatException;
import org.partita.client.ResultTable;
import org.partita.client.ResultTableBuilder;
import org.partita.client.ValueType;
import org.partita.client.proto.InvocationResponse;
import org.partita.client.proto.LoginResponse;
import org.partita.client.proto.ServerMessage;
import org.partita.client.proto.Topology;
import org.partita.client.proto.TopologyPush;

/** AnswerDecoder against the generated parser: the same answer from the same bytes, or the same refusal. */
class AnswerDecoderTest {

  @Test
  void shouldReadWhatTheGeneratedParserReadsForRandomAnswers() throws Exception {
    final Random random = new Random(20261124);
    for (int i = 0; i < 2000; i++) {
      final InvocationResponse r = randomResponse(random);
      final byte[] frame = ServerMessage.newBuilder().setResponse(r).build().toByteArray();
      assertSameAnswer(r, frame);
    }
  }

  @Test
  void shouldSkipUnknownFieldsAndKnownFieldsOfAnotherWireTypeAsProtobufDoes() throws Exception {
    final InvocationResponse r = InvocationResponse.newBuilder().setClientHandle(7).setStatusValue(1)
        .addResults(ByteString.copyFrom(table(42))).setServerNanos(99).build();
    final ByteArrayOutputStream body = new ByteArrayOutputStream();
    final CodedOutputStream out = CodedOutputStream.newInstance(body);
    out.writeUInt64(99, 5);                // unknown varint
    out.writeString(98, "later fields");    // unknown length-delimited
    out.writeFixed64(97, 1);               // unknown fixed64
    out.writeFixed32(96, 1);               // unknown fixed32
    out.writeString(1, "not a handle");     // field 1 with the wrong wire type: skipped by protobuf
    out.writeUInt64(3, 5);                  // field 3 (a string) as a varint: skipped too
    out.flush();
    r.writeTo(out);                         // the known fields after the unknown ones
    out.writeUInt64(1, 8);                  // a field sent twice: the last wins
    out.flush();
    final byte[] frame = wrapAsResponse(body.toByteArray());
    final InvocationResponse parsed = ServerMessage.parseFrom(frame).getResponse();
    assertEquals(8, parsed.getClientHandle());
    assertSameAnswer(parsed, frame);
  }

  @Test
  void shouldLeaveOtherFramesToTheGeneratedParser() throws Exception {
    final AnswerDecoder decoder = new AnswerDecoder();
    final byte[] login = ServerMessage.newBuilder().setLogin(LoginResponse.newBuilder().setHostId(3)).build()
        .toByteArray();
    assertFalse(decoder.decode(Unpooled.wrappedBuffer(login)));
    // A response followed by another field: not the one-field shape.
    final byte[] response = ServerMessage.newBuilder().setResponse(InvocationResponse.newBuilder()
        .setClientHandle(1)).build().toByteArray();
    final byte[] twice = new byte[response.length * 2];
    System.arraycopy(response, 0, twice, 0, response.length);
    System.arraycopy(response, 0, twice, response.length, response.length);
    assertFalse(decoder.decode(Unpooled.wrappedBuffer(twice)));
    assertFalse(decoder.decode(Unpooled.wrappedBuffer(new byte[0])));
  }

  @Test
  void shouldLeaveATopologyPushToTheGeneratedParserWhateverItsNeighbours() throws Exception {
    final AnswerDecoder decoder = new AnswerDecoder();
    final Topology topology = Topology.newBuilder().setPartitionCount(2).addPartitionLeaders(2)
        .addPartitionLeaders(3).setTopologyVersion(41).build();
    final byte[] push = ServerMessage.newBuilder().setTopologyPush(TopologyPush.newBuilder().setTopology(topology))
        .build().toByteArray();
    final ByteBuf alone = Unpooled.wrappedBuffer(push);
    assertFalse(decoder.decode(alone));
    assertEquals(push.length, alone.readableBytes(), "decode moves nothing");
    assertEquals(41, ServerMessage.parseFrom(push).getTopologyPush().getTopology().getTopologyVersion());

    // A response, then a push in the same frame: protobuf keeps the oneof's last field, the push.
    final byte[] response = ServerMessage.newBuilder().setResponse(InvocationResponse.newBuilder()
        .setClientHandle(5).setTopologyVersion(40)).build().toByteArray();
    final byte[] responseThenPush = concat(response, push);
    assertFalse(decoder.decode(Unpooled.wrappedBuffer(responseThenPush)));
    assertEquals(ServerMessage.KindCase.TOPOLOGY_PUSH, ServerMessage.parseFrom(responseThenPush).getKindCase());

    // A push, then a response: the response is what the frame means, and the parser reads it.
    final byte[] pushThenResponse = concat(push, response);
    assertFalse(decoder.decode(Unpooled.wrappedBuffer(pushThenResponse)));
    final ServerMessage parsed = ServerMessage.parseFrom(pushThenResponse);
    assertEquals(ServerMessage.KindCase.RESPONSE, parsed.getKindCase());
    assertEquals(5, parsed.getResponse().getClientHandle());

    // The next answer on the same decoder is read as usual.
    assertSameAnswer(InvocationResponse.newBuilder().setClientHandle(6).setTopologyVersion(41).build(),
        ServerMessage.newBuilder().setResponse(InvocationResponse.newBuilder().setClientHandle(6)
            .setTopologyVersion(41)).build().toByteArray(), decoder);
  }

  @Test
  void shouldRefuseAMalformedTopologyPushInTheGeneratedParser() {
    final byte[] push = ServerMessage.newBuilder().setTopologyPush(TopologyPush.newBuilder()
        .setTopology(Topology.newBuilder().setPartitionCount(4).setTopologyVersion(7))).build().toByteArray();
    final byte[] cut = java.util.Arrays.copyOf(push, push.length - 1);
    final AnswerDecoder decoder = new AnswerDecoder();
    try {
      assertFalse(decoder.decode(Unpooled.wrappedBuffer(cut)));
    } catch (AnswerDecoder.MalformedFrameException e) {
      fail("the decoder read a frame that is not a response: " + e.getMessage());
    }
    assertThrows(com.google.protobuf.InvalidProtocolBufferException.class, () -> ServerMessage.parseFrom(cut));
  }

  @Test
  void shouldRefuseEveryTruncationAsTheGeneratedParserDoesOrReadTheSameAnswer() throws Exception {
    final InvocationResponse r = InvocationResponse.newBuilder().setClientHandle(123456789L).setStatusValue(3)
        .setErrorName("CONSTRAINT_VIOLATION").setMessage("duplicate key").setAppStatus(-3)
        .addResults(ByteString.copyFrom(table(1))).addResults(ByteString.copyFrom(table(2)))
        .setServerNanos(1L << 40).setCatalogVersion(9).setErrorCode(4).setTopologyVersion(2).build();
    final byte[] body = r.toByteArray();
    for (int cut = 0; cut < body.length; cut++) {
      final byte[] shorter = java.util.Arrays.copyOf(body, cut);
      final byte[] frame = wrapAsResponse(shorter);
      InvocationResponse parsed = null;
      try {
        parsed = ServerMessage.parseFrom(frame).getResponse();
      } catch (com.google.protobuf.InvalidProtocolBufferException e) {
        final AnswerDecoder decoder = new AnswerDecoder();
        assertThrows(AnswerDecoder.MalformedFrameException.class, () -> decoder.decode(Unpooled.wrappedBuffer(frame)),
            "cut at " + cut);
        continue;
      }
      assertSameAnswer(parsed, frame);
    }
  }

  @Test
  void shouldRefuseAResultThatIsNotExactlyOneTable() throws Exception {
    final byte[] padded = java.util.Arrays.copyOf(table(5), table(5).length + 3);
    for (byte[] bad : new byte[][] {{9, 0, 0, 0, 1}, padded}) {
      final InvocationResponse r = InvocationResponse.newBuilder().setClientHandle(1)
          .addResults(ByteString.copyFrom(table(1))).addResults(ByteString.copyFrom(bad)).build();
      final AnswerDecoder decoder = new AnswerDecoder();
      assertTrue(decoder.decode(Unpooled.wrappedBuffer(ServerMessage.newBuilder().setResponse(r).build()
          .toByteArray())));
      final ResultFormatException e = assertThrows(ResultFormatException.class, decoder::response);
      assertTrue(e.getMessage().contains("result 1"), e.getMessage());
    }
  }

  private static void assertSameAnswer(InvocationResponse expected, byte[] frame) throws Exception {
    assertSameAnswer(expected, frame, new AnswerDecoder());
  }

  private static void assertSameAnswer(InvocationResponse expected, byte[] frame, AnswerDecoder decoder)
      throws Exception {
    final ByteBuf buf = Unpooled.wrappedBuffer(frame);
    if (!decoder.decode(buf)) {
      fail("not decoded: " + expected);
    }
    assertEquals(expected.getClientHandle(), decoder.clientHandle);
    assertEquals(expected.getErrorCode(), decoder.errorCodeNumber);
    assertEquals(expected.getCatalogVersion(), decoder.catalogVersion);
    assertEquals(expected.getTopologyVersion(), decoder.topologyVersion);
    ClientResponse want;
    try {
      want = Responses.toClientResponse(expected);
    } catch (ResultFormatException e) {
      assertThrows(ResultFormatException.class, decoder::response);
      return;
    }
    final ClientResponse got = decoder.response();
    assertEquals(want.status(), got.status());
    assertEquals(want.errorCode(), got.errorCode());
    assertEquals(want.message(), got.message());
    assertEquals(want.appStatus(), got.appStatus());
    assertEquals(want.appStatusMessage(), got.appStatusMessage());
    assertEquals(want.serverNanos(), got.serverNanos());
    assertEquals(want.results().size(), got.results().size());
    for (int t = 0; t < want.results().size(); t++) {
      assertArrayEquals(bytesOf(want.results().get(t)), bytesOf(got.results().get(t)), "table " + t);
    }
    assertEquals(frame.length, buf.readableBytes(), "decode moves nothing");
  }

  private static byte[] bytesOf(ResultTable table) {
    final ByteBuffer b = table.bytes();
    final byte[] out = new byte[b.remaining()];
    b.duplicate().get(out);
    return out;
  }

  private static InvocationResponse randomResponse(Random random) {
    final InvocationResponse.Builder b = InvocationResponse.newBuilder();
    if (random.nextBoolean()) {
      b.setClientHandle(random.nextLong());
    }
    b.setStatusValue(random.nextInt(7));
    if (random.nextInt(4) == 0) {
      b.setErrorName(random.nextBoolean() ? "CONSTRAINT_VIOLATION" : "NOT_A_CODE").setMessage("é " + random.nextInt());
    }
    if (random.nextInt(4) == 0) {
      b.setAppStatus(random.nextInt()).setAppStatusMessage("app " + random.nextInt(100));
    }
    for (int t = random.nextInt(4); t > 0; t--) {
      b.addResults(ByteString.copyFrom(table(random.nextLong())));
    }
    if (random.nextBoolean()) {
      b.setServerNanos(random.nextLong() & Long.MAX_VALUE);
    }
    b.setCatalogVersion(random.nextInt(1000)).setTopologyVersion(random.nextInt(1000));
    if (random.nextInt(3) == 0) {
      b.setErrorCode(random.nextInt(40));
    }
    return b.build();
  }

  private static byte[] table(long value) {
    return bytesOf(new ResultTableBuilder().column("RESULT", ValueType.BIGINT).column("NAME", ValueType.VARCHAR)
        .row(value, "v" + value).build());
  }

  private static byte[] concat(byte[] first, byte[] second) {
    final byte[] both = java.util.Arrays.copyOf(first, first.length + second.length);
    System.arraycopy(second, 0, both, first.length, second.length);
    return both;
  }

  private static byte[] wrapAsResponse(byte[] body) throws IOException {
    final ByteArrayOutputStream frame = new ByteArrayOutputStream();
    final CodedOutputStream out = CodedOutputStream.newInstance(frame);
    out.writeByteArray(2, body);
    out.flush();
    return frame.toByteArray();
  }
}
