package org.partita.server.replication;

import org.partita.proto.cluster.InternalFrame;

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
   * A new connection to {@code host} is open: what was sent on the previous
   * one and not acknowledged must be sent again.
   */
  void reconnected(int host);
}
