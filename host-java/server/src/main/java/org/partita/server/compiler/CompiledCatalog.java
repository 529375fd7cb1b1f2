package org.partita.server.compiler;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.partita.proto.Catalog;
import org.partita.server.catalog.Schema;
import org.partita.server.security.Role;

/**
 * The output of the catalog compiler: the schema, the procedures and the
 * engine catalog (tables and every plan) that each partition loads.
 * Immutable. {@code procedures} is ordered and looked up case-insensitively
 * (built with {@code String.CASE_INSENSITIVE_ORDER}), so a call allocates nothing to find one.
 * {@code roles} holds the built-in roles and those of CREATE ROLE, by lower-case name, with their
 * grants (docs/security.md).
 */
public record CompiledCatalog(Schema schema, Map<String, CompiledProcedure> procedures,
                              List<ProcedureDeclaration> declarations, Catalog engineCatalog, ClassLoader classLoader,
                              Map<String, Role> roles) {

  /** A catalog with only the built-in roles. */
  public CompiledCatalog(Schema schema, Map<String, CompiledProcedure> procedures,
      List<ProcedureDeclaration> declarations, Catalog engineCatalog, ClassLoader classLoader) {
    this(schema, procedures, declarations, engineCatalog, classLoader, RoleEditor.builtIns());
  }

  /** The procedure called {@code name} (case-insensitive). */
  public Optional<CompiledProcedure> procedure(String name) {
    return Optional.ofNullable(procedures.get(name));
  }
}
