package org.partita.server.catalog;

import java.util.List;
import org.partita.proto.Index;
import org.partita.proto.IndexKind;

/**
 * An index of a table: hash (equality) or ordered (ranges, ORDER BY, MIN/MAX).
 *
 * @param name upper-case index name, unique within the schema
 * @param kind HASH or ORDERED
 * @param unique whether keys are unique (keys containing NULL never conflict)
 * @param columns positions of the key columns in the table, in key order
 * @param primaryKey whether this is the table's primary key
 * @param constraintName the constraint's name when declared as one, else ""
 */
public record IndexDef(
    String name, IndexKind kind, boolean unique, List<Integer> columns, boolean primaryKey, String constraintName) {

  public IndexDef {
    columns = List.copyOf(columns);
  }

  public boolean isHash() {
    return kind == IndexKind.INDEX_KIND_HASH;
  }

  public Index toProto() {
    return Index.newBuilder()
        .setName(name)
        .setKind(kind)
        .setUnique(unique)
        .addAllColumnIndexes(columns)
        .setPrimaryKey(primaryKey)
        .setConstraintName(constraintName)
        .build();
  }
}
