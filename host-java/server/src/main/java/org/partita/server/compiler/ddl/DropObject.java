package org.partita.server.compiler.ddl;

import java.util.Objects;

/**
 * {@code DROP TABLE|INDEX|VIEW|PROCEDURE|ROLE name}, optionally with {@code IF EXISTS}, which makes
 * dropping a missing object a no-op instead of an error.
 */
public record DropObject(Kind kind, Identifier name, boolean ifExists, SourcePosition position)
    implements PartitaStatement {

  /** The kinds of schema object DROP removes. */
  public enum Kind {
    TABLE,
    INDEX,
    VIEW,
    PROCEDURE,
    ROLE
  }

  /** REQUIRES: no argument is null. */
  public DropObject {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(position, "position");
  }
}
