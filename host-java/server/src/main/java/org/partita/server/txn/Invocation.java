package org.partita.server.txn;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.UnsafeByteOperations;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.partita.client.internal.CallEncoder;
import org.partita.proto.txn.ProcedureInvocation;
import org.partita.server.error.ServerException;

/**
 * One call as its client sent it: the procedure's name, who sent it (client
 * id and the client's sequence for the call), its time limit, and the bytes
 * of the {@code partita.client.Invocation} message, kept undecoded. The
 * executing site decodes the parameters from those bytes
 * ({@link InvocationCodec}, the server's one decoder); the command log and
 * replication write the same bytes.
 *
 * <p>The binary protocol copies the message out of the frame when it
 * arrives (a few dozen bytes for a typical call), so an Invocation owns its
 * bytes outright and nobody has to release anything: it can wait in a
 * connection's backlog, a site queue, a log buffer or a replication batch,
 * or be dropped, on any thread. HTTP and in-process callers encode their
 * parameters with the Java client's encoder, so every front end hands the
 * database the same bytes. Immutable.
 */
public final class Invocation {
  private final String procedure;
  private final long clientId;
  private final long clientSequence;
  private final int timeoutMillis;
  private final int parameterCount;
  private final byte[] bytes;

  private Invocation(String procedure, long clientId, long clientSequence, int timeoutMillis, int parameterCount,
      byte[] bytes) {
    this.procedure = procedure;
    this.clientId = clientId;
    this.clientSequence = clientSequence;
    this.timeoutMillis = timeoutMillis;
    this.parameterCount = parameterCount;
    this.bytes = bytes;
  }

  /**
   * An invocation received as bytes, whose structure {@link InvocationCodec#scan}
   * checked and described as {@code envelope}.
   *
   * @param message the Invocation message's bytes, owned by the invocation from now on (never changed)
   * @param procedure its procedure name (callers may reuse an equal String)
   */
  public static Invocation received(byte[] message, InvocationCodec.Envelope envelope, String procedure,
      long clientId) {
    return new Invocation(procedure, clientId, envelope.handle(), envelope.timeoutMillis(),
        envelope.parameterCount(), message);
  }

  /**
   * An invocation of {@code procedure} with {@code parameters} (Long,
   * Integer, Short, Byte, Double, Float, BigDecimal, String, byte[],
   * Instant or null), encoded as a client would send it.
   *
   * @throws ServerException BAD_PARAMETER when a parameter has no wire form
   */
  public static Invocation of(String procedure, Object[] parameters, long clientId, long clientSequence) {
    return of(procedure, parameters, clientId, clientSequence, 0);
  }

  /**
   * {@link #of(String, Object[], long, long)} asking for a time limit of
   * {@code timeoutMillis} (0 = the server's default; the bytes carry it as
   * timeout_millis, read as an unsigned 32-bit value).
   */
  public static Invocation of(String procedure, Object[] parameters, long clientId, long clientSequence,
      int timeoutMillis) {
    final Object[] values = parameters == null ? new Object[0] : parameters;
    final byte[] encoded;
    try {
      encoded = CallEncoder.invocationBytes(procedure, values, timeoutMillis);
    } catch (IllegalArgumentException e) {
      throw ServerException.badParameter(procedure + " " + e.getMessage());
    }
    return new Invocation(procedure, clientId, clientSequence, timeoutMillis, values.length, encoded);
  }

  /** The invocation {@code proto} describes (a logged or replicated call). */
  public static Invocation fromProto(ProcedureInvocation proto) throws MalformedInvocationException {
    return fromProto(proto, new InvocationReader());
  }

  /** {@link #fromProto(ProcedureInvocation)} read with {@code reader} (the calling thread's own). */
  public static Invocation fromProto(ProcedureInvocation proto, InvocationReader reader)
      throws MalformedInvocationException {
    final byte[] bytes = proto.getInvocation().toByteArray();
    final InvocationCodec.Envelope envelope = reader.scan(bytes);
    return new Invocation(reader.procedure(bytes), proto.getClientId(), proto.getClientSequence(),
        envelope.timeoutMillis(), envelope.parameterCount(), bytes);
  }

  public String procedure() {
    return procedure;
  }

  public long clientId() {
    return clientId;
  }

  /** The client's sequence for this call (its handle). */
  public long clientSequence() {
    return clientSequence;
  }

  /** The call's time limit in ms; 0 = the server's default. */
  public int timeoutMillis() {
    return timeoutMillis;
  }

  public int parameterCount() {
    return parameterCount;
  }

  /**
   * The parameters as Java values (InvocationCodec#parameters).
   *
   * @throws ServerException BAD_PARAMETER naming a parameter whose value cannot be used
   */
  public Object[] parameters() {
    return InvocationCodec.parameters(bytes, parameterCount, procedure);
  }

  /**
   * {@link #parameters} decoded into {@code into} (a caller's reused array).
   *
   * @throws IllegalArgumentException unless {@code into} has {@link #parameterCount} elements
   * @throws ServerException BAD_PARAMETER naming a parameter whose value cannot be used
   */
  public void parametersInto(Object[] into) {
    if (into.length != parameterCount) {
      throw new IllegalArgumentException("an array of " + into.length + " for " + parameterCount + " parameter(s)");
    }
    InvocationCodec.parametersInto(bytes, into, procedure);
  }

  /** Parameter {@code index} (0-based), or null when absent; for routing. */
  public Object parameter(int index) {
    return InvocationCodec.parameter(bytes, index, procedure);
  }

  /**
   * Where parameter {@code index} (0-based) holds an integer, for
   * {@link #integerAt}; -1 when it is absent or holds another kind of value.
   * For routing on an integer without boxing it.
   */
  public int integerParameterAt(int index) {
    return InvocationCodec.integerParameterAt(bytes, index);
  }

  /** The integer at {@code offset}, as {@link #integerParameterAt} gave it. */
  public long integerAt(int offset) {
    return InvocationCodec.integerAt(bytes, offset);
  }

  /** The message's size in bytes. */
  public int size() {
    return bytes.length;
  }

  /** The size of {@link #writeProto}'s bytes. */
  public int protoSize() {
    return (clientId == 0 ? 0 : 1 + varintSize(clientId)) + (clientSequence == 0 ? 0 : 1 + varintSize(clientSequence))
        + (bytes.length == 0 ? 0 : 1 + varintSize(bytes.length) + bytes.length);
  }

  /**
   * Writes the bytes of {@link #toProto} at {@code out}'s position without
   * building it (the command log's hot path): fields 1 and 2 as varints,
   * field 3 length-delimited, each left out when it holds its default, as
   * protobuf does. REQUIRES: {@link #protoSize} bytes remaining.
   */
  public void writeProto(ByteBuffer out) {
    if (clientId != 0) {
      out.put((byte) (1 << 3));
      putVarint(out, clientId);
    }
    if (clientSequence != 0) {
      out.put((byte) (2 << 3));
      putVarint(out, clientSequence);
    }
    if (bytes.length != 0) {
      out.put((byte) (3 << 3 | 2));
      putVarint(out, bytes.length);
      out.put(bytes);
    }
  }

  /** {@link #writeProto(ByteBuffer)} into a protobuf stream (a leader's replicated items). */
  public void writeProto(CodedOutputStream out) throws IOException {
    if (clientId != 0) {
      out.writeUInt64(1, clientId);
    }
    if (clientSequence != 0) {
      out.writeUInt64(2, clientSequence);
    }
    if (bytes.length != 0) {
      out.writeByteArray(3, bytes);
    }
  }

  private static int varintSize(long value) {
    return value == 0 ? 1 : (63 - Long.numberOfLeadingZeros(value)) / 7 + 1;
  }

  private static void putVarint(ByteBuffer out, long value) {
    long v = value;
    while ((v & ~0x7FL) != 0) {
      out.put((byte) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    out.put((byte) v);
  }

  /**
   * The protobuf form, for the command log and replication. It shares this
   * invocation's bytes (never changed) instead of copying them.
   */
  public ProcedureInvocation toProto() {
    return ProcedureInvocation.newBuilder()
        .setClientId(clientId)
        .setClientSequence(clientSequence)
        .setInvocation(UnsafeByteOperations.unsafeWrap(bytes))
        .build();
  }

  @Override
  public String toString() {
    return procedure + " (" + parameterCount + " parameter(s), client " + clientId + "/" + clientSequence + ")";
  }
}
