package org.partita.server.network;

import io.netty.buffer.ByteBuf;
import org.partita.client.proto.ClientMessage;
import org.partita.server.txn.Invocation;
import org.partita.server.txn.InvocationCodec;
import org.partita.server.txn.InvocationReader;
import org.partita.server.txn.MalformedInvocationException;

/**
 * Takes {@code ClientMessage{invocation}} frames (proto/client.proto) off
 * the socket buffer without building protobuf message objects: copies the
 * Invocation's bytes out of the frame, checks their structure
 * ({@link InvocationCodec#scan}), and keeps them undecoded in an
 * {@link Invocation} for the site that will run it. Per call it creates only
 * the copy and the Invocation (the envelope is reused) and, when the name
 * differs from the previous call's, the procedure name.
 *
 * <p>Not thread-safe: one per connection, used on its event loop.
 */
final class InvocationDecoder {
  private static final int LENGTH_DELIMITED = 2;

  /** The client id calls carry: the connection's id, or its session's once the login named one. */
  private long clientId;
  private final InvocationReader reader = new InvocationReader();

  InvocationDecoder(long connectionId) {
    this.clientId = connectionId;
  }

  /** From now on calls carry {@code id} as their client id (a client session, txn.ClientSessions). */
  void clientId(long id) {
    clientId = id;
  }

  /** True iff {@code frame} is a ClientMessage holding an invocation (field 2); does not move the reader. */
  static boolean isInvocation(ByteBuf frame) {
    return frame.isReadable() && frame.getByte(frame.readerIndex()) == (ClientMessage.INVOCATION_FIELD_NUMBER << 3
        | LENGTH_DELIMITED);
  }

  /**
   * The frame's invocation. REQUIRES: {@link #isInvocation}. Moves the
   * frame's reader index. Throws ProtocolException when the bytes are not a
   * well-formed message (a frame of anything else than one invocation included).
   */
  Invocation decode(ByteBuf frame) throws ProtocolException {
    final ByteBuf in = frame;  // read in place: the caller releases the frame afterwards
    in.skipBytes(1);
    final int length = readLength(in);
    if (length != in.readableBytes()) {
      throw new ProtocolException("a frame must hold exactly one invocation: its message has " + length
          + " bytes, the frame " + in.readableBytes() + " after its header");
    }
    final byte[] message = new byte[length];
    in.readBytes(message);
    try {
      final InvocationCodec.Envelope envelope = reader.scan(message);
      return Invocation.received(message, envelope, reader.procedure(message), clientId);
    } catch (MalformedInvocationException e) {
      throw new ProtocolException(e.getMessage());
    }
  }

  private static int readLength(ByteBuf in) throws ProtocolException {
    long result = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      if (!in.isReadable()) {
        throw new ProtocolException("truncated varint");
      }
      final byte b = in.readByte();
      result |= (long) (b & 0x7F) << shift;
      if (b >= 0) {
        return result > Integer.MAX_VALUE ? -1 : (int) result;
      }
    }
    throw new ProtocolException("malformed invocation length");
  }
}
