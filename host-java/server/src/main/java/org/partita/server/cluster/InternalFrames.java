package org.partita.server.cluster;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.function.Supplier;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;

/**
 * The internal port's framing (docs/cluster.md, "Wire and ports"): a 4-byte
 * big-endian length, then one {@code InternalFrame} (written and read by
 * {@link FrameCodec}; a sender may write a frame's bytes itself as an
 * {@link EncodedFrame}). Frames over
 * {@link #MAX_FRAME_BYTES} close the connection. Stateless.
 */
public final class InternalFrames {
  /** The largest frame either side accepts (a whole metadata snapshot fits many times over). */
  public static final int MAX_FRAME_BYTES = 16 << 20;

  private InternalFrames() {
  }

  /** How long opening an internal connection may take. */
  static final int CONNECT_TIMEOUT_MILLIS = 2_000;

  /**
   * Opens an internal connection to {@code to} from {@code from} (the host's
   * own address, any port) on {@code group}: with {@code tls} (a secured
   * cluster; null otherwise) mutual TLS and host admission first
   * ({@link HostAdmission}), then the framing, then a handler
   * {@code handler} makes for it.
   */
  public static ChannelFuture connect(EventLoopGroup group, InetSocketAddress to, InetAddress from, ClusterTls tls,
      Supplier<ChannelHandler> handler) {
    return new Bootstrap().group(group).channel(InternalTransport.socketChannel(group))
        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, CONNECT_TIMEOUT_MILLIS)
        .option(ChannelOption.TCP_NODELAY, true)
        .handler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel channel) {
            if (tls != null) {
              HostAdmission.connecting(channel, tls, to);
            }
            install(channel.pipeline());
            channel.pipeline().addLast(handler.get());
          }
        })
        .connect(to, new InetSocketAddress(from, 0));
  }

  /** Adds the framing and the frame codec to a new channel's pipeline. */
  public static void install(ChannelPipeline pipeline) {
    pipeline.addLast("frames", new LengthFieldBasedFrameDecoder(MAX_FRAME_BYTES, 0, 4, 0, 4))
        .addLast("decode", FrameCodec.Decoder.INSTANCE)
        .addLast("encode", FrameCodec.Encoder.INSTANCE);
  }
}
