package org.partita.server.durability;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Named places where a test can make the server die as if killed, to prove
 * that a crash there is harmless (docs/durability.md, "Crash points").
 *
 * <p>The environment variable {@code PARTITA_CRASH_AT} names one point,
 * optionally with the number of the passage that crashes:
 * {@code recovery.replayed:1000} halts the process at the 1,000th time the
 * point {@code recovery.replayed} is reached; {@code log.segment-created}
 * (no number) halts at the first. The process then prints one line naming
 * the point to standard error and halts with {@link #EXIT_CODE} without
 * running shutdown hooks or flushing anything else, as {@code kill -9}
 * would. Without the variable, {@link #reach} is a read of a final field
 * and a comparison.
 *
 * <p>Thread-safe: a point may be reached from any thread; exactly one
 * passage halts.
 */
public final class CrashPoint {
  /** The exit code of a process halted at a crash point. */
  public static final int EXIT_CODE = 99;

  /** The variable that arms a point. */
  public static final String VARIABLE = "PARTITA_CRASH_AT";

  private static final String ARMED_NAME;
  private static final int ARMED_PASSAGE;
  private static final AtomicInteger PASSAGES = new AtomicInteger();

  static {
    final String armed = System.getenv(VARIABLE);
    if (armed == null || armed.isBlank()) {
      ARMED_NAME = null;
      ARMED_PASSAGE = 0;
    } else {
      final int colon = armed.lastIndexOf(':');
      ARMED_NAME = colon < 0 ? armed.strip() : armed.substring(0, colon).strip();
      ARMED_PASSAGE = colon < 0 ? 1 : parsePassage(armed.substring(colon + 1));
    }
  }

  private CrashPoint() {}

  /** Halts the process if {@code name} is the armed point and this is the armed passage; otherwise returns. */
  public static void reach(String name) {
    if (ARMED_NAME != null && ARMED_NAME.equals(name) && PASSAGES.incrementAndGet() == ARMED_PASSAGE) {
      System.err.println("partita: crash point " + name + " reached (" + VARIABLE + "); halting");
      System.err.flush();
      Runtime.getRuntime().halt(EXIT_CODE);
    }
  }

  private static int parsePassage(String text) {
    try {
      final int passage = Integer.parseInt(text.strip());
      if (passage < 1) {
        throw new NumberFormatException();
      }
      return passage;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(VARIABLE + ": the passage after ':' must be a positive integer, not '"
          + text + "'");
    }
  }
}
