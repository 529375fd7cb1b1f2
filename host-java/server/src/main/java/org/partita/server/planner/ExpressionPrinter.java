package org.partita.server.planner;

import java.util.stream.Collectors;
import org.partita.proto.Expression;
import org.partita.proto.Value;

/** Renders a plan expression as SQL-like text: columns as $n, parameters as ?n. */
final class ExpressionPrinter {
  private ExpressionPrinter() {}

  static String print(Expression e) {
    return switch (e.getKind()) {
      case EXPRESSION_KIND_COLUMN -> "$" + e.getColumnIndex();
      case EXPRESSION_KIND_PARAMETER -> "?" + (e.getParameterIndex() + 1);
      case EXPRESSION_KIND_CONSTANT -> value(e.getConstant());
      case EXPRESSION_KIND_ADD -> infix(e, " + ");
      case EXPRESSION_KIND_SUBTRACT -> infix(e, " - ");
      case EXPRESSION_KIND_MULTIPLY -> infix(e, " * ");
      case EXPRESSION_KIND_DIVIDE -> infix(e, " / ");
      case EXPRESSION_KIND_MODULO -> infix(e, " % ");
      case EXPRESSION_KIND_NEGATE -> "-" + print(e.getChildren(0));
      case EXPRESSION_KIND_EQUAL -> infix(e, " = ");
      case EXPRESSION_KIND_NOT_EQUAL -> infix(e, " <> ");
      case EXPRESSION_KIND_LESS -> infix(e, " < ");
      case EXPRESSION_KIND_LESS_EQUAL -> infix(e, " <= ");
      case EXPRESSION_KIND_GREATER -> infix(e, " > ");
      case EXPRESSION_KIND_GREATER_EQUAL -> infix(e, " >= ");
      case EXPRESSION_KIND_AND -> infix(e, " AND ");
      case EXPRESSION_KIND_OR -> infix(e, " OR ");
      case EXPRESSION_KIND_NOT -> "NOT " + print(e.getChildren(0));
      case EXPRESSION_KIND_IS_NULL -> print(e.getChildren(0)) + " IS NULL";
      case EXPRESSION_KIND_IS_NOT_NULL -> print(e.getChildren(0)) + " IS NOT NULL";
      default -> e.getKind().name().replace("EXPRESSION_KIND_", "")
          + (e.getFunction().getNumber() != 0 ? " " + e.getFunction().name().replace("FUNCTION_", "") : "")
          + "(" + e.getChildrenList().stream().map(ExpressionPrinter::print).collect(Collectors.joining(", ")) + ")";
    };
  }

  private static String infix(Expression e, String op) {
    return "(" + e.getChildrenList().stream().map(ExpressionPrinter::print).collect(Collectors.joining(op)) + ")";
  }

  static String value(Value v) {
    return switch (v.getValueCase()) {
      case INT_VALUE -> Long.toString(v.getIntValue());
      case FLOAT_VALUE -> Double.toString(v.getFloatValue());
      case DECIMAL_VALUE -> v.getDecimalValue();
      case STRING_VALUE -> "'" + v.getStringValue().replace("'", "''") + "'";
      case BYTES_VALUE -> "X'" + java.util.HexFormat.of().formatHex(v.getBytesValue().toByteArray()) + "'";
      default -> "NULL";
    };
  }
}
