package org.partita.server.sysproc;

import org.partita.client.ResultTable;
import org.partita.server.compiler.CompiledCatalog;

/** One selector of {@code @SystemCatalog}: a table describing part of the current catalog. Thread-safe. */
interface CatalogSelector {
  ResultTable build(CompiledCatalog catalog);
}
