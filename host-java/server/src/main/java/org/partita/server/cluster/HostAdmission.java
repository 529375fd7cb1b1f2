package org.partita.server.cluster;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.ReferenceCountUtil;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.security.cert.Certificate;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.logging.Logger;
import javax.net.ssl.SSLPeerUnverifiedException;
import org.partita.server.security.AuditLog;

/**
 * Admission of a host on the internal port of a secured cluster
 * (docs/security.md, "Cluster admission"): the first handlers of every
 * internal connection, before the framing and whatever handles frames.
 * {@link #accepting} and {@link #connecting} put mutual TLS first
 * ({@link ClusterTls}: each side presents a certificate signed by the
 * cluster's authorities and requires one), then this handler, which lets
 * nothing through until the TLS handshake has succeeded and, on the
 * accepting side, the peer's certificate names the address the connection
 * comes from (hosts open their internal connections from their own
 * address), so one member's certificate cannot speak for another address.
 * Then it removes itself. A failed handshake, a certificate for another
 * address, bytes that are not TLS or a handshake not finished within
 * Netty's handshake timeout (10 s) close only that connection, with a
 * warning and an audit line {@code host refused} naming the peer.
 *
 * <p>One instance per connection; runs on the connection's event loop.
 */
final class HostAdmission extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = Logger.getLogger(HostAdmission.class.getName());
  /** The pipeline names of the TLS handler and of this one. */
  static final String TLS = "admission-tls";
  static final String NAME = "admission";
  private static final int MAX_REASON_CHARS = 300;

  private final boolean accepting;
  private boolean refused;

  private HostAdmission(boolean accepting) {
    this.accepting = accepting;
  }

  /** Puts admission first in the pipeline of a connection another host opened to this one. */
  static void accepting(Channel channel, ClusterTls tls) {
    final ChannelPipeline pipeline = channel.pipeline();
    pipeline.addFirst(NAME, new HostAdmission(true));
    pipeline.addFirst(TLS, tls.acceptingHandler(channel.alloc()));
  }

  /** Puts admission first in the pipeline of a connection this host opens to {@code peer}. */
  static void connecting(Channel channel, ClusterTls tls, InetSocketAddress peer) {
    final ChannelPipeline pipeline = channel.pipeline();
    pipeline.addFirst(NAME, new HostAdmission(false));
    pipeline.addFirst(TLS, tls.connectingHandler(channel.alloc(), peer));
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext context, Object event) throws Exception {
    if (!(event instanceof SslHandshakeCompletionEvent done)) {
      super.userEventTriggered(context, event);
      return;
    }
    if (!done.isSuccess()) {
      refuse(context, "TLS handshake failed: " + done.cause().getMessage());
      return;
    }
    if (accepting) {
      final String wrong = wrongPeer(context);
      if (wrong != null) {
        refuse(context, wrong);
        return;
      }
    }
    context.pipeline().remove(this);
    super.userEventTriggered(context, event);
  }

  /** Why the peer's certificate does not name the address it connects from, or null when it does. */
  private static String wrongPeer(ChannelHandlerContext context) {
    final InetAddress from = ((InetSocketAddress) context.channel().remoteAddress()).getAddress();
    final Certificate[] chain;
    try {
      chain = ((SslHandler) context.pipeline().get(TLS)).engine().getSession().getPeerCertificates();
    } catch (SSLPeerUnverifiedException e) {
      return "no verified certificate: " + e.getMessage();
    }
    final X509Certificate peer = (X509Certificate) chain[0];
    if (names(peer, from)) {
      return null;
    }
    return "its certificate (" + peer.getSubjectX500Principal().getName() + ", addresses " + addressesNamed(peer)
        + ") does not name the address it connects from, " + from.getHostAddress();
  }

  @Override
  public void channelRead(ChannelHandlerContext context, Object message) {
    // TLS delivers nothing before its handshake completes; anything here is not a host's.
    ReferenceCountUtil.release(message);
    refuse(context, "data before the TLS handshake completed");
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
    refuse(context, "not a TLS connection of a cluster host (" + cause.getMessage() + ")");
  }

  private void refuse(ChannelHandlerContext context, String why) {
    if (refused) {
      return;
    }
    refused = true;
    final String peer = String.valueOf(context.channel().remoteAddress());
    // Some TLS errors quote the bytes received; a log line keeps their start.
    final String reason = why.length() <= MAX_REASON_CHARS ? why : why.substring(0, MAX_REASON_CHARS) + "...";
    LOG.warning("internal port: " + (accepting ? "refused the connection from " : "the connection to ") + peer
        + (accepting ? "" : " was not admitted") + ": " + reason + "; closing that connection");
    AuditLog.hostRefused(peer, (accepting ? "" : "outgoing: ") + reason);
    context.close();
  }

  /** Whether {@code certificate} names {@code address} among its IP subject alternative names. */
  static boolean names(X509Certificate certificate, InetAddress address) {
    for (String named : addressesNamed(certificate)) {
      try {
        if (InetAddress.getByName(named).equals(address)) {
          return true;
        }
      } catch (UnknownHostException e) {
        // Not an address literal: it names no address.
      }
    }
    return false;
  }

  /** The IP addresses among {@code certificate}'s subject alternative names. */
  static List<String> addressesNamed(X509Certificate certificate) {
    final List<String> out = new ArrayList<>();
    final Collection<List<?>> names;
    try {
      names = certificate.getSubjectAlternativeNames();
    } catch (CertificateParsingException e) {
      return out;
    }
    if (names == null) {
      return out;
    }
    for (List<?> name : names) {
      if (name.size() == 2 && Integer.valueOf(7).equals(name.get(0)) && name.get(1) instanceof String ip) {
        out.add(ip);
      }
    }
    return out;
  }
}
