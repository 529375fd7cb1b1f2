package org.partita.server.compiler.ddl;

import java.util.Objects;
import java.util.Optional;

/**
 * {@code CREATE PROCEDURE [PARTITION ON ...] FROM CLASS a.b.C}: a Java stored procedure. It is
 * named after the class's simple name ({@code C}); the statement accepts no other name.
 *
 * @param className the fully qualified class name, exactly as written
 */
public record CreateProcedureFromClass(
    Identifier className, Optional<ProcedurePartitioning> partitioning, SourcePosition position)
    implements PartitaStatement {

  /** REQUIRES: no argument is null. */
  public CreateProcedureFromClass {
    Objects.requireNonNull(className, "className");
    Objects.requireNonNull(partitioning, "partitioning");
    Objects.requireNonNull(position, "position");
  }

  /** The procedure's name: the class name after its last dot, case kept. */
  public String procedureName() {
    final String name = className.name();
    return name.substring(name.lastIndexOf('.') + 1);
  }
}
