package org.partita.server.cluster;

import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.LengthFieldPrepender;
import io.netty.handler.codec.protobuf.ProtobufDecoder;
import io.netty.handler.codec.protobuf.ProtobufEncoder;
import org.partita.proto.cluster.InternalFrame;

/**
 * The internal port's framing (docs/cluster.md, "Wire and ports"): a 4-byte
 * big-endian length, then one {@code InternalFrame}. Frames over
 * {@link #MAX_FRAME_BYTES} close the connection. Stateless.
 */
final class InternalFrames {
  /** The largest frame either side accepts (a whole metadata snapshot fits many times over). */
  static final int MAX_FRAME_BYTES = 16 << 20;

  private InternalFrames() {
  }

  /** Adds the framing and the protobuf codec to a new channel's pipeline. */
  static void install(ChannelPipeline pipeline) {
    pipeline.addLast("frames", new LengthFieldBasedFrameDecoder(MAX_FRAME_BYTES, 0, 4, 0, 4))
        .addLast("decode", new ProtobufDecoder(InternalFrame.getDefaultInstance()))
        .addLast("length", new LengthFieldPrepender(4))
        .addLast("encode", new ProtobufEncoder());
  }
}
