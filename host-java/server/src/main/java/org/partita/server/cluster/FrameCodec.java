package org.partita.server.cluster;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.MessageLite;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToByteEncoder;
import io.netty.handler.codec.MessageToMessageDecoder;
import java.nio.ByteBuffer;
import java.util.List;
import org.partita.proto.cluster.InternalFrame;

/**
 * The internal port's frame codec behind its length framing
 * ({@link InternalFrames}): a frame goes out as its 4-byte big-endian length
 * and its bytes, written straight into one buffer of the transport's kind
 * (direct under epoll) with no intermediate array; a frame comes in parsed
 * from its buffer where it lies.
 */
final class FrameCodec {
  private FrameCodec() {
  }

  /** Writes an {@code InternalFrame} or an {@link EncodedFrame}; passes anything else on. Stateless. */
  @ChannelHandler.Sharable
  static final class Encoder extends MessageToByteEncoder<Object> {
    static final Encoder INSTANCE = new Encoder();

    private Encoder() {
      super(true);
    }

    @Override
    public boolean acceptOutboundMessage(Object message) {
      return message instanceof MessageLite || message instanceof EncodedFrame;
    }

    @Override
    protected ByteBuf allocateBuffer(ChannelHandlerContext context, Object message, boolean preferDirect) {
      return context.alloc().ioBuffer(4 + size(message));
    }

    @Override
    protected void encode(ChannelHandlerContext context, Object message, ByteBuf out) throws Exception {
      final int size = size(message);
      out.ensureWritable(4 + size);
      out.writeInt(size);
      final CodedOutputStream stream = CodedOutputStream.newInstance(out.nioBuffer(out.writerIndex(), size));
      if (message instanceof EncodedFrame encoded) {
        encoded.writeTo(stream);
      } else {
        ((MessageLite) message).writeTo(stream);
      }
      stream.flush();
      stream.checkNoSpaceLeft();
      out.writerIndex(out.writerIndex() + size);
    }

    private static int size(Object message) {
      return message instanceof EncodedFrame encoded ? encoded.serializedSize()
          : ((MessageLite) message).getSerializedSize();
    }
  }

  /** Parses each frame's bytes (without its length) as an {@code InternalFrame}. Stateless. */
  @ChannelHandler.Sharable
  static final class Decoder extends MessageToMessageDecoder<ByteBuf> {
    static final Decoder INSTANCE = new Decoder();

    @Override
    protected void decode(ChannelHandlerContext context, ByteBuf frame, List<Object> out) throws Exception {
      if (frame.nioBufferCount() == 1) {
        final ByteBuffer bytes = frame.nioBuffer();
        out.add(InternalFrame.parseFrom(bytes));
      } else {
        out.add(InternalFrame.parseFrom(ByteBufUtil.getBytes(frame)));
      }
    }
  }
}
