package org.partita.server.compiler.ddl;

import java.util.Objects;
import java.util.Optional;

/**
 * {@code CREATE PROCEDURE name [PARTITION ON ...] AS sql}: a procedure made of one SQL statement,
 * whose {@code ?} placeholders are its parameters.
 *
 * @param body the SQL statement, as a statement of its own: {@code body.text()} is the SQL, and
 *     {@code body.positionOf(line, column)} maps a parser's error inside the SQL to the file
 */
public record CreateProcedureAs(
    Identifier name,
    Optional<ProcedurePartitioning> partitioning,
    ScriptStatement body,
    SourcePosition position)
    implements PartitaStatement {

  /** REQUIRES: no argument is null. */
  public CreateProcedureAs {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(partitioning, "partitioning");
    Objects.requireNonNull(body, "body");
    Objects.requireNonNull(position, "position");
  }

  /** The SQL text of the body. */
  public String sql() {
    return body.text();
  }
}
