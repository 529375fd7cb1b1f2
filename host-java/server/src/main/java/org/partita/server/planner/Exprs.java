package org.partita.server.planner;

import com.google.protobuf.ByteString;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.function.IntUnaryOperator;
import org.partita.proto.Expression;
import org.partita.proto.ExpressionKind;
import org.partita.proto.Value;
import org.partita.proto.ValueType;

/** Builders and structural helpers for plan expressions ({@code proto/plan.proto}). */
final class Exprs {
  private Exprs() {}

  static Expression column(int index, ValueType type) {
    return Expression.newBuilder()
        .setKind(ExpressionKind.EXPRESSION_KIND_COLUMN)
        .setColumnIndex(index)
        .setValueType(type)
        .build();
  }

  static Expression parameter(int index, ValueType type) {
    return Expression.newBuilder()
        .setKind(ExpressionKind.EXPRESSION_KIND_PARAMETER)
        .setParameterIndex(index)
        .setValueType(type)
        .build();
  }

  static Expression constant(Value value) {
    return Expression.newBuilder()
        .setKind(ExpressionKind.EXPRESSION_KIND_CONSTANT)
        .setValueType(value.getType())
        .setConstant(value)
        .build();
  }

  static Value bigint(long v) {
    return Value.newBuilder().setType(ValueType.VALUE_TYPE_BIGINT).setIntValue(v).build();
  }

  static Value floatValue(double v) {
    return Value.newBuilder().setType(ValueType.VALUE_TYPE_FLOAT).setFloatValue(v).build();
  }

  static Value decimal(BigDecimal v) {
    return Value.newBuilder().setType(ValueType.VALUE_TYPE_DECIMAL).setDecimalValue(v.toPlainString()).build();
  }

  static Value varchar(String v) {
    return Value.newBuilder().setType(ValueType.VALUE_TYPE_VARCHAR).setStringValue(v).build();
  }

  static Value varbinary(byte[] v) {
    return Value.newBuilder().setType(ValueType.VALUE_TYPE_VARBINARY).setBytesValue(ByteString.copyFrom(v)).build();
  }

  static Value nullOf(ValueType type) {
    return Value.newBuilder().setType(type).build();
  }

  static Value booleanValue(boolean v) {
    return Value.newBuilder().setType(ValueType.VALUE_TYPE_BOOLEAN).setIntValue(v ? 1 : 0).build();
  }

  static Expression op(ExpressionKind kind, ValueType type, Expression... children) {
    return Expression.newBuilder().setKind(kind).setValueType(type).addAllChildren(List.of(children)).build();
  }

  static Expression op(ExpressionKind kind, ValueType type, List<Expression> children) {
    return Expression.newBuilder().setKind(kind).setValueType(type).addAllChildren(children).build();
  }

  static boolean isConstant(Expression e) {
    return e.getKind() == ExpressionKind.EXPRESSION_KIND_CONSTANT;
  }

  static boolean isNullConstant(Expression e) {
    return isConstant(e) && e.getConstant().getValueCase() == Value.ValueCase.VALUE_NOT_SET;
  }

  /** Splits an AND tree into its conjuncts. */
  static List<Expression> conjuncts(Expression e) {
    final List<Expression> out = new ArrayList<>();
    addConjuncts(e, out);
    return out;
  }

  private static void addConjuncts(Expression e, List<Expression> out) {
    if (e.getKind() == ExpressionKind.EXPRESSION_KIND_AND) {
      e.getChildrenList().forEach(child -> addConjuncts(child, out));
    } else {
      out.add(e);
    }
  }

  /** AND of the conjuncts; null for none. */
  static Expression and(List<Expression> conjuncts) {
    if (conjuncts.isEmpty()) {
      return null;
    }
    if (conjuncts.size() == 1) {
      return conjuncts.get(0);
    }
    return op(ExpressionKind.EXPRESSION_KIND_AND, ValueType.VALUE_TYPE_BOOLEAN, conjuncts);
  }

  /** Column positions the expression reads. */
  static BitSet columnsUsed(Expression e) {
    final BitSet used = new BitSet();
    collectColumns(e, used);
    return used;
  }

  private static void collectColumns(Expression e, BitSet used) {
    if (e.getKind() == ExpressionKind.EXPRESSION_KIND_COLUMN) {
      used.set(e.getColumnIndex());
    }
    e.getChildrenList().forEach(child -> collectColumns(child, used));
  }

  /**
   * Whether {@code e} holds a SUBQUERY or an OUTER_COLUMN: it must be
   * evaluated where the statement's plan runs, never in a fragment sent to
   * the partitions.
   */
  static boolean needsStatementContext(Expression e) {
    if (e.getKind() == ExpressionKind.EXPRESSION_KIND_SUBQUERY
        || e.getKind() == ExpressionKind.EXPRESSION_KIND_OUTER_COLUMN) {
      return true;
    }
    return e.getChildrenList().stream().anyMatch(Exprs::needsStatementContext);
  }

  /** Whether the expression reads no column (constants and parameters only). */
  static boolean isRowIndependent(Expression e) {
    return columnsUsed(e).isEmpty();
  }

  /** The expression with every column index mapped through {@code map}. */
  static Expression remapColumns(Expression e, IntUnaryOperator map) {
    if (e.getKind() == ExpressionKind.EXPRESSION_KIND_COLUMN) {
      return e.toBuilder().setColumnIndex(map.applyAsInt(e.getColumnIndex())).build();
    }
    if (e.getChildrenCount() == 0) {
      return e;
    }
    final Expression.Builder b = e.toBuilder().clearChildren();
    e.getChildrenList().forEach(child -> b.addChildren(remapColumns(child, map)));
    return b.build();
  }

  static Expression shiftColumns(Expression e, int delta) {
    return delta == 0 ? e : remapColumns(e, i -> i + delta);
  }

  /** The expression with PARAMETER types replaced by {@code types[index]}. */
  static Expression retypeParameters(Expression e, List<ValueType> types) {
    if (e.getKind() == ExpressionKind.EXPRESSION_KIND_PARAMETER) {
      return e.toBuilder().setValueType(types.get(e.getParameterIndex())).build();
    }
    if (e.getChildrenCount() == 0 && !e.hasSubquery()) {
      return e;
    }
    final Expression.Builder b = e.toBuilder().clearChildren();
    if (e.hasSubquery()) {
      b.setSubquery(ParameterRetyper.retype(e.getSubquery(), types));
    }
    e.getChildrenList().forEach(child -> b.addChildren(retypeParameters(child, types)));
    return b.build();
  }
}
