package org.partita.server.planner;

import org.partita.proto.ValueType;

/**
 * Result types of SQL operators (docs/sql.md, "Types"). Integer arithmetic is
 * done in BIGINT, any FLOAT operand makes it FLOAT, else any DECIMAL makes it
 * DECIMAL; overflow is an error at run time, never a wrap.
 */
final class TypeRules {
  private TypeRules() {}

  static boolean isInteger(ValueType t) {
    return t == ValueType.VALUE_TYPE_TINYINT
        || t == ValueType.VALUE_TYPE_SMALLINT
        || t == ValueType.VALUE_TYPE_INTEGER
        || t == ValueType.VALUE_TYPE_BIGINT;
  }

  static boolean isNumeric(ValueType t) {
    return isInteger(t) || t == ValueType.VALUE_TYPE_FLOAT || t == ValueType.VALUE_TYPE_DECIMAL;
  }

  static boolean isNull(ValueType t) {
    return t == ValueType.VALUE_TYPE_NULL || t == ValueType.VALUE_TYPE_UNSPECIFIED;
  }

  static boolean isString(ValueType t) {
    return t == ValueType.VALUE_TYPE_VARCHAR;
  }

  static String name(ValueType t) {
    return t.name().substring("VALUE_TYPE_".length());
  }

  /** The type of {@code a op b} for + - * / %. */
  static ValueType arithmetic(ValueType a, ValueType b, String operator) throws PlanningException {
    if (isNull(a) && isNull(b)) {
      return ValueType.VALUE_TYPE_BIGINT;
    }
    final ValueType x = isNull(a) ? b : a;
    final ValueType y = isNull(b) ? a : b;
    if (!isNumeric(x) || !isNumeric(y)) {
      throw new PlanningException(
          "operator " + operator + " needs numbers, found " + name(a) + " and " + name(b));
    }
    if (x == ValueType.VALUE_TYPE_FLOAT || y == ValueType.VALUE_TYPE_FLOAT) {
      return ValueType.VALUE_TYPE_FLOAT;
    }
    if (x == ValueType.VALUE_TYPE_DECIMAL || y == ValueType.VALUE_TYPE_DECIMAL) {
      return ValueType.VALUE_TYPE_DECIMAL;
    }
    return ValueType.VALUE_TYPE_BIGINT;
  }

  /** Whether values of the two types can be compared. */
  static boolean comparable(ValueType a, ValueType b) {
    if (isNull(a) || isNull(b) || a == b) {
      return true;
    }
    return isNumeric(a) && isNumeric(b);
  }

  /**
   * The common type of CASE branches, COALESCE arguments and UNION columns:
   * the wider integer, FLOAT over DECIMAL over integers, or the shared type.
   */
  static ValueType common(ValueType a, ValueType b, String where) throws PlanningException {
    if (isNull(a)) {
      return b;
    }
    if (isNull(b) || a == b) {
      return a;
    }
    if (isNumeric(a) && isNumeric(b)) {
      if (a == ValueType.VALUE_TYPE_FLOAT || b == ValueType.VALUE_TYPE_FLOAT) {
        return ValueType.VALUE_TYPE_FLOAT;
      }
      if (a == ValueType.VALUE_TYPE_DECIMAL || b == ValueType.VALUE_TYPE_DECIMAL) {
        return ValueType.VALUE_TYPE_DECIMAL;
      }
      return a.getNumber() > b.getNumber() ? a : b;
    }
    throw new PlanningException(where + " mixes " + name(a) + " and " + name(b));
  }

  /** The type SUM produces over {@code t}. */
  static ValueType sum(ValueType t) throws PlanningException {
    if (isInteger(t) || isNull(t)) {
      return ValueType.VALUE_TYPE_BIGINT;
    }
    if (t == ValueType.VALUE_TYPE_FLOAT || t == ValueType.VALUE_TYPE_DECIMAL) {
      return t;
    }
    throw new PlanningException("SUM and AVG need numbers, found " + name(t));
  }

  /** The type AVG produces: DECIMAL for integers and DECIMAL, FLOAT for FLOAT. */
  static ValueType avg(ValueType t) throws PlanningException {
    final ValueType sum = sum(t);
    return sum == ValueType.VALUE_TYPE_FLOAT ? sum : ValueType.VALUE_TYPE_DECIMAL;
  }
}
