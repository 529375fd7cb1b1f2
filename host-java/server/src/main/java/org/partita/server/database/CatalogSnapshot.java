package org.partita.server.database;

import org.partita.server.compiler.CompiledCatalog;

/**
 * A catalog with its version: 1 when the database opens, one more for each
 * schema change that commits. Work items carry the version they were
 * admitted under; each site holds the snapshot its engine runs, so a call
 * is always resolved against the catalog of the partition that executes it.
 * Immutable.
 */
record CatalogSnapshot(CompiledCatalog catalog, long version) {}
