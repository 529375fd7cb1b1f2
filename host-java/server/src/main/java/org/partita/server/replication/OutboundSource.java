package org.partita.server.replication;

import org.partita.proto.cluster.InternalFrame;
import org.partita.server.cluster.EncodedFrame;

/**
 * Something with frames for other hosts on the internal port: a leader's
 * items for its replicas, a replica's acknowledgements for its leader. A
 * {@link PeerLink} pulls frames from its sources when it is woken, as many
 * as its connection takes, so what is not sent stays with its source and a
 * new connection starts again from what the peer has not acknowledged.
 *
 * <p>Thread-safe: {@link #drain} and {@link #reconnected} run on the link's
 * event loop while sites add work.
 */
interface OutboundSource {
  /** The next frame for {@code host}, marked as sent; null when there is nothing more now. */
  InternalFrame drain(int host);

  /**
   * What the link writes: {@link #drain}'s frame, or the same frame as an
   * {@link EncodedFrame} (a source that keeps its frames' contents as bytes
   * writes them straight into the outgoing buffer). Marked as sent; null
   * when there is nothing more now.
   */
  default Object nextFrame(int host) {
    return drain(host);
  }

  /**
   * A new connection to {@code host} is open: what was sent on the previous
   * one and not acknowledged must be sent again.
   */
  void reconnected(int host);
}
