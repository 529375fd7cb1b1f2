package org.partita.server.compiler.ddl;

import java.util.Objects;

/**
 * {@code PARTITION TABLE table ON COLUMN column}: rows of {@code table} are spread over the
 * partitions by the hash of {@code column}. A table never partitioned is replicated.
 */
public record PartitionTable(Identifier table, Identifier column, SourcePosition position)
    implements PartitaStatement {

  /** REQUIRES: no argument is null. */
  public PartitionTable {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(column, "column");
    Objects.requireNonNull(position, "position");
  }
}
