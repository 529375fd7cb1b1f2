package org.partita.server.network;

import com.google.protobuf.InvalidProtocolBufferException;
import io.netty.buffer.ByteBuf;
import org.partita.client.proto.ClientMessage;

/**
 * Decodes client frames that are not invocations (logins, and anything
 * unexpected) with the generated protobuf classes. Invocations take the
 * allocation-light path of {@link InvocationDecoder}. Stateless.
 */
final class LoginFrameReader {
  private LoginFrameReader() {}

  /** Parses one frame's bytes (length prefix already removed). */
  static ClientMessage parse(ByteBuf frame) throws ProtocolException {
    try {
      return ClientMessage.parseFrom(frame.nioBuffer());
    } catch (InvalidProtocolBufferException e) {
      throw new ProtocolException("undecodable frame of " + frame.readableBytes() + " bytes: " + e.getMessage());
    }
  }
}
