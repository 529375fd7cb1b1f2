package org.partita.server.compiler.ddl;

import java.util.Objects;

/**
 * The clause {@code PARTITION ON TABLE table COLUMN column [PARAMETER index]} of {@code CREATE
 * PROCEDURE}: the procedure runs on the single partition that holds the rows of {@code table}
 * whose {@code column} equals its parameter number {@code parameterIndex} (0-based, 0 when
 * omitted).
 *
 * @param position where the {@code PARTITION} keyword is
 */
public record ProcedurePartitioning(
    Identifier table, Identifier column, int parameterIndex, SourcePosition position) {

  /** REQUIRES: {@code parameterIndex >= 0}; no argument is null. */
  public ProcedurePartitioning {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(column, "column");
    Objects.requireNonNull(position, "position");
    if (parameterIndex < 0) {
      throw new IllegalArgumentException("negative parameter index " + parameterIndex);
    }
  }
}
