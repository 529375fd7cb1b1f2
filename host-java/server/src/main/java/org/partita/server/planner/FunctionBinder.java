package org.partita.server.planner;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import net.sf.jsqlparser.expression.ExtractExpression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.TimeKeyExpression;
import org.partita.proto.Expression;
import org.partita.proto.ValueType;

/** Binds scalar function calls (docs/sql.md, "Functions"). */
public final class FunctionBinder {
  private FunctionBinder() {}

  /** COUNT(*), however the parser spelled it. */
  public static boolean isStar(Function f) {
    return f.isAllColumns() || (f.getParameters() != null && f.getParameters().size() == 1
        && f.getParameters().get(0) instanceof net.sf.jsqlparser.statement.select.AllColumns);
  }

  static boolean isAggregate(Function f) {
    return AggregateFinder.isAggregateName(f.getName())
        && (f.isAllColumns() || f.getParameters() == null || f.getParameters().size() == 1);
  }

  static Expression bind(ExpressionBinder binder, Function f, ValueType hint) throws PlanningException {
    final String name = f.getName().toUpperCase(Locale.ROOT);
    if (isAggregate(f)) {
      throw new PlanningException("aggregate " + f + " is not allowed here (WHERE, ON, GROUP BY, or a statement"
          + " without aggregation context)");
    }
    final List<net.sf.jsqlparser.expression.Expression> argText =
        f.getParameters() == null ? List.of() : new ArrayList<>(f.getParameters());
    return switch (name) {
      case "ABS" -> {
        final Expression x = one(binder, f, argText, hint);
        requireNumeric(x, f);
        yield ExpressionBinder.function(org.partita.proto.Function.FUNCTION_ABS, x.getValueType(), List.of(x));
      }
      case "COALESCE", "IFNULL" -> coalesce(binder, f, argText, hint);
      case "NULLIF" -> {
        arity(f, argText, 2, 2);
        final Expression[] pair = binder.bindPair(argText.get(0), argText.get(1), hint);
        ExpressionBinder.coerceComparable(pair[0], pair[1], f.toString());
        yield ExpressionBinder.function(
            org.partita.proto.Function.FUNCTION_NULLIF, pair[0].getValueType(), List.of(pair[0], pair[1]));
      }
      case "CHAR_LENGTH", "CHARACTER_LENGTH", "LENGTH" ->
          ExpressionBinder.function(org.partita.proto.Function.FUNCTION_CHAR_LENGTH, ValueType.VALUE_TYPE_BIGINT,
              List.of(text(one(binder, f, argText, ValueType.VALUE_TYPE_VARCHAR), f, true)));
      case "OCTET_LENGTH" ->
          ExpressionBinder.function(org.partita.proto.Function.FUNCTION_OCTET_LENGTH, ValueType.VALUE_TYPE_BIGINT,
              List.of(text(one(binder, f, argText, ValueType.VALUE_TYPE_VARCHAR), f, true)));
      case "SUBSTRING", "SUBSTR" -> substring(binder, f, argText);
      case "UPPER", "UCASE" -> stringFunction(binder, f, argText, org.partita.proto.Function.FUNCTION_UPPER);
      case "LOWER", "LCASE" -> stringFunction(binder, f, argText, org.partita.proto.Function.FUNCTION_LOWER);
      case "TRIM" -> stringFunction(binder, f, argText, org.partita.proto.Function.FUNCTION_TRIM);
      case "LTRIM" -> stringFunction(binder, f, argText, org.partita.proto.Function.FUNCTION_LTRIM);
      case "RTRIM" -> stringFunction(binder, f, argText, org.partita.proto.Function.FUNCTION_RTRIM);
      case "CONCAT" -> {
        arity(f, argText, 1, Integer.MAX_VALUE);
        final List<Expression> args = new ArrayList<>();
        for (net.sf.jsqlparser.expression.Expression a : argText) {
          args.add(text(binder.bind(a, ValueType.VALUE_TYPE_VARCHAR), f, false));
        }
        yield ExpressionBinder.function(org.partita.proto.Function.FUNCTION_CONCAT, ValueType.VALUE_TYPE_VARCHAR, args);
      }
      case "MOD" -> {
        arity(f, argText, 2, 2);
        final Expression[] pair = binder.bindPair(argText.get(0), argText.get(1), ValueType.VALUE_TYPE_BIGINT);
        for (Expression x : pair) {
          if (!TypeRules.isInteger(x.getValueType()) && !TypeRules.isNull(x.getValueType())) {
            throw new PlanningException("MOD needs integers: " + f);
          }
        }
        yield ExpressionBinder.function(
            org.partita.proto.Function.FUNCTION_MOD, ValueType.VALUE_TYPE_BIGINT, List.of(pair[0], pair[1]));
      }
      case "NOW", "CURRENT_TIMESTAMP" -> {
        arity(f, argText, 0, 0);
        yield currentTimestamp();
      }
      case "TO_TIMESTAMP" -> unitFunction(binder, f, argText, true);
      case "SINCE_EPOCH" -> unitFunction(binder, f, argText, false);
      case "TRUNCATE" -> truncate(binder, f, argText);
      default -> throw new PlanningException("unknown function " + f.getName() + " in " + f);
    };
  }

  static Expression timeKey(TimeKeyExpression t) throws PlanningException {
    final String key = t.getStringValue().toUpperCase(Locale.ROOT);
    if (key.startsWith("CURRENT_TIMESTAMP") || key.equals("NOW()")) {
      return currentTimestamp();
    }
    throw new PlanningException("unsupported time keyword " + t.getStringValue());
  }

  private static Expression currentTimestamp() {
    return ExpressionBinder.function(
        org.partita.proto.Function.FUNCTION_CURRENT_TIMESTAMP, ValueType.VALUE_TYPE_TIMESTAMP, List.of());
  }

  static Expression extract(ExpressionBinder binder, ExtractExpression x) throws PlanningException {
    final Expression value = binder.bind(x.getExpression(), ValueType.VALUE_TYPE_TIMESTAMP);
    if (value.getValueType() != ValueType.VALUE_TYPE_TIMESTAMP && !TypeRules.isNull(value.getValueType())) {
      throw new PlanningException("EXTRACT needs a TIMESTAMP: " + x);
    }
    final org.partita.proto.Function function = switch (x.getName().toUpperCase(Locale.ROOT)) {
      case "YEAR" -> org.partita.proto.Function.FUNCTION_EXTRACT_YEAR;
      case "MONTH" -> org.partita.proto.Function.FUNCTION_EXTRACT_MONTH;
      case "DAY" -> org.partita.proto.Function.FUNCTION_EXTRACT_DAY;
      case "HOUR" -> org.partita.proto.Function.FUNCTION_EXTRACT_HOUR;
      case "MINUTE" -> org.partita.proto.Function.FUNCTION_EXTRACT_MINUTE;
      case "SECOND" -> org.partita.proto.Function.FUNCTION_EXTRACT_SECOND;
      case "DAY_OF_WEEK", "DOW" -> org.partita.proto.Function.FUNCTION_EXTRACT_DAY_OF_WEEK;
      case "DAY_OF_YEAR", "DOY" -> org.partita.proto.Function.FUNCTION_EXTRACT_DAY_OF_YEAR;
      default -> throw new PlanningException("EXTRACT of " + x.getName() + " is not supported");
    };
    return ExpressionBinder.function(function, ValueType.VALUE_TYPE_BIGINT, List.of(value));
  }

  private static Expression coalesce(ExpressionBinder binder, Function f,
      List<net.sf.jsqlparser.expression.Expression> argText, ValueType hint) throws PlanningException {
    arity(f, argText, 1, Integer.MAX_VALUE);
    final List<Expression> args = new ArrayList<>();
    ValueType type = ValueType.VALUE_TYPE_NULL;
    for (net.sf.jsqlparser.expression.Expression a : argText) {
      final Expression bound = binder.bind(a, TypeRules.isNull(type) ? hint : type);
      type = TypeRules.common(type, bound.getValueType(), f.getName());
      args.add(bound);
    }
    return ExpressionBinder.function(org.partita.proto.Function.FUNCTION_COALESCE,
        TypeRules.isNull(type) ? ValueType.VALUE_TYPE_BIGINT : type, args);
  }

  private static Expression substring(ExpressionBinder binder, Function f,
      List<net.sf.jsqlparser.expression.Expression> argText) throws PlanningException {
    arity(f, argText, 2, 3);
    final List<Expression> args = new ArrayList<>();
    args.add(text(binder.bind(argText.get(0), ValueType.VALUE_TYPE_VARCHAR), f, false));
    for (int i = 1; i < argText.size(); i++) {
      final Expression n = binder.bind(argText.get(i), ValueType.VALUE_TYPE_BIGINT);
      if (!TypeRules.isInteger(n.getValueType()) && !TypeRules.isNull(n.getValueType())) {
        throw new PlanningException("SUBSTRING positions must be integers: " + f);
      }
      args.add(n);
    }
    return ExpressionBinder.function(org.partita.proto.Function.FUNCTION_SUBSTRING, ValueType.VALUE_TYPE_VARCHAR, args);
  }

  private static Expression stringFunction(ExpressionBinder binder, Function f,
      List<net.sf.jsqlparser.expression.Expression> argText, org.partita.proto.Function function)
      throws PlanningException {
    final Expression s = text(one(binder, f, argText, ValueType.VALUE_TYPE_VARCHAR), f, false);
    return ExpressionBinder.function(function, ValueType.VALUE_TYPE_VARCHAR, List.of(s));
  }

  private static Expression unitFunction(ExpressionBinder binder, Function f,
      List<net.sf.jsqlparser.expression.Expression> argText, boolean toTimestamp) throws PlanningException {
    arity(f, argText, 2, 2);
    final String unit = argText.get(0).toString().toUpperCase(Locale.ROOT);
    final Expression value = binder.bind(argText.get(1),
        toTimestamp ? ValueType.VALUE_TYPE_BIGINT : ValueType.VALUE_TYPE_TIMESTAMP);
    final org.partita.proto.Function function = switch (unit) {
      case "SECOND" -> toTimestamp ? org.partita.proto.Function.FUNCTION_TO_TIMESTAMP_SECONDS
          : org.partita.proto.Function.FUNCTION_SINCE_EPOCH_SECONDS;
      case "MILLIS", "MILLISECOND" -> toTimestamp ? org.partita.proto.Function.FUNCTION_TO_TIMESTAMP_MILLIS
          : org.partita.proto.Function.FUNCTION_SINCE_EPOCH_MILLIS;
      case "MICROS", "MICROSECOND" -> toTimestamp ? org.partita.proto.Function.FUNCTION_TO_TIMESTAMP_MICROS
          : org.partita.proto.Function.FUNCTION_SINCE_EPOCH_MICROS;
      default -> throw new PlanningException(f.getName() + " unit must be SECOND, MILLIS or MICROS: " + f);
    };
    return ExpressionBinder.function(function,
        toTimestamp ? ValueType.VALUE_TYPE_TIMESTAMP : ValueType.VALUE_TYPE_BIGINT, List.of(value));
  }

  private static Expression truncate(ExpressionBinder binder, Function f,
      List<net.sf.jsqlparser.expression.Expression> argText) throws PlanningException {
    arity(f, argText, 2, 2);
    final String unit = argText.get(0).toString().toUpperCase(Locale.ROOT);
    final Expression value = binder.bind(argText.get(1), ValueType.VALUE_TYPE_TIMESTAMP);
    final org.partita.proto.Function function = switch (unit) {
      case "DAY" -> org.partita.proto.Function.FUNCTION_TRUNCATE_DAY;
      case "HOUR" -> org.partita.proto.Function.FUNCTION_TRUNCATE_HOUR;
      case "MINUTE" -> org.partita.proto.Function.FUNCTION_TRUNCATE_MINUTE;
      default -> throw new PlanningException("TRUNCATE unit must be DAY, HOUR or MINUTE: " + f);
    };
    return ExpressionBinder.function(function, ValueType.VALUE_TYPE_TIMESTAMP, List.of(value));
  }

  private static Expression one(ExpressionBinder binder, Function f,
      List<net.sf.jsqlparser.expression.Expression> argText, ValueType hint) throws PlanningException {
    arity(f, argText, 1, 1);
    return binder.bind(argText.get(0), hint);
  }

  private static void arity(Function f, List<?> args, int min, int max) throws PlanningException {
    if (args.size() < min || args.size() > max) {
      final String expected = min == max ? String.valueOf(min) : max == Integer.MAX_VALUE ? min + " or more"
          : min + " to " + max;
      throw new PlanningException(f.getName() + " takes " + expected + " argument(s), found " + args.size() + ": " + f);
    }
  }

  private static void requireNumeric(Expression x, Function f) throws PlanningException {
    if (!TypeRules.isNumeric(x.getValueType()) && !TypeRules.isNull(x.getValueType())) {
      throw new PlanningException(f.getName() + " needs a number: " + f);
    }
  }

  private static Expression text(Expression x, Function f, boolean bytesToo) throws PlanningException {
    final ValueType t = x.getValueType();
    if (t == ValueType.VALUE_TYPE_VARCHAR || TypeRules.isNull(t) || (bytesToo && t == ValueType.VALUE_TYPE_VARBINARY)) {
      return x;
    }
    throw new PlanningException(f.getName() + " needs text, found " + TypeRules.name(t) + ": " + f);
  }
}
