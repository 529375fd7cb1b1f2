package org.partita.server.compiler.ddl;

import java.util.List;
import java.util.Objects;

/**
 * {@code CREATE ROLE name [WITH permission, ...]}: a role for users to hold (docs/security.md);
 * the permission names are checked by the compiler.
 */
public record CreateRole(Identifier name, List<Identifier> permissions, SourcePosition position)
    implements PartitaStatement {

  /** REQUIRES: no argument is null. */
  public CreateRole {
    Objects.requireNonNull(name, "name");
    permissions = List.copyOf(permissions);
    Objects.requireNonNull(position, "position");
  }
}
