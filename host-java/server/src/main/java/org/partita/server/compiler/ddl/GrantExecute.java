package org.partita.server.compiler.ddl;

import java.util.List;
import java.util.Objects;

/**
 * {@code GRANT EXECUTE ON [PROCEDURE] procedure TO role [, role...]}, or with {@code grant} false
 * {@code REVOKE EXECUTE ON [PROCEDURE] procedure FROM role [, role...]} (docs/security.md).
 */
public record GrantExecute(boolean grant, Identifier procedure, List<Identifier> roles, SourcePosition position)
    implements PartitaStatement {

  /** REQUIRES: no argument is null; {@code roles} is not empty. */
  public GrantExecute {
    Objects.requireNonNull(procedure, "procedure");
    roles = List.copyOf(roles);
    Objects.requireNonNull(position, "position");
  }
}
