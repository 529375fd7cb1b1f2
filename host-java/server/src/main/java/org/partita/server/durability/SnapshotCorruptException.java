package org.partita.server.durability;

import java.nio.file.Path;

/** A snapshot that cannot be used: a missing manifest or file, a checksum that does not match, a bad frame. */
public final class SnapshotCorruptException extends Exception {
  private static final long serialVersionUID = 1L;

  /** @param file the file at fault, or null when the manifest alone says it */
  public SnapshotCorruptException(Path file, String message) {
    super((file == null ? "" : file + ": ") + message);
  }
}
