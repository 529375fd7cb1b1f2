package org.partita.server.durability;

import java.nio.file.Path;

/**
 * The command log cannot be replayed as it is: a damaged record or header
 * where a torn tail cannot explain it, a missing segment, or a log written
 * for another schema or partition count. The message names the file and
 * the offset; the server refuses to start (docs/durability.md, "When
 * recovery refuses to start").
 */
public final class LogCorruptException extends Exception {
  private final Path file;
  private final long offset;

  public LogCorruptException(Path file, long offset, String reason) {
    super("command log " + file + (offset >= 0 ? " at offset " + offset : "") + ": " + reason
        + "; the server does not start on a damaged log (see docs/durability.md, \"When recovery refuses to start\")");
    this.file = file;
    this.offset = offset;
  }

  /** The file at fault. */
  public Path file() {
    return file;
  }

  /** The byte offset in {@link #file} (-1 when the file as a whole is at fault, e.g. missing). */
  public long offset() {
    return offset;
  }
}
