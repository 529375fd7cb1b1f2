package org.partita.server.database;

import java.util.List;
import org.partita.server.compiler.CompiledCatalog;

/**
 * The catalog a database opens with and how it came to be: the compiled
 * catalog at {@code version}, and the schema changes (DDL text, oldest
 * first) that made it from the starting schema at version 1, one per
 * version. A fresh database opens with {@link #initial}; recovery from a
 * snapshot taken after schema changes opens with the snapshot's catalog,
 * rebuilt from that history (docs/durability.md, "Snapshots"). Immutable.
 *
 * @param catalog the catalog at {@code version}
 * @param version the catalog version (1 for the starting schema)
 * @param schemaChanges the DDL that made versions 2 .. {@code version}, in order
 */
public record CatalogHistory(CompiledCatalog catalog, long version, List<String> schemaChanges) {
  public CatalogHistory {
    schemaChanges = List.copyOf(schemaChanges);
    if (version != schemaChanges.size() + 1) {
      throw new IllegalArgumentException("catalog version " + version + " needs " + (version - 1)
          + " schema change(s), got " + schemaChanges.size());
    }
  }

  /** The starting schema: version 1, no schema change. */
  public static CatalogHistory initial(CompiledCatalog catalog) {
    return new CatalogHistory(catalog, 1, List.of());
  }
}
