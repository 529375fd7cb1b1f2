package org.partita.server.network;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnknownFieldSet;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.partita.client.proto.ClientMessage;
import org.partita.client.proto.Invocation;
import org.partita.client.proto.Parameter;
import org.partita.proto.ErrorCode;
import org.partita.server.error.ServerException;

class InvocationDecoderTest {
  private final InvocationDecoder decoder = new InvocationDecoder(42);

  private static ByteBuf frame(Invocation.Builder call) {
    return Unpooled.wrappedBuffer(ClientMessage.newBuilder().setInvocation(call).build().toByteArray());
  }

  @Test
  void shouldDecodeEveryKindOfValueAsProtobufEncodesIt() throws Exception {
    final ByteBuf f = frame(Invocation.newBuilder().setClientHandle(Long.MAX_VALUE).setProcedure("Vote")
        .addParameters(Parameter.newBuilder().setInteger(-5))
        .addParameters(Parameter.newBuilder().setFloatValue(2.5))
        .addParameters(Parameter.newBuilder().setDecimal("-12.345"))
        .addParameters(Parameter.newBuilder().setText("héllo"))
        .addParameters(Parameter.newBuilder().setBinary(ByteString.copyFrom(new byte[] {0, 1, (byte) 0xff})))
        .addParameters(Parameter.newBuilder().setTimestampMicros(-1))
        .addParameters(Parameter.newBuilder())
        .setRoutedPartitionPlusOne(3));
    assertTrue(InvocationDecoder.isInvocation(f));
    final org.partita.server.txn.Invocation call = decoder.decode(f);
    assertEquals(Long.MAX_VALUE, call.clientSequence());
    assertEquals(42, call.clientId());
    assertEquals("Vote", call.procedure());
    assertEquals(7, call.parameterCount());
    final Object[] p = call.parameters();
    assertEquals(7, p.length);
    assertEquals(-5L, p[0]);
    assertEquals(2.5, p[1]);
    assertEquals(new BigDecimal("-12.345"), p[2]);
    assertEquals("héllo", p[3]);
    assertArrayEquals(new byte[] {0, 1, (byte) 0xff}, (byte[]) p[4]);
    assertEquals(Instant.ofEpochSecond(-1, 999_999_000), p[5]);
    assertNull(p[6]);
  }

  /**
   * Regression: frames are slices of pooled buffers at an offset, and a
   * duplicate of such a slice may index the buffer underneath; the procedure
   * name was read that many bytes too far.
   */
  @Test
  void shouldReadTheNameOfAFrameThatIsASliceOfAPooledBufferAtAnOffset() throws Exception {
    final byte[] message = ClientMessage.newBuilder().setInvocation(Invocation.newBuilder().setClientHandle(5)
        .setProcedure("@SystemCatalog").addParameters(Parameter.newBuilder().setText("TABLES"))).build().toByteArray();
    final ByteBuf cumulation = io.netty.buffer.PooledByteBufAllocator.DEFAULT.directBuffer();
    try {
      cumulation.writeBytes(new byte[7]).writeInt(message.length).writeBytes(message);
      final ByteBuf frame = cumulation.retainedSlice(7, 4 + message.length);
      frame.skipBytes(4);
      final org.partita.server.txn.Invocation call = decoder.decode(frame);
      frame.release();
      assertEquals("@SystemCatalog", call.procedure());
      assertArrayEquals(new Object[] {"TABLES"}, call.parameters());
    } finally {
      cumulation.release();
    }
  }

  @Test
  void shouldReuseTheProcedureNameOfThePreviousCall() throws Exception {
    final String first = decoder.decode(frame(Invocation.newBuilder().setProcedure("Vote"))).procedure();
    assertSame(first, decoder.decode(frame(Invocation.newBuilder().setProcedure("Vote"))).procedure());
    assertEquals("Other", decoder.decode(frame(Invocation.newBuilder().setProcedure("Other"))).procedure());
  }

  @Test
  void shouldSkipUnknownInvocationFieldsButRefuseUnknownValueKinds() throws Exception {
    final UnknownFieldSet extra = UnknownFieldSet.newBuilder()
        .addField(40, UnknownFieldSet.Field.newBuilder().addVarint(7).build()).build();
    final org.partita.server.txn.Invocation skipped = decoder.decode(frame(Invocation.newBuilder().setClientHandle(1)
        .setProcedure("P").setUnknownFields(extra).addParameters(Parameter.newBuilder().setInteger(1))));
    assertEquals(Arrays.asList(1L), Arrays.asList(skipped.parameters()));
    final org.partita.server.txn.Invocation refused = decoder.decode(frame(Invocation.newBuilder().setClientHandle(2)
        .setProcedure("P").addParameters(Parameter.newBuilder().setUnknownFields(extra))));
    assertEquals(2, refused.clientSequence());
    final ServerException e = assertThrows(ServerException.class, refused::parameters);
    assertEquals(ErrorCode.ERROR_CODE_BAD_PARAMETER, e.code());
    assertEquals("P parameter 1: unsupported kind of value (field 40)", e.getMessage());
  }

  @Test
  void shouldRejectTruncatedAndOverlongFields() {
    final byte[] good = ClientMessage.newBuilder().setInvocation(Invocation.newBuilder().setClientHandle(9)
        .setProcedure("Procedure").addParameters(Parameter.newBuilder().setText("abc"))).build().toByteArray();
    for (int cut = 1; cut < good.length; cut++) {
      final ByteBuf truncated = Unpooled.wrappedBuffer(Arrays.copyOf(good, cut));
      assertThrows(ProtocolException.class, () -> decoder.decode(truncated), "cut at " + cut);
    }
    final ByteBuf badVarint = Unpooled.wrappedBuffer(new byte[] {0x12, 11, 8, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1});
    assertThrows(ProtocolException.class, () -> decoder.decode(badVarint));
  }
}
