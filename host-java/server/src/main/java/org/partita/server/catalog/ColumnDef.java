package org.partita.server.catalog;

import org.partita.proto.Column;
import org.partita.proto.Value;
import org.partita.proto.ValueType;

/**
 * A column of a table or view.
 *
 * @param name upper-case name (exact when it was quoted)
 * @param type the column's type
 * @param maxLength VARCHAR characters or VARBINARY bytes; 0 for other types
 * @param nullable whether NULL is allowed
 * @param defaultValue the DEFAULT, or null for none (NULL)
 */
public record ColumnDef(String name, ValueType type, int maxLength, boolean nullable, Value defaultValue) {

  public Column toProto() {
    final Column.Builder column =
        Column.newBuilder().setName(name).setType(type).setMaxLength(maxLength).setNullable(nullable);
    if (defaultValue != null) {
      column.setDefaultValue(defaultValue);
    }
    return column.build();
  }

  /** The type as SQL text: {@code VARCHAR(32)}, {@code BIGINT}. */
  public String typeText() {
    final String base = type.name().substring("VALUE_TYPE_".length());
    return maxLength > 0 ? base + "(" + maxLength + ")" : base;
  }
}
