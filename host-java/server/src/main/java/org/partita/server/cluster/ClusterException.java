package org.partita.server.cluster;

/** A host cannot join or form its cluster; the message says why and what to do. */
public final class ClusterException extends Exception {
  private static final long serialVersionUID = 1L;

  public ClusterException(String message, Throwable cause) {
    super(message, cause);
  }
}
