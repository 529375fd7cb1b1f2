package org.partita.server.planner;

import java.util.List;
import java.util.Locale;
import net.sf.jsqlparser.statement.create.table.ColDataType;
import org.partita.proto.ValueType;

/**
 * A SQL type name as written in DDL or CAST, resolved to a Partita type.
 *
 * @param type the value type
 * @param maxLength VARCHAR characters / VARBINARY bytes; 0 for other types
 */
public record TypeSpec(ValueType type, int maxLength) {
  /** VARCHAR without a length. */
  public static final int DEFAULT_VARCHAR_LENGTH = 1 << 20;
  /** The longest VARCHAR or VARBINARY: 1 MiB. */
  public static final int MAX_LENGTH = 1 << 20;

  public static TypeSpec of(ColDataType data) throws PlanningException {
    final String name = data.getDataType().toUpperCase(Locale.ROOT).trim();
    final List<String> args = data.getArgumentsStringList();
    return switch (name) {
      case "TINYINT" -> fixed(ValueType.VALUE_TYPE_TINYINT, name, args);
      case "SMALLINT" -> fixed(ValueType.VALUE_TYPE_SMALLINT, name, args);
      case "INTEGER", "INT" -> fixed(ValueType.VALUE_TYPE_INTEGER, name, args);
      case "BIGINT" -> fixed(ValueType.VALUE_TYPE_BIGINT, name, args);
      case "FLOAT", "DOUBLE", "REAL", "DOUBLE PRECISION" -> new TypeSpec(ValueType.VALUE_TYPE_FLOAT, 0);
      case "DECIMAL", "NUMERIC" -> new TypeSpec(ValueType.VALUE_TYPE_DECIMAL, 0);
      case "TIMESTAMP" -> fixed(ValueType.VALUE_TYPE_TIMESTAMP, name, args);
      case "VARCHAR", "TEXT", "CHAR", "CHARACTER VARYING", "STRING" ->
          sized(ValueType.VALUE_TYPE_VARCHAR, name, args, DEFAULT_VARCHAR_LENGTH);
      case "VARBINARY", "BLOB", "BINARY" -> sized(ValueType.VALUE_TYPE_VARBINARY, name, args, MAX_LENGTH);
      default -> throw new PlanningException("unknown type " + data + "; types are TINYINT, SMALLINT, INTEGER, "
          + "BIGINT, FLOAT, DECIMAL, VARCHAR(n), VARBINARY(n), TIMESTAMP");
    };
  }

  private static TypeSpec fixed(ValueType type, String name, List<String> args) throws PlanningException {
    if (args != null && !args.isEmpty()) {
      throw new PlanningException(name + " takes no length: " + name + "(" + String.join(", ", args) + ")");
    }
    return new TypeSpec(type, 0);
  }

  private static TypeSpec sized(ValueType type, String name, List<String> args, int defaultLength)
      throws PlanningException {
    if (args == null || args.isEmpty()) {
      return new TypeSpec(type, defaultLength);
    }
    if (args.size() != 1) {
      throw new PlanningException(name + " takes one length, found " + args);
    }
    final String text = args.get(0).trim().toUpperCase(Locale.ROOT);
    final String digits = text.endsWith(" BYTES") ? text.substring(0, text.length() - 6).trim() : text;
    final int length;
    try {
      length = Integer.parseInt(digits);
    } catch (NumberFormatException e) {
      throw new PlanningException(name + " length must be a positive integer, found '" + args.get(0) + "'");
    }
    if (length <= 0 || length > MAX_LENGTH) {
      throw new PlanningException(name + " length must be between 1 and " + MAX_LENGTH + ", found " + length);
    }
    return new TypeSpec(type, length);
  }
}
