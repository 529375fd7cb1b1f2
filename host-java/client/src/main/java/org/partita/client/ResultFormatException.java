package org.partita.client;

/**
 * Bytes that are not a well-formed result table or result set
 * (docs/engine-formats.md). Names the byte offset, within the buffer given,
 * where the problem was found.
 */
public final class ResultFormatException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int offset;

  public ResultFormatException(int offset, String what) {
    super("malformed result at byte " + offset + ": " + what);
    this.offset = offset;
  }

  /** Offset in the buffer (absolute index) where the problem was found. */
  public int offset() {
    return offset;
  }
}
