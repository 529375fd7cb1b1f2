package org.partita.server.compiler;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.partita.proto.Catalog;
import org.partita.server.catalog.Schema;

/**
 * The output of the catalog compiler: the schema, the procedures and the
 * engine catalog (tables and every plan) that each partition loads.
 * Immutable. Procedures are keyed by upper-case name.
 */
public record CompiledCatalog(Schema schema, Map<String, CompiledProcedure> procedures,
                              List<ProcedureDeclaration> declarations, Catalog engineCatalog, ClassLoader classLoader) {

  /** The procedure called {@code name} (case-insensitive). */
  public Optional<CompiledProcedure> procedure(String name) {
    return Optional.ofNullable(procedures.get(name.toUpperCase(java.util.Locale.ROOT)));
  }
}
