package org.partita.client.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.partita.client.proto.ClientMessage;
import org.partita.client.proto.Invocation;
import org.partita.client.proto.Parameter;

class CallEncoderTest {
  /** The frame CallEncoder writes for one call. */
  private static byte[] encode(long handle, String procedure, int routedPlusOne, Object... parameters) throws Exception {
    return encodeWithTimeout(handle, procedure, routedPlusOne, 0, parameters);
  }

  private static byte[] encodeWithTimeout(long handle, String procedure, int routedPlusOne, int timeoutMillis,
      Object... parameters) throws Exception {
    final int invocationSize = CallEncoder.invocationSize(handle, procedure, CallEncoder.parametersSize(parameters),
        routedPlusOne, timeoutMillis);
    final byte[] frame = new byte[CallEncoder.LENGTH_PREFIX_BYTES + CallEncoder.messageSize(invocationSize)];
    final CodedOutputStream out = CodedOutputStream.newInstance(frame);
    CallEncoder.writeFrame(out, handle, procedure, parameters, routedPlusOne, timeoutMillis, invocationSize);
    out.checkNoSpaceLeft();
    return frame;
  }

  /** The same frame through the generated classes. */
  private static byte[] expected(Invocation invocation) {
    final byte[] body = ClientMessage.newBuilder().setInvocation(invocation).build().toByteArray();
    return ByteBuffer.allocate(4 + body.length).putInt(body.length).put(body).array();
  }

  @Test
  void shouldWriteExactlyWhatTheGeneratedClassesWrite() throws Exception {
    final Invocation invocation = Invocation.newBuilder().setClientHandle(300).setProcedure("Vote")
        .addParameters(Parameter.newBuilder().setInteger(-5))
        .addParameters(Parameter.newBuilder().setInteger(0))
        .addParameters(Parameter.newBuilder().setFloatValue(2.5))
        .addParameters(Parameter.newBuilder().setDecimal("12.340"))
        .addParameters(Parameter.newBuilder().setText("ünï"))
        .addParameters(Parameter.newBuilder().setBinary(ByteString.copyFrom(new byte[] {0, 1, 2})))
        .addParameters(Parameter.newBuilder().setTimestampMicros(-1_500_000))
        .addParameters(Parameter.getDefaultInstance())
        .setRoutedPartitionPlusOne(3).build();

    final byte[] actual = encode(300, "Vote", 3, -5L, (byte) 0, 2.5f, new BigDecimal("12.340"), "ünï",
        new byte[] {0, 1, 2}, Instant.ofEpochSecond(-2, 500_000_000), null);

    assertArrayEquals(expected(invocation), actual);
  }

  @Test
  void shouldWriteTheTimeLimitAsTheGeneratedClassesDo() throws Exception {
    final Invocation invocation = Invocation.newBuilder().setClientHandle(7).setProcedure("@AdHoc")
        .addParameters(Parameter.newBuilder().setText("SELECT 1")).setRoutedPartitionPlusOne(2)
        .setTimeoutMillis(3_600_000).build();
    assertArrayEquals(expected(invocation), encodeWithTimeout(7, "@AdHoc", 2, 3_600_000, "SELECT 1"));
    final byte[] bytes = CallEncoder.invocationBytes("P", new Object[] {1L}, 250);
    assertEquals(250, Invocation.parseFrom(bytes).getTimeoutMillis());
  }

  @Test
  void shouldOmitDefaultsLikeProto3() throws Exception {
    assertArrayEquals(expected(Invocation.newBuilder().setProcedure("P").build()), encode(0, "P", 0));
  }

  @Test
  void shouldEncodeALargeParameterWithAMultiByteLength() throws Exception {
    final byte[] big = new byte[70_000];
    Arrays.fill(big, (byte) 7);
    final Invocation invocation = Invocation.newBuilder().setClientHandle(Long.MAX_VALUE).setProcedure("Big")
        .addParameters(Parameter.newBuilder().setBinary(ByteString.copyFrom(big))).build();
    assertArrayEquals(expected(invocation), encode(Long.MAX_VALUE, "Big", 0, (Object) big));
  }

  @Test
  void shouldNameThePositionAndTypeOfAnUnsupportedParameter() {
    final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> CallEncoder.parametersSize(new Object[] {1L, "x", java.util.List.of()}));
    assertTrue(e.getMessage().startsWith("parameter 3 is a java.util."), e.getMessage());
  }

  @Test
  void shouldRejectAnInstantOutsideTheTimestampRange() {
    final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> CallEncoder.parametersSize(new Object[] {Instant.MAX}));
    assertTrue(e.getMessage().startsWith("parameter 1 (java.time.Instant"), e.getMessage());
  }

  @Test
  void shouldConvertInstantsToMicroseconds() {
    assertEquals(1_000_002L, CallEncoder.micros(Instant.ofEpochSecond(1, 2_999)));
    assertEquals(-1L, CallEncoder.micros(Instant.ofEpochSecond(-1, 999_999_000)));
  }
}
