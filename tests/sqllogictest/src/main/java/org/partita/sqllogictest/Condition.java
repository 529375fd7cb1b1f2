package org.partita.sqllogictest;

import java.util.List;

/**
 * A {@code skipif <engine>} or {@code onlyif <engine>} line that precedes a record. Engine names are
 * compared ignoring case, as the reference runner does; anything after the engine name on the line
 * (the corpus writes {@code skipif mysql # reason}) is a comment.
 */
public record Condition(Kind kind, String engine) {

  /** The two condition keywords. */
  public enum Kind {
    /** {@code skipif X}: the record is skipped on engine X and runs everywhere else. */
    SKIPIF,
    /** {@code onlyif X}: the record runs on engine X only. */
    ONLYIF
  }

  /** Returns true iff this condition lets its record run on the engine named {@code engineName}. */
  public boolean allows(String engineName) {
    final boolean match = engine.equalsIgnoreCase(engineName);
    return kind == Kind.SKIPIF ? !match : match;
  }

  /** Returns true iff every condition in {@code conditions} lets its record run on {@code engineName}. */
  public static boolean allAllow(List<Condition> conditions, String engineName) {
    for (final Condition condition : conditions) {
      if (!condition.allows(engineName)) {
        return false;
      }
    }
    return true;
  }
}
