package org.partita.server.cluster;

import com.google.protobuf.CodedOutputStream;
import java.io.IOException;

/**
 * An {@code InternalFrame} whose bytes its sender writes itself, straight
 * into the outgoing buffer (a leader's batch of items it keeps as bytes),
 * instead of building the protobuf message: the internal port's encoder
 * ({@link InternalFrames}) takes it beside an {@code InternalFrame}. The
 * bytes must be an {@code InternalFrame}'s wire form.
 */
public interface EncodedFrame {
  /** The number of bytes {@link #writeTo} writes; the same on every call. */
  int serializedSize();

  /** Writes exactly {@link #serializedSize} bytes. */
  void writeTo(CodedOutputStream out) throws IOException;
}
