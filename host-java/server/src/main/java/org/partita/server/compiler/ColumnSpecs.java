package org.partita.server.compiler;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import org.partita.proto.Value;
import org.partita.proto.ValueType;
import org.partita.server.planner.PlanningException;
import org.partita.server.planner.TypeSpec;

/**
 * The constraints written after a column's type: [NOT] NULL, DEFAULT literal,
 * PRIMARY KEY, UNIQUE, [CONSTRAINT name]. A DEFAULT must be a literal that
 * fits the column exactly.
 */
record ColumnSpecs(boolean nullable, Value defaultValue, boolean primaryKey, boolean unique, String constraintName) {

  static ColumnSpecs parse(String table, String column, List<String> specs, TypeSpec type) throws PlanningException {
    boolean nullable = true;
    Value defaultValue = null;
    boolean primaryKey = false;
    boolean unique = false;
    String constraint = "";
    final String where = "column " + table + "." + column;
    final List<String> words = specs == null ? List.of() : specs;
    for (int i = 0; i < words.size(); i++) {
      final String word = words.get(i).toUpperCase(Locale.ROOT);
      switch (word) {
        case "NOT" -> {
          expect(words, ++i, "NULL", where);
          nullable = false;
        }
        case "NULL" -> nullable = true;
        case "PRIMARY" -> {
          expect(words, ++i, "KEY", where);
          primaryKey = true;
        }
        case "UNIQUE" -> unique = true;
        case "CONSTRAINT" -> {
          if (i + 1 >= words.size()) {
            throw new PlanningException(where + ": CONSTRAINT needs a name");
          }
          constraint = org.partita.server.planner.Names.normalize(words.get(++i));
        }
        case "DEFAULT" -> {
          if (i + 1 >= words.size()) {
            throw new PlanningException(where + ": DEFAULT needs a value");
          }
          String literal = words.get(++i);
          if ((literal.equals("-") || literal.equals("+")) && i + 1 < words.size()) {
            literal = literal + words.get(++i);
          }
          defaultValue = literal(literal, type, where);
        }
        default -> throw new PlanningException(where + ": unsupported column option '" + words.get(i) + "'");
      }
    }
    return new ColumnSpecs(nullable, defaultValue, primaryKey, unique, constraint);
  }

  private static void expect(List<String> words, int i, String word, String where) throws PlanningException {
    if (i >= words.size() || !words.get(i).equalsIgnoreCase(word)) {
      throw new PlanningException(where + ": expected " + word + " after " + words.get(i - 1));
    }
  }

  /** The DEFAULT literal as a value of the column's type. */
  static Value literal(String text, TypeSpec type, String where) throws PlanningException {
    if (text.equalsIgnoreCase("NULL")) {
      return null;
    }
    final boolean quoted = text.length() >= 2 && text.startsWith("'") && text.endsWith("'");
    final String body = quoted ? text.substring(1, text.length() - 1).replace("''", "'") : text;
    final Value.Builder v = Value.newBuilder().setType(type.type());
    try {
      switch (type.type()) {
        case VALUE_TYPE_TINYINT, VALUE_TYPE_SMALLINT, VALUE_TYPE_INTEGER, VALUE_TYPE_BIGINT -> {
          final BigInteger n = new BigDecimal(body).toBigIntegerExact();
          if (n.bitLength() > bits(type.type()) - 1) {
            throw new PlanningException(where + ": DEFAULT " + text + " is out of range");
          }
          v.setIntValue(n.longValue());
        }
        case VALUE_TYPE_FLOAT -> v.setFloatValue(Double.parseDouble(body));
        case VALUE_TYPE_DECIMAL -> v.setDecimalValue(new BigDecimal(body).toPlainString());
        case VALUE_TYPE_VARCHAR -> {
          if (!quoted) {
            throw new PlanningException(where + ": DEFAULT for VARCHAR must be a quoted string, found " + text);
          }
          if (body.codePointCount(0, body.length()) > type.maxLength()) {
            throw new PlanningException(where + ": DEFAULT '" + body + "' is longer than " + type.maxLength());
          }
          v.setStringValue(body);
        }
        case VALUE_TYPE_TIMESTAMP -> v.setIntValue(timestampMicros(body));
        default -> throw new PlanningException(where + ": DEFAULT is not supported for this type");
      }
    } catch (NumberFormatException | ArithmeticException | DateTimeParseException e) {
      throw new PlanningException(where + ": DEFAULT " + text + " is not a valid "
          + type.type().name().substring("VALUE_TYPE_".length()));
    }
    return v.build();
  }

  private static int bits(ValueType t) {
    return switch (t) {
      case VALUE_TYPE_TINYINT -> 8;
      case VALUE_TYPE_SMALLINT -> 16;
      case VALUE_TYPE_INTEGER -> 32;
      default -> 64;
    };
  }

  private static long timestampMicros(String text) {
    final LocalDateTime t = LocalDateTime.parse(text.trim().replace(' ', 'T'));
    final long seconds = t.toEpochSecond(ZoneOffset.UTC);
    return Math.addExact(Math.multiplyExact(seconds, 1_000_000L), t.getNano() / 1000);
  }
}
