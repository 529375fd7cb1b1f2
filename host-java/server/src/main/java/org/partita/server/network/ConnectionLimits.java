package org.partita.server.network;

/**
 * Per-connection bounds of the client protocol.
 *
 * @param maxInFlight calls a connection may have unanswered before the server stops reading from it
 * @param maxFrameBytes the largest client frame accepted (length prefix excluded); a larger one closes the connection
 */
public record ConnectionLimits(int maxInFlight, int maxFrameBytes) {
  public static final int DEFAULT_MAX_IN_FLIGHT = 2048;
  public static final int DEFAULT_MAX_FRAME_BYTES = 32 * 1024 * 1024;

  public ConnectionLimits {
    if (maxInFlight < 1 || maxFrameBytes < 64) {
      throw new IllegalArgumentException("connection limits must be positive: maxInFlight=" + maxInFlight
          + ", maxFrameBytes=" + maxFrameBytes);
    }
  }

  public static ConnectionLimits defaults() {
    return new ConnectionLimits(DEFAULT_MAX_IN_FLIGHT, DEFAULT_MAX_FRAME_BYTES);
  }
}
