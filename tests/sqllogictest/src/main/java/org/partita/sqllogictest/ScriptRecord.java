package org.partita.sqllogictest;

import java.util.List;

/**
 * One record of a sqllogictest script, as {@link ScriptParser} reads it. Every record carries the
 * location of its header line and the {@code skipif}/{@code onlyif} conditions written before it;
 * the runner, not the parser, decides whether the conditions let it run.
 */
public sealed interface ScriptRecord {

  /** Where the record's header line is. */
  Location location();

  /** The conditions written before the record, in file order; empty when there are none. */
  List<Condition> conditions();

  /**
   * {@code statement ok} or {@code statement error}: run {@code sql} and expect success or an error.
   * {@code expectedError} is null, or text that the engine's error message must contain (written
   * after {@code statement error} on the header line, or under a {@code ----} line).
   */
  record Statement(
      Location location,
      List<Condition> conditions,
      String sql,
      boolean expectError,
      String expectedError)
      implements ScriptRecord {
    public Statement {
      conditions = List.copyOf(conditions);
    }
  }

  /**
   * {@code query <types> [sort mode] [label]}: run {@code sql} and compare its formatted values.
   * {@code types} holds one letter per column ({@code I}, {@code R} or {@code T}); {@code label}
   * is null when the header names none.
   */
  record Query(
      Location location,
      List<Condition> conditions,
      String types,
      SortMode sortMode,
      String label,
      String sql,
      ExpectedResult expected)
      implements ScriptRecord {
    public Query {
      conditions = List.copyOf(conditions);
    }
  }

  /** {@code hash-threshold N}: results with more than N values are written as a hash from here on. */
  record HashThreshold(Location location, List<Condition> conditions, int threshold)
      implements ScriptRecord {
    public HashThreshold {
      conditions = List.copyOf(conditions);
    }
  }

  /** {@code halt}: stop running the script (usually guarded, e.g. {@code onlyif mssql}). */
  record Halt(Location location, List<Condition> conditions) implements ScriptRecord {
    public Halt {
      conditions = List.copyOf(conditions);
    }
  }

  /** A record the parser could not read; the runner counts it as a failure. */
  record Malformed(Location location, List<Condition> conditions, String problem)
      implements ScriptRecord {
    public Malformed {
      conditions = List.copyOf(conditions);
    }
  }
}
