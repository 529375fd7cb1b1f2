package org.partita.server.durability;

import java.util.Locale;

/** When an answer may leave the server relative to its command log record (docs/durability.md). */
public enum CommandLogMode {
  /** No answer before its record, and every earlier record of its partition, is on disk. */
  SYNC,
  /** Answers at once; records reach the disk every interval; new writes wait when the disk falls behind. */
  ASYNC,
  /** No command log: everything is lost when the server stops. */
  OFF;

  /** The mode named {@code text} (sync, async, off; any case). */
  public static CommandLogMode parse(String text) {
    try {
      return valueOf(text.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--command-log must be sync, async or off, got '" + text + "'");
    }
  }

  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }
}
